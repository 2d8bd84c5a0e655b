import { performance } from 'node:perf_hooks';
import { createHmac } from 'node:crypto';
import type { Agent } from 'undici';
import type { WebhookConfig } from '../../config';
import type { Orm } from '../../db/orm';
import { refusedLiteral, undici } from './webhook.url';

// One delivery attempt (docs/webhooks.md): claimed from PostgreSQL with FOR UPDATE SKIP LOCKED
// and a lease (locked_until); the claim increments `attempts`, which fences the result: it is
// recorded only while the row still has that count and is pending, so an attempt whose lease
// expired (and which another process took over) changes nothing.

/** Delays after the 1st…9th failed attempt; after the 10th the delivery is failed. */
export const RETRY_DELAYS_S = [5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 86_400];
export const MAX_RETRY_AFTER_S = 86_400;
export const DISABLE_AFTER_DAYS = 5;
const EXCERPT_BYTES = 1024;

export interface Claimed {
  uuid: string;
  endpoint_uuid: string;
  event_id: string;
  body: string;
  attempts: number;
  url: string;
  secret: string;
  old_secret: string | null;
  /** The endpoint has failed since its last success (a success clears the clock). */
  failing: boolean;
  /** How long the delivery had been due when claimed, in ms (the worker's lag). */
  waited_ms: number;
}

const CLAIM_SQL = `with c as (
  select d.uuid from webhook_deliveries d join webhook_endpoints e on e.uuid = d.endpoint_uuid
  where d.status = 'pending' and d.next_attempt_at <= now() and (d.locked_until is null or d.locked_until < now()) and e.status = 'active'
  order by d.next_attempt_at limit ? for update of d skip locked
)
update webhook_deliveries d set attempts = d.attempts + 1, locked_until = now() + make_interval(secs => ?)
from c, webhook_endpoints e where d.uuid = c.uuid and e.uuid = d.endpoint_uuid
returning d.uuid, d.endpoint_uuid, d.event_id, d.body, d.attempts, e.url, e.secret, case when e.old_secret_until > now() then e.old_secret end as old_secret, e.failing_since is not null as failing,
  (extract(epoch from now() - d.next_attempt_at) * 1000)::int as waited_ms`;

export function claim(orm: Orm, n: number, leaseSeconds: number): Promise<Claimed[]> {
  return orm.em.getConnection().execute<Claimed[]>(CLAIM_SQL, [n, leaseSeconds]);
}

export interface Outcome {
  statusCode: number | null;
  error: string | null;
  excerpt: string | null;
  durationMs: number;
  retryAfterS: number | null;
}

/**
 * The signature header: the current secret's, then the old one's during a rotation window.
 * Standard Webhooks' v1 (`v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` keyed with the
 * secret's decoded bytes), computed with node:crypto: the standardwebhooks package's sign (a
 * JavaScript SHA-256, and the key decoded again per call) cost ~20 µs a delivery. The unit test
 * test/modules/webhook/signing.unit.spec.ts holds the two to the same headers.
 */
export function signatures(d: Pick<Claimed, 'event_id' | 'body' | 'secret' | 'old_secret'>, at: Date): string {
  const signed = `${d.event_id}.${Math.floor(at.getTime() / 1000)}.${d.body}`;
  const one = (secret: string) => `v1,${createHmac('sha256', keyOf(secret)).update(signed).digest('base64')}`;
  return d.old_secret ? `${one(d.secret)} ${one(d.old_secret)}` : one(d.secret);
}

const keys = new Map<string, Buffer>();
function keyOf(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
    if (keys.size >= 1000) keys.clear();
    keys.set(secret, key);
  }
  return key;
}
const SECRET_PREFIX = 'whsec_';

export function retryAfter(value: string | string[] | undefined): number | null {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return null;
  const s = /^\d+$/.test(v.trim()) ? Number(v) : (Date.parse(v) - Date.now()) / 1000;
  return Number.isFinite(s) ? Math.min(Math.max(s, 0), MAX_RETRY_AFTER_S) : null;
}

export async function send(d: Claimed, agent: Agent, cfg: WebhookConfig): Promise<Outcome> {
  const at = new Date();
  const started = performance.now();
  const done = (o: Omit<Outcome, 'durationMs'>): Outcome => ({ ...o, durationMs: Math.round(performance.now() - started) });
  try {
    const refused = refusedLiteral(d.url, cfg);
    if (refused) return done({ statusCode: null, error: `refused address: ${refused}`, excerpt: null, retryAfterS: null });
    const res = await undici().request(d.url, {
      method: 'POST',
      dispatcher: agent,
      body: d.body,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'field-service-crm-webhooks/1',
        'webhook-id': d.event_id,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': signatures(d, at),
      },
      signal: AbortSignal.timeout(cfg.timeoutMs),
    });
    let excerpt = Buffer.alloc(0);
    for await (const chunk of res.body) {
      excerpt = Buffer.concat([excerpt, chunk as Buffer]);
      if (excerpt.length >= EXCERPT_BYTES) break;
    }
    const ok = res.statusCode >= 200 && res.statusCode < 300;
    const wait = res.statusCode === 429 || res.statusCode === 503 ? retryAfter(res.headers['retry-after']) : null;
    return done({ statusCode: res.statusCode, error: ok ? null : `HTTP ${res.statusCode}`, excerpt: excerpt.subarray(0, EXCERPT_BYTES).toString('utf8'), retryAfterS: wait });
  } catch (err) {
    const e = err as Error & { code?: string; cause?: Error & { code?: string } };
    const timedOut = e.name === 'TimeoutError' || e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT';
    const message = timedOut ? `timeout after ${cfg.timeoutMs} ms` : `${e.cause?.message ?? e.message}`;
    return done({ statusCode: null, error: message.slice(0, 500), excerpt: null, retryAfterS: null });
  }
}

/** Seconds until the next attempt after `attempts` failed ones, with ±10% jitter; null: give up. */
export function nextDelay(attempts: number, o: Outcome, scale: number): number | null {
  if (attempts > RETRY_DELAYS_S.length) return null;
  const base = o.retryAfterS ?? RETRY_DELAYS_S[attempts - 1];
  return base * scale * (0.9 + Math.random() * 0.2);
}
