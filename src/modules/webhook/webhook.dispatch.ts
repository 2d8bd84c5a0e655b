import type { Knex } from '@mikro-orm/postgresql';
import type { Orm } from '../../db/orm';
import { toRest } from '../../rest/case-map';
import { narrowFilter, parseTypePatterns, typeMatches, type TypeFilter } from '../event/event.catalogue';
import { type EventRow } from '../event/event.render';
import { renderEventFast } from '../event/event.render-fast';
import { ASSIGN_SQL } from '../event/event.sql';
import { Event } from '../event/event.types';

// The dispatcher (docs/webhooks.md): a reader of the event feed, across companies, with its cursor
// (the last position read) in webhook_dispatch_state. In one transaction it locks the cursor row
// (SKIP LOCKED: one dispatcher at a time, the others skip), reads the next positioned events,
// writes a delivery per matching active endpoint with the event's JSON exactly as the feed shows
// it (stored once: every attempt sends those bytes), and moves the cursor. Positions are given
// only to committed events, so a rolled-back change is never delivered, and a crash rolls the
// whole step back: nothing is lost or written twice.

export const DISPATCH_BATCH = 500;

/**
 * A row when an event lies past the cursor. Ordered by position, so that it reads the position
 * index from the cursor on: without the order, the planner expects a third of the table past the
 * cursor and scans the table for the first one, which, with nothing due, reads every event every
 * turn (test/modules/webhook/due.spec.ts).
 */
export const DUE_SQL = `select 1 from events where position > coalesce((select position from webhook_dispatch_state where id = 1), 0) order by position limit 1`;

interface Positioned extends EventRow {
  company_uuid: string;
  position: string;
}

interface ActiveEndpoint {
  uuid: string;
  company_uuid: string;
  event_types: string[];
  /** The event resources of the key that created or last changed it (null: all). */
  readable_resources: string[] | null;
  created_at: Date;
}

const rows = async <T>(trx: Knex.Transaction, text: string, params: readonly unknown[] = []): Promise<T[]> =>
  ((await trx.raw(text, params as Knex.RawBinding[])) as { rows: T[] }).rows;

/** One dispatch step; returns how many events it read (0: nothing new, or another process dispatches). */
export async function dispatchEvents(orm: Orm, batch = DISPATCH_BATCH): Promise<number> {
  const conn = orm.em.getConnection();
  await conn.execute(ASSIGN_SQL);
  // Idle turns stay one statement: a transaction only when there is something to read.
  const [due] = await conn.execute<unknown[]>(DUE_SQL);
  if (!due) return 0;
  const knex = orm.em.getConnection().getKnex();
  return knex.transaction(async (trx) => {
    let [state] = await rows<{ position: string }>(trx, 'select position from webhook_dispatch_state where id = 1 for update skip locked');
    if (!state) {
      // No row (an emptied database): start from the beginning of the feed.
      const made = await rows(trx, 'insert into webhook_dispatch_state values (1, 0) on conflict do nothing returning position');
      if (!made.length) return 0;
      [state] = await rows<{ position: string }>(trx, 'select position from webhook_dispatch_state where id = 1 for update');
    }
    const events = await rows<Positioned>(
      trx,
      `select id, company_uuid, type, resource, record_uuid, actor, row, previous, created_at, position from events
      where position > ? order by position limit ?`,
      [state.position, batch],
    );
    if (!events.length) return 0;
    const companies = [...new Set(events.map((e) => e.company_uuid))];
    const endpoints = await rows<ActiveEndpoint>(
      trx,
      `select uuid, company_uuid, event_types, readable_resources, created_at from webhook_endpoints where status = 'active' and company_uuid in (select jsonb_array_elements_text(?::jsonb)::uuid)`,
      [JSON.stringify(companies)],
    );
    const byCompany = new Map<string, Array<ActiveEndpoint & { filter: TypeFilter | null }>>();
    for (const e of endpoints) {
      const list = byCompany.get(e.company_uuid) ?? [];
      // Its selection, narrowed to what its key could read in the feed (docs/people-and-access.md).
      list.push({ ...e, filter: narrowFilter(parseTypePatterns(e.event_types.join(',')), e.readable_resources) });
      byCompany.set(e.company_uuid, list);
    }
    const deliveries: Array<{ endpoint_uuid: string; company_uuid: string; event_id: string; event_type: string; body: string }> = [];
    for (const event of events) {
      let body: string | undefined;
      let id: string | undefined;
      for (const ep of byCompany.get(event.company_uuid) ?? []) {
        // An endpoint receives the events of changes that began after it was created.
        if (!typeMatches(ep.filter, event.type) || new Date(event.created_at) < new Date(ep.created_at)) continue;
        if (body === undefined) {
          const rendered = toRest(Event, renderEventFast(orm.em, event));
          id = rendered.id as string;
          body = JSON.stringify(rendered);
        }
        deliveries.push({ endpoint_uuid: ep.uuid, company_uuid: event.company_uuid, event_id: id!, event_type: event.type, body });
      }
    }
    if (deliveries.length) {
      await trx.raw(
        `insert into webhook_deliveries (endpoint_uuid, company_uuid, event_id, event_type, body)
        select endpoint_uuid, company_uuid, event_id, event_type, body
        from jsonb_to_recordset(?::jsonb) as x(endpoint_uuid uuid, company_uuid uuid, event_id text, event_type text, body text)
        on conflict (endpoint_uuid, event_id) do nothing`,
        [JSON.stringify(deliveries)],
      );
    }
    await trx.raw('update webhook_dispatch_state set position = ? where id = 1', [events[events.length - 1].position]);
    return events.length;
  });
}
