import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { webhookConfig } from '../../../src/config';
import { requestsInFlight, startWebhookWorker, YIELD_LAG_MS, type WebhookWorker } from '../../../src/modules/webhook/webhook.worker';
import { createTenant, rest, useTestApp } from '../../helpers/app';
import { until } from '../../helpers/webhook-receiver';

// A server's inline worker yields to its requests (docs/webhooks.md "Processes"): while the
// server has a request in flight it keeps at most an eighth of its slots busy, unless the
// deliveries it claims had been due for longer than YIELD_LAG_MS; then it uses all of them.
// The first test sets that bound to ten minutes: with the default 2 s, a slow machine that took
// over 2 s for the 12 deliveries saw the worker (rightly) take all its slots for the rest.

const env = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_CONCURRENCY: '16' };
const t = useTestApp(env);

let worker: WebhookWorker | undefined;
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await worker?.stop();
  worker = undefined;
  for (const c of closers.splice(0)) await c();
});

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });
  return (server.address() as AddressInfo).port;
}

/**
 * A receiver counting the most requests open at once. It answers each 30 ms after it came; or,
 * with `gather`, holds every request until that many are open (or a second has passed), so a worker
 * that sends in parallel shows it however slowly the machine delivers, while one that keeps to two
 * slots only waits.
 */
async function receiver(gather = 0) {
  let open = 0;
  const seen = { max: 0, count: 0 };
  const held: Array<() => void> = [];
  const release = () => held.splice(0).forEach((answer) => answer());
  const port = await listen(
    http.createServer((req, res) => {
      req.resume();
      open++;
      seen.max = Math.max(seen.max, open);
      seen.count++;
      const answer = () => res.writeHead(204).end(() => void open--);
      if (!gather) return void setTimeout(answer, 30);
      held.push(answer);
      if (open >= gather) release();
      else setTimeout(release, 1000);
    }),
  );
  return { url: `http://127.0.0.1:${port}/hook`, seen };
}

/** A server with one request held open for the whole test: the worker's process is busy. */
async function busyServer() {
  const held: http.ServerResponse[] = [];
  const server = http.createServer((_req, res) => void held.push(res));
  const busy = requestsInFlight(server);
  const port = await listen(server);
  const req = http.get(`http://127.0.0.1:${port}/`);
  req.on('error', () => undefined);
  await until(() => held.length === 1 && busy(), 'the request to arrive');
  closers.unshift(async () => void held.forEach((r) => r.end()));
  return busy;
}

async function queue(n: number, dueAgoMs: number, gather = 0) {
  const a = await createTenant(t);
  const r = await receiver(gather);
  const ep = (await rest(t, a).post('/webhook_endpoints', { url: r.url })).body.data;
  await t.orm.em.getConnection().execute(
    `insert into webhook_deliveries (endpoint_uuid, company_uuid, event_id, event_type, body, next_attempt_at)
    select ?, ?, 'evt_test_' || i, 'webhook.test', '{}', now() - make_interval(secs => ? / 1000.0) from generate_series(1, ?) as i`,
    [ep.uuid, a.companyUuid, dueAgoMs, n],
  );
  const delivered = async () => Number((await t.orm.em.getConnection().execute<{ n: string }[]>(`select count(*) as n from webhook_deliveries where status = 'succeeded'`))[0].n);
  return { seen: r.seen, delivered };
}

it('while its server handles a request, the worker keeps at most an eighth of its slots busy', async () => {
  const q = await queue(12, 0);
  worker = startWebhookWorker(t.orm, webhookConfig(env), { busy: await busyServer(), yieldLagMs: 600_000 });
  await until(async () => (await q.delivered()) === 12, 'all 12 delivered');
  expect(q.seen.count).toBe(12);
  expect(q.seen.max).toBeLessThanOrEqual(2);
});

it('deliveries due for longer than the lag bound get all the slots, busy or not', async () => {
  const q = await queue(12, YIELD_LAG_MS + 5000, 3);
  worker = startWebhookWorker(t.orm, webhookConfig(env), { busy: await busyServer() });
  await until(async () => (await q.delivered()) === 12, 'all 12 delivered');
  expect(q.seen.max).toBeGreaterThan(2);
});

it('a worker behind by its lag bound while busy takes all its slots for what remains', async () => {
  const q = await queue(12, 0, 3);
  worker = startWebhookWorker(t.orm, webhookConfig(env), { busy: await busyServer(), yieldLagMs: 0 });
  await until(async () => (await q.delivered()) === 12, 'all 12 delivered');
  expect(q.seen.max).toBeGreaterThan(2);
});

it('a worker that is not told about requests (npm run worker) uses all its slots', async () => {
  const q = await queue(12, 0, 3);
  worker = startWebhookWorker(t.orm, webhookConfig(env));
  await until(async () => (await q.delivered()) === 12, 'all 12 delivered');
  expect(q.seen.max).toBeGreaterThan(2);
});
