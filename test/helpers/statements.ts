import pg from 'pg';
import { EntityManager } from '@mikro-orm/core';
import { MARK_KEY_USED_SQL } from '../../src/auth/last-used';
import { SWEEP_SQL } from '../../src/db/write-sweep';

/**
 * The statements sent to PostgreSQL from here on, as the driver sends them (pg's Client.query):
 * those run through knex and those run on a pooled connection directly (src/data/orm-adapter.ts
 * runPooled), with `$n` placeholders. Left out: the key cache's own connection (its fences are
 * not a request's statements), the version check knex runs on a new pooled connection, and the
 * key's last-use mark (src/auth/last-used.ts: the first request of a minute per key writes it, so
 * it would make a request's count depend on the clock), and the write-position sweep that follows
 * commits in the background (src/db/write-sweep.ts: not a request's statement, and timed).
 */
// As the driver gets it: knex turns `?` into `$n`.
const MARK_USED = MARK_KEY_USED_SQL.slice(0, MARK_KEY_USED_SQL.indexOf('?'));

export function watchStatements() {
  const seen: string[] = [];
  const send = pg.Client.prototype.query;
  const spy = jest.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
    const text = typeof args[0] === 'string' ? args[0] : ((args[0] as { text?: string } | undefined)?.text ?? '');
    const app = (this as unknown as { connectionParameters?: { application_name?: string } }).connectionParameters?.application_name;
    if (app !== 'fsc-key-cache' && !/^select version\(\)/.test(text) && !text.startsWith(MARK_USED) && text !== SWEEP_SQL) seen.push(text);
    return (send as (...a: unknown[]) => unknown).apply(this, args) as never;
  });
  return {
    seen,
    get count() {
      return seen.length;
    },
    reset: () => void (seen.length = 0),
    stop: () => spy.mockRestore(),
  };
}

/** A statement as MikroORM's connection ran it, and whether the unit of work was flushing. */
export type Statement = { sql: string; params: unknown[]; flush: boolean };

/**
 * Records every statement MikroORM's connection of `orm` runs (with its `?` and parameters), and
 * whether it ran while a unit of work flushed (requests run one at a time in the tests that use
 * it). Call in beforeAll, and `stop()` in afterAll (the spec's neighbours in its suite share the
 * EntityManager class it watches); `recordOf(run)` gives the statements `run` sent.
 */
export function recordStatements(orm: { em: { getConnection(): unknown } }) {
  const recorded: Statement[] = [];
  let flushing = 0;
  const conn = orm.em.getConnection() as { executeQuery: (...args: unknown[]) => unknown };
  const original = conn.executeQuery.bind(conn);
  const queries = jest.spyOn(conn, 'executeQuery').mockImplementation((...args: unknown[]) => {
    const ctx = (args[2] ?? {}) as { query?: string; params?: unknown[] };
    recorded.push({ sql: String(ctx.query ?? args[0]), params: ctx.params ?? [], flush: flushing > 0 });
    return original(...args);
  });
  const flush = EntityManager.prototype.flush;
  const flushes = jest.spyOn(EntityManager.prototype, 'flush').mockImplementation(async function (this: EntityManager) {
    flushing++;
    try {
      return await flush.call(this);
    } finally {
      flushing--;
    }
  });
  return {
    async recordOf(run: () => Promise<unknown>): Promise<Statement[]> {
      recorded.length = 0;
      await run();
      return [...recorded];
    },
    stop(): void {
      queries.mockRestore();
      flushes.mockRestore();
    },
  };
}
