import type { Orm } from '../../db/orm';
import { logger } from '../../logger';
import { ASSIGN_SQL, LAG_SQL, PRUNE_SQL } from './event.sql';

// Background work of the feed, in every server process: each tick does idempotent work in
// PostgreSQL, so nothing is lost when a process stops (another one's tick, or the next reader,
// does it). Positions: events_assign() (serialized by an advisory lock). Retention:
// events_prune() (one process at a time by a try-lock; the others skip).

export const ASSIGN_EVERY_MS = 1000;
export const PRUNE_EVERY_MS = 60_000;

export interface EventMaintenance {
  stop(): void;
}

export async function assignPositions(orm: Orm): Promise<number> {
  let total = 0;
  for (;;) {
    const [{ assigned }] = await orm.em.getConnection().execute<{ assigned: string }[]>(ASSIGN_SQL);
    if (Number(assigned) === 0) return total;
    total += Number(assigned);
  }
}

/** Deletes the positioned events older than `retentionDays`, in batches; returns how many. */
export async function pruneEvents(orm: Orm, retentionDays: number, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000).toISOString();
  let total = 0;
  for (;;) {
    const [{ pruned }] = await orm.em.getConnection().execute<{ pruned: string }[]>(PRUNE_SQL, [cutoff, 5000]);
    if (Number(pruned) === 0) return total;
    total += Number(pruned);
  }
}

/** The feed's lag in seconds (null: none): the oldest finished event without a position, the oldest running writer. */
export async function feedLag(orm: Orm): Promise<{ unassigned: number | null; oldestWriter: number | null }> {
  const [row] = await orm.em.getConnection().execute<{ unassigned_age: string | null; oldest_writer_age: string | null }[]>(LAG_SQL);
  const n = (v: string | null) => (v === null ? null : Math.max(0, Number(v)));
  return { unassigned: n(row.unassigned_age), oldestWriter: n(row.oldest_writer_age) };
}

export function startEventMaintenance(orm: Orm, retentionDays: number): EventMaintenance {
  let busy = false;
  const run = (what: string, fn: () => Promise<unknown>) => async () => {
    if (busy) return;
    busy = true;
    try {
      await fn();
    } catch (err) {
      logger.warn({ err }, `event ${what} failed; the next tick retries`);
    } finally {
      busy = false;
    }
  };
  const timers = [
    setInterval(run('positions', () => assignPositions(orm)), ASSIGN_EVERY_MS),
    setInterval(run('retention', () => pruneEvents(orm, retentionDays)), PRUNE_EVERY_MS),
  ];
  for (const t of timers) t.unref();
  return { stop: () => timers.forEach(clearInterval) };
}
