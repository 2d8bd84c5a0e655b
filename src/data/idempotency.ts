import { createHash } from 'node:crypto';
import { companyIs } from './tenant';
import type { RequestContext } from './context';
import { Loaders } from './loaders';
import { AppError } from '../errors/app-error';
import { endTransaction } from './orm-adapter';

// Idempotency-Key on creates (docs/invoices-and-payments.md), one mechanism for REST and
// GraphQL. A key is scoped to the API key and the route; the first successful response is kept in
// PostgreSQL for 24 h and returned for the same key and body; another body is a 400; errors are
// not kept.
//
// The key's row, the records the request creates and the response it answers are written in ONE
// transaction: a crash (or kill -9) at any point leaves either all of them or none, so a retry
// either replays the response or runs the create anew, never both. A twin request with the same
// key waits on the first one's uncommitted row (PostgreSQL's unique index), then replays it.

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
const TTL = `interval '24 hours'`;
// How long a twin waits for the request that holds its key before it is told to retry later.
const WAIT = `'30s'`;

export type IdempotentStart =
  | { kind: 'replay'; response: unknown }
  | {
      kind: 'run';
      /** The request's context inside the transaction that holds the key: run the create with it. */
      ctx: RequestContext;
      /** Keeps the response and commits everything; the response may be sent only after. */
      finish(response: unknown): Promise<void>;
      /** Rolls everything back (the create failed, or its client went away). */
      abandon(): Promise<void>;
    };

/** JSON with object keys sorted at every level, so that key order does not matter. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

function checkKey(key: string): string {
  const k = key.trim();
  if (!k || k.length > 255 || !/^[\x21-\x7e]+$/.test(k)) {
    throw AppError.field(IDEMPOTENCY_HEADER, 'must be 1 to 255 visible ASCII characters');
  }
  return k;
}

/**
 * Claims the key inside a new transaction for the request, or returns the stored response of the
 * first request with this key (waiting for it while it runs).
 */
export async function beginIdempotent(ctx: RequestContext, route: string, rawKey: string, body: unknown): Promise<IdempotentStart> {
  const key = checkKey(rawKey);
  const hash = createHash('sha256').update(canonicalJson(body)).digest('hex');
  const pk = [ctx.apiKey.id, route, key];
  // Expired rows are purged opportunistically, per company, outside the request's transaction.
  // Every statement logged with the request's label (DEBUG_SQL), as every statement of a request is.
  const log = ctx.em.getLoggerContext();
  await ctx.em.getConnection().execute(`delete from idempotency_keys where ${companyIs(ctx).sql} and expires_at < now()`, companyIs(ctx).params, 'run', undefined, log);
  const em = ctx.em.fork({ clear: false, loggerContext: log });
  await em.begin({ loggerContext: log });
  const run = <T>(sql: string, params: unknown[]) => em.getConnection().execute(sql, params, 'all', em.getTransactionContext(), log) as Promise<T[]>;
  let open = true;
  const rollback = async () => {
    if (!open) return;
    open = false;
    await endTransaction(em, 'rollback', log);
  };
  try {
    await run(`set local lock_timeout = ${WAIT}`, []);
    for (;;) {
      // Waits while a twin holds an uncommitted row for this key; inserts once none is committed.
      const claimed = await run(
        `insert into idempotency_keys (api_key_id, route, key, company_uuid, request_hash, state, expires_at)
         values (?, ?, ?, ?, ?, 'running', now() + ${TTL}) on conflict do nothing returning key`,
        [...pk, ctx.companyId, hash],
      );
      if (claimed.length) break;
      const [row] = await run<{ request_hash: string; state: string; response: unknown; expired: boolean }>(
        `select request_hash, state, response, expires_at < now() as expired from idempotency_keys where api_key_id = ? and route = ? and key = ?`,
        pk,
      );
      if (!row) continue;
      // An expired row, or a 'running' one (only ever committed by a version that claimed keys
      // outside the create's transaction, whose process died): taken over.
      if (row.expired || row.state !== 'done') {
        await run(`delete from idempotency_keys where api_key_id = ? and route = ? and key = ?`, pk);
        continue;
      }
      await rollback();
      if (row.request_hash !== hash) throw AppError.field(IDEMPOTENCY_HEADER, 'was already used with a different request body');
      return { kind: 'replay', response: typeof row.response === 'string' ? JSON.parse(row.response) : row.response };
    }
  } catch (err) {
    await rollback().catch(() => undefined);
    if ((err as { code?: string }).code === '55P03') throw AppError.field(IDEMPOTENCY_HEADER, 'belongs to a request that is still running; retry later');
    throw err;
  }
  const tx: RequestContext = { ...ctx, em, loaders: new Loaders(em, ctx) };
  return {
    kind: 'run',
    ctx: tx,
    finish: async (response) => {
      // Kept as JSON text (a jsonb string): jsonb would reorder the keys, and a replay is the first response as sent.
      await run(`update idempotency_keys set state = 'done', response = to_jsonb(?::text) where api_key_id = ? and route = ? and key = ?`, [JSON.stringify(response), ...pk]);
      open = false;
      await endTransaction(em, 'commit', log);
    },
    abandon: rollback,
  };
}
