import type { EntityManager } from '@mikro-orm/postgresql';
import { leanColumnMapper } from '../../data/record';
import { toRest } from '../../rest/case-map';
import { Customer } from '../customer/customer.entity';
import { Estimate } from '../estimate/estimate.entity';
import { Invoice } from '../invoice/invoice.entity';
import { Job } from '../job/job.entity';
import { JobPhoto } from '../job-photo/job-photo.entity';
import { Location } from '../location/location.entity';
import { Payment } from '../payment/payment.entity';
import { Template } from '../template/template.entity';
import { Visit } from '../visit/visit.entity';
import { RecurringInvoice } from '../recurring/recurring.entity';
import type { EventResource } from './event.catalogue';
import { SYSTEM_ACTOR, type Actor } from './event.actor';
import { Event, EventActor } from './event.types';

// An event row as the feed shows it. `data.object` is the row image the trigger stored, read by
// the entity's own mapping (leanRecord: the same conversions as every read) and written by its
// REST field declarations (toRest): the record exactly as REST GET shows it, without the embedded
// summaries a route adds. `data.previous` is the difference between that and the same record with
// the old values of the columns that changed, by REST name.

export const ENTITIES: Record<EventResource, new () => object> = {
  customer: Customer,
  location: Location,
  template: Template,
  estimate: Estimate,
  job: Job,
  job_photo: JobPhoto,
  invoice: Invoice,
  payment: Payment,
  visit: Visit,
  recurring_invoice: RecurringInvoice,
};

export interface EventRow {
  id: string;
  type: string;
  resource: EventResource;
  record_uuid: string;
  actor: Actor | null;
  row: Record<string, unknown>;
  previous: Record<string, unknown> | null;
  created_at: Date | string;
}

/** The public id of an event: `evt_` and its row id in base 36. */
export const eventId = (rowId: string | number | bigint) => `evt_${BigInt(rowId).toString(36)}`;

/** The row id of a public event id; null when it is not one. */
export function eventRowId(id: string): string | null {
  const m = /^evt_([0-9a-z]{1,12})$/.exec(id);
  if (!m) return null;
  let n = 0n;
  for (const ch of m[1]) n = n * 36n + BigInt(parseInt(ch, 36));
  return n <= 9223372036854775807n ? n.toString() : null;
}

function recordOf(em: EntityManager, resource: EventResource, row: Record<string, unknown>): Record<string, unknown> {
  const entity = ENTITIES[resource];
  return toRest(entity, leanColumnMapper(em, entity)(row));
}

export const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

export function renderEvent(em: EntityManager, r: EventRow): Event {
  const object = recordOf(em, r.resource, r.row);
  const data: Record<string, unknown> = { object };
  if (r.previous) {
    const before = recordOf(em, r.resource, { ...r.row, ...r.previous });
    const previous: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(before)) if (!same(v, object[k])) previous[k] = v;
    data.previous = previous;
  }
  const a = r.actor ?? SYSTEM_ACTOR;
  const actor = Object.assign(new EventActor(), { type: a.type, keyId: a.key_id ?? null, userId: a.user_id ?? null, requestId: a.request_id ?? null });
  return Object.assign(new Event(), { id: eventId(r.id), type: r.type, createdAt: new Date(r.created_at), resource: r.resource, recordUuid: r.record_uuid, actor, data });
}
