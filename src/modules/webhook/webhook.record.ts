import type { WebhookConfig } from '../../config';
import type { Orm } from '../../db/orm';
import { logger } from '../../logger';
import { DISABLE_AFTER_DAYS, nextDelay, type Claimed, type Outcome } from './webhook.delivery';
import { attemptSeconds, attemptsTotal } from './webhook.metrics';

// Recording attempts' outcomes (docs/webhooks.md), fenced by the attempt count: a result is
// written only while the row still has the claimed count and is pending, so an attempt whose lease
// expired (and which another process took over) changes nothing. The worker records the outcomes
// that finished meanwhile together: one UPDATE for the batch (one commit, where one per attempt
// was a statement and a WAL flush each), then the endpoints' failure clocks.

export interface Attempt {
  d: Claimed;
  o: Outcome;
}

// The outcomes, and the failure clock of each endpoint whose outcomes in the batch are all
// successes (`?::uuid[]`), stopped when one of them was recorded: one statement.
const RECORD_SQL = `with rec as (
  update webhook_deliveries d set status = r.status, locked_until = null, next_attempt_at = r.next_attempt_at,
    last_status_code = r.status_code, last_error = r.error, delivered_at = case when r.ok then now() else d.delivered_at end,
    attempt_log = d.attempt_log || jsonb_build_array(jsonb_build_object('at', r.at, 'status_code', r.status_code, 'duration_ms', r.duration_ms, 'error', r.error, 'response_excerpt', r.excerpt))
  from jsonb_to_recordset(?::jsonb) as r(uuid uuid, attempts int, status text, next_attempt_at timestamptz, status_code int, error text, ok boolean, at text, duration_ms int, excerpt text)
  where d.uuid = r.uuid and d.attempts = r.attempts and d.status = 'pending' returning d.uuid, d.endpoint_uuid
), clear as (
  update webhook_endpoints e set failing_since = null
  where e.uuid = any(?::uuid[]) and e.failing_since is not null and e.uuid in (select endpoint_uuid from rec)
)
select uuid from rec`;

// A success clears the endpoint's failure clock; a failure starts it, and a 410 answer or five days
// of failures disable the endpoint (SET reads the old values).
const SUCCEEDED_SQL = `update webhook_endpoints set failing_since = null where uuid = ? and failing_since is not null`;
const STALE = `failing_since < now() - make_interval(days => ${DISABLE_AFTER_DAYS})`;
const FAILED_SQL = `update webhook_endpoints set failing_since = coalesce(failing_since, now()),
  status = case when ?::boolean or ${STALE} then 'disabled' else status end,
  disabled_reason = case when status <> 'active' then disabled_reason when ?::boolean then 'The endpoint answered 410 Gone'
    when ${STALE} then 'No successful delivery for ${DISABLE_AFTER_DAYS} days' else disabled_reason end,
  updated_at = case when status = 'active' and (?::boolean or ${STALE}) then now() else updated_at end
  where uuid = ?`;

const succeeded = (o: Outcome) => o.statusCode !== null && o.statusCode >= 200 && o.statusCode < 300;

/**
 * Records the outcomes of attempts, in the order given (the order they finished); returns, for
 * each, whether it was recorded (false: its claim was lost). Each endpoint's failure clock ends as
 * recording them one at a time would leave it: every recorded success stops it, every recorded
 * failure starts it (if stopped) and may disable the endpoint.
 */
export async function recordAll(orm: Orm, attempts: readonly Attempt[], cfg: WebhookConfig): Promise<boolean[]> {
  if (!attempts.length) return [];
  const now = Date.now();
  const rows = attempts.map(({ d, o }) => {
    const ok = succeeded(o);
    const delay = ok ? null : nextDelay(d.attempts, o, cfg.retryScale);
    const status = ok ? 'succeeded' : delay === null ? 'failed' : 'pending';
    const next = delay === null ? null : new Date(now + delay * 1000).toISOString();
    const at = new Date(now - o.durationMs).toISOString();
    return { uuid: d.uuid, attempts: d.attempts, status, next_attempt_at: next, status_code: o.statusCode, error: o.error, ok, at, duration_ms: o.durationMs, excerpt: o.excerpt };
  });
  // Endpoints with failures in the batch: their clocks follow the outcomes in order, one
  // statement per run of failures alike (410 or not) or of successes (the same statement twice in
  // a row changes nothing the first did not).
  const mixed = new Set(attempts.filter(({ o }) => !succeeded(o)).map(({ d }) => d.endpoint_uuid));
  const clean = [...new Set(attempts.map(({ d }) => d.endpoint_uuid).filter((e) => !mixed.has(e)))];
  const conn = orm.em.getConnection();
  const kept = new Set((await conn.execute<{ uuid: string }[]>(RECORD_SQL, [JSON.stringify(rows), `{${clean.join(',')}}`])).map((r) => r.uuid));
  const runs = new Map<string, Array<{ ok: boolean; gone: boolean }>>();
  for (const { d, o } of attempts) {
    if (!kept.has(d.uuid) || !mixed.has(d.endpoint_uuid)) continue;
    const list = runs.get(d.endpoint_uuid) ?? [];
    const run = { ok: succeeded(o), gone: o.statusCode === 410 };
    const last = list[list.length - 1];
    if (!last || last.ok !== run.ok || last.gone !== run.gone) list.push(run);
    runs.set(d.endpoint_uuid, list);
  }
  for (const [endpoint, list] of runs) {
    for (const run of list) await conn.execute(run.ok ? SUCCEEDED_SQL : FAILED_SQL, run.ok ? [endpoint] : [run.gone, run.gone, run.gone, endpoint]);
  }
  return attempts.map(({ d, o }, i) => {
    const recorded = kept.has(d.uuid);
    const row = rows[i];
    const outcome = !recorded ? 'stale' : row.ok ? 'succeeded' : row.status === 'failed' ? 'failed' : 'retry';
    attemptsTotal.inc({ outcome });
    attemptSeconds.observe(o.durationMs / 1000);
    // One line per attempt: never the secret or the body.
    logger.info(
      { webhook: { delivery: d.uuid, endpoint: d.endpoint_uuid, event_id: d.event_id, attempt: d.attempts, status_code: o.statusCode, duration_ms: o.durationMs, outcome, error: o.error, next_attempt_at: row.next_attempt_at } },
      'webhook attempt',
    );
    return recorded;
  });
}

/** Records one attempt's outcome; false when the claim was lost. */
export async function record(orm: Orm, d: Claimed, o: Outcome, cfg: WebhookConfig): Promise<boolean> {
  return (await recordAll(orm, [{ d, o }], cfg))[0];
}

/**
 * Collects outcomes and records them in batches: the first waits for the next turn of the event
 * loop (setImmediate), the ones that finish meanwhile join it, and those that finish while a
 * batch is being written form the next. Each add resolves once its outcome is written.
 */
export function batchRecorder(orm: Orm, cfg: WebhookConfig) {
  let queue: Array<Attempt & { done: (kept: boolean) => void; fail: (e: unknown) => void }> = [];
  let running: Promise<void> | null = null;
  const flush = async () => {
    while (queue.length) {
      const batch = queue;
      queue = [];
      try {
        const kept = await recordAll(orm, batch, cfg);
        batch.forEach((a, i) => a.done(kept[i]));
      } catch (err) {
        for (const a of batch) a.fail(err);
      }
    }
    running = null;
  };
  return {
    add(d: Claimed, o: Outcome): Promise<boolean> {
      return new Promise<boolean>((done, fail) => {
        queue.push({ d, o, done, fail });
        running ??= new Promise<void>((r) => setImmediate(r)).then(flush);
      });
    },
  };
}
