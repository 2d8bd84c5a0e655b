// The statements of the live feed reader (docs/live-updates.md). Positions are given by
// events_assign() (src/modules/event/event.sql.ts); the reader reads every company's events by
// position (events_position_idx, migration 0015) and hands each to the subscribers of its company.

/**
 * Across companies, by design: the process's one reader serves every company's subscribers, so it
 * reads every company's events and hands each only to its own company's subscribers (the hub).
 * Events of every company after a position, in position order, with the newest position given
 * (`top`, read in the same snapshot: below the reader's position only when the feed was emptied).
 */
export const LIVE_PAGE_SQL = `select s.top, e.id, e.company_uuid, e.type, e.resource, e.record_uuid, e.actor, e.row, e.previous, e.created_at, e.position
from (select coalesce(max(position), 0) as top from event_feed_state) as s
left join lateral (select * from events where position > ? order by position limit ?) as e on true
order by e.position`;

/** Whether finished transactions still wait for positions (events_assign stopped at a running writer). */
export const LIVE_PENDING_SQL = `select exists (select 1 from event_transactions where commit_seq is not null) as pending`;
