import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { escapeLiteral } from 'pg';
import { onPooledConnection, runLogged, runPooled } from './orm-adapter';

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
 * change under it (a migration that adds a column while a server runs).
 *
 * DB_PREPARED_STATEMENTS=false is for a connection pooler in transaction mode that cannot keep a
 * connection's prepared statements for its client (PgBouncer before 1.21): each transaction may run
 * on another of its server connections. Outside a transaction such a statement is still prepared,
 * with SQL's PREPARE, on each server connection it reaches (runKept), and each execution is one
 * `EXECUTE name(values)`; in a transaction, and for a statement not to be prepared, it runs through
 * MikroORM with its values written into its text.
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
  const plain = () => connection.execute(sql, [...params], method, trx, em.getLoggerContext());
  if (!prepare || params.some((p) => Array.isArray(p))) return plain();
  let st = statements.get(sql);
  if (!st) statements.set(sql, (st = statementOf(sql)));
  if (!enabled && (trx || st.kept === null || params.some((p) => p instanceof Uint8Array))) return plain();
  await connection.ensureConnection();
  // On the connection directly (runPooled, runKept: a pooled one, or the transaction's); the values
  // are checked as knex checks them, so that both ways refuse the same calls.
  if (st.text !== null) {
    if (params.some((p) => p === undefined)) throw new Error(`Undefined binding(s) detected: a value of the statement is undefined (${sql})`);
    if (!enabled) return runKept<T>(em, sql, st.kept!, st.text, params, method);
    return runPooled<T>(em, sql, st.name, st.text, params, method, trx);
  }
  const query = connection.getKnex().raw(sql, params).options({ name: st.name });
  if (trx) query.transacting(trx);
  return runLogged<T>(em, sql, params, method, query);
}

/**
 * A statement's name (a hash of its text) and its text with PostgreSQL's placeholders: each `?`
 * becomes `$1`, `$2`, … as knex numbers them; null when the text holds `??` or an escaped `\?`
 * (knex's identifier and literal forms), which then go through knex. `kept`: its name when kept by
 * SQL's PREPARE (runKept), its own (`fsk_…`), because a connection's statements prepared by SQL and
 * by the protocol share one namespace; null when runKept cannot hold its text.
 */
export function statementOf(sql: string): Statement {
  const hash = createHash('sha1').update(sql).digest('hex').slice(0, 24);
  const name = `fsc_${hash}`;
  if (/\?\?|\\\?/.test(sql)) return { name, text: null, kept: null };
  let n = 0;
  const text = sql.replace(/\?/g, () => `$${++n}`);
  return { name, text, kept: text.includes('$fsc$') ? null : `fsk_${hash}` };
}

interface Statement {
  name: string;
  text: string | null;
  kept: string | null;
}

/** PostgreSQL's undefined_pstatement: EXECUTE of a name this connection has not prepared. */
const UNDEFINED_PSTATEMENT = '26000';

/**
 * A statement kept by name on whichever server connection a pooler in transaction mode gives:
 * `EXECUTE name(values)` in one simple query (its own transaction, so on one server connection);
 * where that connection has not prepared it yet (PostgreSQL answers 26000, and nothing else has
 * happened), the same query again after a block that prepares it there unless it is there already,
 * in one message too, so that both run on the same server connection. Each value is written as a
 * quoted literal of the text that the extended protocol would send for it (pg's prepareValue), which
 * EXECUTE casts to the parameter's type as Bind would: the same values, the same answers
 * (test/data/prepared-off.spec.ts).
 */
function runKept<T>(em: EntityManager, sql: string, name: string, text: string, params: readonly unknown[], method: 'all' | 'get'): Promise<T> {
  const call = params.length ? `execute ${name}(${params.map(literal).join(', ')})` : `execute ${name}`;
  return onPooledConnection<T>(em, sql, params, method, undefined, async (pg) => {
    try {
      return await pg.query(call);
    } catch (e) {
      if ((e as { code?: string }).code !== UNDEFINED_PSTATEMENT) throw e;
      const results = (await pg.query(`${prepareUnlessThere(name, text)}; ${call}`)) as unknown[];
      return results[results.length - 1];
    }
  });
}

/** A block that prepares `text` as `name` on its connection unless a statement of that name is there. */
export function prepareUnlessThere(name: string, text: string): string {
  return `do $fsc$ begin if not exists (select from pg_prepared_statements where name = '${name}') then execute ${escapeLiteral(`prepare ${name} as ${text}`)}; end if; end $fsc$`;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { prepareValue } = require('pg/lib/utils') as { prepareValue(value: unknown): unknown };

function literal(value: unknown): string {
  const text = prepareValue(value);
  return text === null || text === undefined ? 'null' : escapeLiteral(String(text));
}

const statements = new Map<string, Statement>();

let enabled = true;

/** DB_PREPARED_STATEMENTS (set by createApp). */
export function usePreparedStatements(on: boolean): void {
  enabled = on;
}
