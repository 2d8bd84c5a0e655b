import { LogContext, TransactionEventBroadcaster, ValidationError } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';

// Every call of a protected or @internal MikroORM member is in this file, and nowhere else
// (test/data/orm-adapter.spec.ts checks that each exists with the arity and behaviour used here,
// and that no other file of src/ names one). MikroORM is pinned (6.6.16): an upgrade that
// renames or changes one of them fails that test, not a request.

type Data = Record<string, unknown>;

/** The members used, by owner: [name, declared parameter count]. */
export const ORM_INTERNALS = {
  EntityManager: [
    ['getContext', 0],
    ['tryFlush', 2],
    ['prepareOptions', 1],
    ['processWhere', 4],
    ['preparePopulate', 2],
    ['createPopulateWhere', 2],
    ['getJoinedFilters', 2],
  ],
  Connection: [
    ['executeQuery', 3],
    ['transformRawResult', 2],
  ],
  UnitOfWork: [['merge', 2]],
  EntityValidator: [['validateParams', 1]],
  /** knex's client (MikroORM's connection's `getKnex().client`): its pool. */
  KnexClient: [
    ['acquireConnection', 0],
    ['releaseConnection', 1],
  ],
} as const;

const ctxOf = (em: EntityManager) => (em as any).getContext() as any;

/**
 * Flushes what the request has persisted and not flushed yet that a read of `entityName` would
 * see (MikroORM's auto-flush before em.find), so that a statement written by hand reads the same.
 */
export async function autoFlush(em: EntityManager, entityName: string): Promise<void> {
  await ctxOf(em).tryFlush(entityName, {});
}

/** Whether the identity map is off (then em.find is the only read path). */
export function identityMapDisabled(em: EntityManager): boolean {
  return !!em.config.get('disableIdentityMap');
}

/**
 * The rows `em.find(entityName, where, options)` would read, unhydrated (keyed by property, as
 * the driver maps them): the statement is built by the steps EntityManager.find takes (filters,
 * including the joins that apply the tenant filter to relations, populate hints, auto-flush).
 * Null when the options ask to populate anything but those filter joins: use em.find then.
 */
export async function findRows(em: EntityManager, entityName: string, where: object, options: Data): Promise<Data[] | null> {
  const ctx = ctxOf(em);
  const meta = em.getMetadata().get(entityName);
  let opts: any = { ...options };
  ctx.prepareOptions(opts);
  await ctx.tryFlush(entityName, opts);
  const cond = await ctx.processWhere(entityName, where, opts, 'read');
  ctx.validator.validateParams(cond);
  opts.orderBy = opts.orderBy || {};
  opts.populate = await ctx.preparePopulate(entityName, opts);
  // The only hints allowed are the reference joins that apply filters to relations (`x:ref`).
  if (!opts.populate.every((h: { field: string; filter?: boolean; children?: unknown[] }) => h.filter && h.field.endsWith(':ref') && !h.children?.length)) return null;
  opts = { ...opts };
  opts._populateWhere = opts.populateWhere ?? ctx.config.get('populateWhere');
  opts.populateWhere = ctx.createPopulateWhere({ ...cond }, opts);
  opts.populateFilter = await ctx.getJoinedFilters(meta, opts);
  return ctx.driver.find(entityName, cond, { ctx: ctx.transactionContext, em: ctx, ...opts });
}

/**
 * Runs `query` (a knex query of the connection) as MikroORM runs its own statements: logged
 * (DEBUG_SQL) and timed by the connection, errors mapped by the driver, the result in the shape
 * `execute(sql, params, method)` gives.
 */
export function runLogged<T>(em: EntityManager, sql: string, params: readonly unknown[], method: 'all' | 'get', query: PromiseLike<unknown>): Promise<T> {
  const connection = em.getConnection() as any;
  // The EntityManager's logger context (a request's label) goes with it, as with MikroORM's own statements.
  return connection.executeQuery(sql, async () => connection.transformRawResult(await query, method), { ...em.getLoggerContext(), query: sql, params });
}

export interface PgConnection {
  /** Without a name: an unnamed statement (parsed for this execution only). */
  query(config: { name?: string; text: string; values: unknown[] } | string): Promise<unknown>;
}

/**
 * Runs a named prepared statement on a connection of the ORM's pool, taken and given back as knex
 * takes them (`acquireConnection`, `releaseConnection`; in a transaction, its client's: the
 * transaction's connection), without knex's query builder and runner; logged and timed by
 * MikroORM's connection as runLogged does, the result in the shape `execute(sql, params, method)` gives. `text` has PostgreSQL's
 * `$n` placeholders. A driver error is thrown as the driver gives it (knex would have prefixed its
 * message with the statement and its values).
 */
export function runPooled<T>(em: EntityManager, sql: string, name: string, text: string, params: readonly unknown[], method: 'all' | 'get', trx?: unknown): Promise<T> {
  return onPooledConnection<T>(em, sql, params, method, trx, (pg) => pg.query({ name, text, values: params as unknown[] }));
}

/**
 * Runs `run` on a connection of the ORM's pool as runPooled runs its statement (logged, timed, the
 * connection given back); `run` may send several queries on it, and its last result is the answer.
 */
export function onPooledConnection<T>(
  em: EntityManager,
  sql: string,
  params: readonly unknown[],
  method: 'all' | 'get',
  trx: unknown,
  run: (pg: PgConnection) => Promise<unknown>,
): Promise<T> {
  const connection = em.getConnection() as any;
  // In a transaction, its client hands out the transaction's connection and takes nothing back.
  const tx = trx as { client: unknown; isCompleted(): boolean } | undefined;
  const client = (tx ? tx.client : connection.getKnex().client) as { acquireConnection(): Promise<unknown>; releaseConnection(c: unknown): Promise<void> };
  return connection.executeQuery(
    sql,
    async () => {
      // knex's refusal of a statement on a transaction that has ended (its connection may be another's by now).
      if (tx?.isCompleted()) throw new Error('Transaction query already complete, run with DEBUG=knex:tx for more info');
      const pg = (await client.acquireConnection()) as PgConnection;
      try {
        return connection.transformRawResult(await run(pg), method);
      } finally {
        await client.releaseConnection(pg);
      }
    },
    { ...em.getLoggerContext(), query: sql, params },
  );
}

/** Tells the unit of work that `entity` is as the database holds it (after a statement written by hand changed its row): no flush writes it again. */
export function markClean(em: EntityManager, entity: object): void {
  em.getUnitOfWork().merge(entity);
}

/**
 * em.commit() or em.rollback() of a transaction begun with em.begin(), its COMMIT or ROLLBACK logged
 * with `loggerContext` (the request's label, DEBUG_SQL): MikroORM's own pass the connection none.
 */
export async function endTransaction(em: EntityManager, how: 'commit' | 'rollback', loggerContext: LogContext): Promise<void> {
  const trx = em.getTransactionContext();
  if (!trx) throw ValidationError.transactionRequired();
  const connection = em.getConnection('write');
  if (how === 'commit') {
    await em.flush();
    await connection.commit(trx, new TransactionEventBroadcaster(em), loggerContext);
  } else {
    await connection.rollback(trx, new TransactionEventBroadcaster(em), loggerContext);
    em.getUnitOfWork().clearActionsQueue();
  }
  em.resetTransactionContext();
}
