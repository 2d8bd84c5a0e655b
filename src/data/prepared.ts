import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { runLogged, runPooled } from './orm-adapter';

/**
 * A statement the server runs on every request of a kind (the key lookup, list pages), run as a
 * named prepared statement of its connection (unless `prepare` is false: its best plan depends on
 * its values, such as a search pattern): PostgreSQL parses it once per connection instead of on
 * every request (~3 ms of the database's CPU for a GraphQL page of invoices, more than executing
 * the page itself). It still plans it for each execution's values where the generic plan looks
 * dearer, as it does for a page whose `limit` is a parameter (pg_prepared_statements counts only
 * custom plans for the list pages: ~0.8 ms of planning a job list page). Its parameters travel
 * separately (MikroORM's execute writes them into the text, so that every request is a new statement).
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
  let st = statements.get(sql);
  if (!st) statements.set(sql, (st = statementOf(sql)));
  // On the connection directly (runPooled: a pooled one, or the transaction's); the values are
  // checked as knex checks them, so that both ways refuse the same calls.
  if (st.text !== null) {
    if (params.some((p) => p === undefined)) throw new Error(`Undefined binding(s) detected: a value of the statement is undefined (${sql})`);
    return runPooled<T>(em, sql, st.name, st.text, params, method, trx);
  }
  const query = connection.getKnex().raw(sql, params).options({ name: st.name });
  if (trx) query.transacting(trx);
  return runLogged<T>(em, sql, params, method, query);
}

/**
 * A statement's name (a hash of its text) and its text with PostgreSQL's placeholders: each `?`
 * becomes `$1`, `$2`, … as knex numbers them; null when the text holds `??` or an escaped `\?`
 * (knex's identifier and literal forms), which then go through knex.
 */
export function statementOf(sql: string): { name: string; text: string | null } {
  const name = `fsc_${createHash('sha1').update(sql).digest('hex').slice(0, 24)}`;
  if (/\?\?|\\\?/.test(sql)) return { name, text: null };
  let n = 0;
  return { name, text: sql.replace(/\?/g, () => `$${++n}`) };
}

const statements = new Map<string, { name: string; text: string | null }>();

let enabled = true;

/** DB_PREPARED_STATEMENTS (set by createApp). */
export function usePreparedStatements(on: boolean): void {
  enabled = on;
}
