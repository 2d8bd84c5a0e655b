import type { EntityManager } from '@mikro-orm/postgresql';
import { ReferenceKind } from '@mikro-orm/core';
import { declaredAccessor, leanColumnMapper } from '../../data/record';
import { restFieldsOf } from '../../schema/fields';
import { restWriter, toRest } from '../../rest/case-map';
import type { EventResource } from './event.catalogue';
import { SYSTEM_ACTOR } from './event.actor';
import { ENTITIES, eventId, same, type EventRow } from './event.render';
import { Event, EventActor } from './event.types';

// The feed's renderer (docs/events.md "Reading fast"): the same answers as renderEvent (the
// plain path, test/modules/event/render-fast.spec.ts compares them on every resource), with less
// work per event. A profile of the feed put ~40% of the render in `data.previous`: the plain path
// maps the whole row a second time with the old values and writes and compares every REST field.
// Here the old record is the new instance with only the changed columns mapped again, and only
// the REST fields that can differ are written and compared: those read straight from a changed
// column, and those computed by getters (which may read any column).

type Writer = (obj: unknown) => Record<string, unknown>;

interface Plan {
  mapper: (row: Record<string, unknown>) => object;
  /** REST field names in declaration order, with the column each reads directly (null: computed). */
  fields: Array<{ restName: string; column: string | null }>;
  /** Writers of the fields that can change, by the sorted list of changed columns. */
  writers: Map<string, Writer>;
}

const plans = new WeakMap<Function, Plan>();
const MAX_WRITERS = 256;

function planOf(em: EntityManager, resource: EventResource): Plan {
  const entity = ENTITIES[resource];
  let plan = plans.get(entity);
  if (plan) return plan;
  const meta = em.getMetadata().get(entity.name);
  const fields = restFieldsOf(entity)
    .filter((f) => f.io === 'out')
    .map((f) => {
      const prop = meta.properties[f.prop as keyof typeof meta.properties] as any;
      // A field reads one column directly when it is a mapped scalar property (not a relation, a
      // formula or a declared getter): the lean mapper sets it from that column alone.
      const direct = prop && prop.kind === ReferenceKind.SCALAR && !prop.formula && prop.persist !== false && prop.fieldNames?.length === 1 && !declaredAccessor(entity.prototype, f.prop);
      return { restName: f.restName, column: direct ? (prop.fieldNames[0] as string) : null };
    });
  plan = { mapper: leanColumnMapper(em, entity) as Plan['mapper'], fields, writers: new Map() };
  plans.set(entity, plan);
  return plan;
}

function changedWriter(entity: Function, plan: Plan, previous: Record<string, unknown>): Writer {
  const columns = Object.keys(previous).sort().join(',');
  let write = plan.writers.get(columns);
  if (!write) {
    const changed = new Set(Object.keys(previous));
    const names = plan.fields.filter((f) => f.column === null || changed.has(f.column)).map((f) => f.restName);
    write = restWriter(entity, names);
    if (plan.writers.size < MAX_WRITERS) plan.writers.set(columns, write);
  }
  return write;
}

/** One event as renderEvent renders it. */
export function renderEventFast(em: EntityManager, r: EventRow): Event {
  const plan = planOf(em, r.resource);
  const entity = ENTITIES[r.resource];
  const instance = plan.mapper(r.row);
  const object = toRest(entity, instance);
  const data: Record<string, unknown> = { object };
  if (r.previous) {
    // The record before the change: the same instance with the changed columns' old values.
    const before = Object.assign(Object.assign(Object.create(Object.getPrototypeOf(instance)), instance), plan.mapper(r.previous));
    const candidates = changedWriter(entity, plan, r.previous)(before);
    const previous: Record<string, unknown> = {};
    for (const k in candidates) if (!same(candidates[k], object[k])) previous[k] = candidates[k];
    data.previous = previous;
  }
  const a = r.actor ?? SYSTEM_ACTOR;
  const actor = Object.assign(new EventActor(), { type: a.type, keyId: a.key_id ?? null, userId: a.user_id ?? null, requestId: a.request_id ?? null });
  return Object.assign(new Event(), { id: eventId(r.id), type: r.type, createdAt: new Date(r.created_at), resource: r.resource, recordUuid: r.record_uuid, actor, data });
}
