import type { EntityManager } from '@mikro-orm/postgresql';
import type { UsagePeriod } from '../modules/api-key/api-key.entity';

export const USAGE_PERIODS: readonly UsagePeriod[] = ['hour', 'day', 'month'];

export interface Usage {
  limit: number;
  /** Requests counted in the current window, this one included. */
  count: number;
  remaining: number;
  /** Seconds until the window ends (at least 1). */
  resetSeconds: number;
  exceeded: boolean;
}

// One statement: the window (fixed, aligned to UTC, from the database clock so that every server
// process agrees) is upserted and incremented atomically; the row lock serialises concurrent
// requests of the same key without a transaction of our own. The window's end is computed in UTC
// too, so a month or day is never stretched by the session's daylight-saving rules.
const COUNT_SQL = `
  insert into api_key_usage as u (key_id, window_start, count)
  values (?, date_trunc(?, now(), 'UTC'), 1)
  on conflict (key_id, window_start) do update set count = u.count + 1
  returning u.count,
    greatest(1, ceil(extract(epoch from
      (((u.window_start at time zone 'UTC') + ('1 ' || ?)::interval) at time zone 'UTC') - now())))::int as reset`;

/** Counts one request of a key with a usage limit and tells whether it is past the limit. */
export async function countRequest(em: EntityManager, keyId: string, limit: number, period: UsagePeriod): Promise<Usage> {
  const rows = await em.getConnection().execute<{ count: number; reset: number }[]>(COUNT_SQL, [keyId, period, period]);
  const count = Number(rows[0].count);
  return { limit, count, remaining: Math.max(0, limit - count), resetSeconds: Number(rows[0].reset), exceeded: count > limit };
}
