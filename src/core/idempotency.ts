import { createHash } from 'node:crypto';
import type { RequestContext } from './context';
import { AppError } from '../errors/app-error';

// Idempotency-Key on creates (DECISIONS §9), one mechanism for REST and GraphQL. A key is scoped
// to the API key and the route; the first successful response is kept in PostgreSQL for 24 h and
// returned for the same key and body; another body is a 400; errors are not kept. The key row is
// inserted (committed) before the work runs, so a racing duplicate finds it and waits.

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
const TTL = `interval '24 hours'`;
const POLL_MS = 25;
const WAIT_MS = 30_000;
// A 'running' row this old belongs to a process that died mid-request: it may be taken over.
const STALE = `interval '2 minutes'`;

export type IdempotentStart =
  | { kind: 'replay'; response: unknown }
  | { kind: 'run'; finish(response: unknown): Promise<void>; abandon(): Promise<void> };

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

/** Claims the key for this request, or returns the stored response of the first one (waiting for it). */
export async function beginIdempotent(ctx: RequestContext, route: string, rawKey: string, body: unknown): Promise<IdempotentStart> {
  const key = checkKey(rawKey);
  const hash = createHash('sha256').update(canonicalJson(body)).digest('hex');
  // Autocommit statements outside any request transaction: others must see the claim at once.
  const conn = ctx.em.getConnection();
  const run = <T>(sql: string, params: unknown[]) => conn.execute(sql, params, 'all') as Promise<T[]>;
  const pk = [ctx.apiKey.id, route, key];
  // Expired rows are purged opportunistically, per company.
  await run(`delete from idempotency_keys where company_uuid = ? and expires_at < now()`, [ctx.company.uuid]);
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const claimed = await run(
      `insert into idempotency_keys (api_key_id, route, key, company_uuid, request_hash, state, expires_at)
       values (?, ?, ?, ?, ?, 'running', now() + ${TTL}) on conflict do nothing returning key`,
      [...pk, ctx.company.uuid, hash],
    );
    if (claimed.length) {
      return {
        kind: 'run',
        finish: async (response) => {
          // Kept as JSON text (a jsonb string): jsonb would reorder the keys, and a replay is the first response as sent.
          await run(`update idempotency_keys set state = 'done', response = to_jsonb(?::text) where api_key_id = ? and route = ? and key = ?`, [JSON.stringify(response), ...pk]);
        },
        abandon: async () => {
          await run(`delete from idempotency_keys where api_key_id = ? and route = ? and key = ? and state = 'running'`, pk);
        },
      };
    }
    const [row] = await run<{ request_hash: string; state: string; response: unknown; stale: boolean; expired: boolean }>(
      `select request_hash, state, response, created_at < now() - ${STALE} as stale, expires_at < now() as expired
       from idempotency_keys where api_key_id = ? and route = ? and key = ?`,
      pk,
    );
    if (!row) continue; // the first attempt failed and let go of the key: claim it again
    if (row.expired || (row.state === 'running' && row.stale)) {
      await run(`delete from idempotency_keys where api_key_id = ? and route = ? and key = ? and request_hash = ? and state = ?`, [...pk, row.request_hash, row.state]);
      continue;
    }
    if (row.request_hash !== hash) throw AppError.field(IDEMPOTENCY_HEADER, 'was already used with a different request body');
    if (row.state === 'done') return { kind: 'replay', response: typeof row.response === 'string' ? JSON.parse(row.response) : row.response };
    if (Date.now() > deadline) throw AppError.field(IDEMPOTENCY_HEADER, 'belongs to a request that is still running; retry later');
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
