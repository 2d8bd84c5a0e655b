import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { runLogged } from './orm-adapter';

/**
 * A statement the server runs on every request of a kind (the key lookup, list pages), run as a
 * named prepared statement of its connection (unless `prepare` is false: its best plan depends on
 * its values, such as a search pattern): PostgreSQL parses and plans it once per connection
 * instead of on every request (~3 ms of the database's CPU for a GraphQL page of invoices, more
 * than executing the page itself). Its parameters travel separately (MikroORM's execute writes
 * them into the text, so that every request is a new statement).
 *
 * The name is a hash of the text: one statement per text and connection, and the texts are
 * written by code (values are parameters), so their number is bounded. A statement with a list
 * parameter (`in (?)`, which MikroORM expands) runs through MikroORM as before. Logged like any
 * other statement (DEBUG_SQL), and inside a transaction it runs on the transaction's connection.
 * Columns are named, never `*` at the top level: a prepared statement's result columns must not
 * change under it (a migration that adds a column while a server runs). DB_PREPARED_STATEMENTS=false
 * runs them all through MikroORM, for a connection pooler that does not keep prepared statements
 * (PgBouncer in transaction mode before 1.21).
 */
export async function runStatement<T = Record<string, unknown>>(
  em: EntityManager,
  sql: string,
  params: readonly unknown[],
  method: 'all' | 'get' = 'all',
  prepare = true,
): Promise<T> {
  const connection = em.getConnection() as any;
  const trx = em.getTransactionContext();
  if (!prepare || !enabled || params.some((p) => Array.isArray(p))) return connection.execute(sql, [...params], method, trx, em.getLoggerContext());
  await connection.ensureConnection();
  let name = names.get(sql);
  if (!name) names.set(sql, (name = `fsc_${createHash('sha1').update(sql).digest('hex').slice(0, 24)}`));
  const query = connection.getKnex().raw(sql, params).options({ name });
  if (trx) query.transacting(trx);
  return runLogged<T>(em, sql, params, method, query);
}

const names = new Map<string, string>();

let enabled = true;

/** DB_PREPARED_STATEMENTS (set by createApp). */
export function usePreparedStatements(on: boolean): void {
  enabled = on;
}
