import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Orm } from '../../db/orm';

// Webhook metrics (docs/webhooks.md). Attempts are counted by the process that made them; the
// queue is read from PostgreSQL at scrape time, so any process shows the whole queue.

export const attemptsTotal = new Counter({
  name: 'webhook_attempts_total',
  help: 'Webhook delivery attempts by outcome: succeeded, retry (failed, will be tried again), failed (gave up), stale (a fenced-out result of an expired lease)',
  labelNames: ['outcome'],
  registers: [],
});

export const attemptSeconds = new Histogram({
  name: 'webhook_attempt_duration_seconds',
  help: 'Webhook delivery attempt latency, request sent to answer read',
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
  registers: [],
});

const QUEUE_SQL = `select count(*) filter (where next_attempt_at <= now()) as due, count(*) filter (where next_attempt_at > now()) as waiting,
  extract(epoch from now() - min(next_attempt_at) filter (where next_attempt_at <= now())) as oldest_due
  from webhook_deliveries where status = 'pending'`;

/** Registers the webhook metrics in an app's registry. */
export function registerWebhookMetrics(registry: Registry, orm: Orm): void {
  registry.registerMetric(attemptsTotal);
  registry.registerMetric(attemptSeconds);
  let queue: Promise<{ due: string; waiting: string; oldest_due: string | null }> | undefined;
  // One query per scrape for both gauges.
  const read = () => (queue ??= orm.em.getConnection().execute<Array<{ due: string; waiting: string; oldest_due: string | null }>>(QUEUE_SQL).then(([r]) => r).finally(() => setImmediate(() => (queue = undefined))));
  new Gauge({
    name: 'webhook_queue_depth',
    help: 'Pending webhook deliveries: due now, or waiting for their next attempt',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      const r = await read();
      this.set({ state: 'due' }, Number(r.due));
      this.set({ state: 'waiting' }, Number(r.waiting));
    },
  });
  new Gauge({
    name: 'webhook_oldest_pending_age_seconds',
    help: 'How long the oldest due webhook delivery has waited for an attempt (0: none)',
    registers: [registry],
    async collect() {
      const r = await read();
      this.set(Math.max(0, Number(r.oldest_due ?? 0)));
    },
  });
}
