import { companyCondition } from '../../data/tenant';

// The statements of the feed (docs/events.md). The functions they call are defined in
// migrations/Migration20261125000010_events.ts.

/** Gives positions to the events of finished transactions (serialized inside by an advisory lock). */
export const ASSIGN_SQL = 'select events_assign() as assigned';

/** Deletes up to `batch` of the oldest positioned events created before the cutoff; returns how many. */
export const PRUNE_SQL = 'select events_prune(?::timestamptz, ?::int) as pruned';

/**
 * A page of the company's events after a position, with the newest position given and the newest
 * pruned, all read in one snapshot: an event positioned later gets a larger position than `top`.
 * events_page (migration 0017) reads the page by the (company, position) index whatever the
 * table's statistics say; its type filter is null (every type) or the exact types and resources.
 */
export const PAGE_SQL = `select s.top, s.pruned, e.id, e.type, e.resource, e.record_uuid, e.actor, e.row, e.previous, e.created_at, e.position
from (select coalesce(max(position), 0) as top, coalesce(max(pruned_through), 0) as pruned from event_feed_state) as s
left join lateral events_page(?, ?, ?::text[], ?::text[], ?) as e on true
order by e.position`;

/** One event of the company. */
export const ONE_SQL = `select id, type, resource, record_uuid, actor, row, previous, created_at from events where ${companyCondition()} and id = ?`;

/** The newest position given. */
export const HEAD_SQL = `select coalesce(max(position), 0) as top from event_feed_state`;

/** The feed's lag: the oldest committed event still without a position, and the oldest running writer. */
export const LAG_SQL = `select extract(epoch from now() - (select min(created_at) from events where position is null)) as unassigned_age,
  extract(epoch from now() - (select min(xact_start) from pg_stat_activity where datname = current_database() and backend_xid is not null and pid <> pg_backend_pid())) as oldest_writer_age`;
