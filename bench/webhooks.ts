import 'reflect-metadata';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { initOrm, migrate } from '../src/db/orm';
import { createCompany } from '../src/modules/company/company.admin';
import { requestsInFlight, startWebhookWorker } from '../src/modules/webhook/webhook.worker';
import { openBenchDatabase } from './setup';
import { median } from './procs';
import { numberArg, rate } from './args';

// `LOG_LEVEL=silent npx ts-node --transpile-only bench/webhooks.ts [--deliveries 5000] [--rounds 3] [--n 300]`
// (docs/webhooks.md), in a scratch database (embedded, or on the server of DATABASE_URL):
// - delivery rate: N events (one statement) to one endpoint on a local receiver, delivered by
//   one process's worker, from the worker's start (dispatch included) to the last success;
// - creation throughput (POST /customers, 8 in flight) with three active endpoints and with none,
//   alternating, while the worker delivers in the same process; and with three endpoints and the
//   worker stopped (the write path alone: deliveries are queued, then drained).

const log = (m: string) => process.stderr.write(`[bench:webhooks] ${m}\n`);
async function main(): Promise<void> {
  const deliveries = numberArg('deliveries', 5000);
  const rounds = numberArg('rounds', 3);
  const n = numberArg('n', 300);
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const db = await openBenchDatabase(log);
  const orm = await initOrm(db.url, 10);
  try {
    await migrate(orm);
    const config = loadConfig({ ...process.env, DATABASE_URL: db.url, LOG_LEVEL: 'silent', WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_CONCURRENCY: process.env.WEBHOOK_CONCURRENCY ?? '64' });
    const { app, close } = await createApp({ orm, config });
    const server = app.listen(0, '127.0.0.1');
    // The inline worker yields to the server's requests, as `npm start` runs it (src/main.ts).
    const busy = requestsInFlight(server);
    await new Promise((r) => server.once('listening', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
    const { apiKey, company } = await createCompany(orm.em.fork(), { name: 'Bench Webhooks', email: 'bench@example.com' });
    const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
    const call = async (method: string, path: string, body?: object) => {
      const res = await fetch(`${base}${path}`, { method, headers, body: body ? JSON.stringify(body) : undefined });
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { data: { uuid: string } }).data;
    };
    const conn = orm.em.getConnection();
    const succeeded = async () => Number((await conn.execute<{ n: string }[]>(`select count(*) as n from webhook_deliveries where status = 'succeeded'`))[0].n);

    // 1. Delivery rate.
    await call('POST', '/webhook_endpoints', { url: hook });
    await conn.execute(`insert into customers (uuid, company_uuid, first_name, last_name) select gen_random_uuid(), ?, 'C' || i, 'L' from generate_series(1, ?) as i`, [company.uuid, deliveries]);
    const start = process.hrtime.bigint();
    let worker = startWebhookWorker(orm, config.webhooks, { busy });
    while ((await succeeded()) < deliveries) await new Promise((r) => setTimeout(r, 20));
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    log(`${deliveries} deliveries in ${seconds.toFixed(2)} s: ${(deliveries / seconds).toFixed(0)}/s`);

    // 2. Creation with three active endpoints and with none (disabled), the worker running.
    const endpoints = [(await call('GET', '/webhook_endpoints')) as unknown as { webhook_endpoints: Array<{ uuid: string }> }][0].webhook_endpoints.map((e) => e.uuid);
    for (let i = 0; i < 2; i++) endpoints.push((await call('POST', '/webhook_endpoints', { url: hook })).uuid);
    // `queued`: three active endpoints with the worker stopped (the write path alone; the
    // deliveries wait in the queue and are drained before the next round).
    // `eager`: three active endpoints, the worker delivering without yielding to requests.
    type Tag = 'three' | 'none' | 'queued' | 'eager';
    const results: Record<Tag, number[]> = { three: [], none: [], queued: [], eager: [] };
    const pending = async () => Number((await conn.execute<{ n: string }[]>(`select count(*) as n from webhook_deliveries where status = 'pending'`))[0].n);
    const undispatchedEvents = async () => Number((await conn.execute<{ n: string }[]>(`select count(*) as n from events where position is null or position > (select position from webhook_dispatch_state)`))[0].n);
    for (let r = 0; r < rounds; r++) {
      const order: Tag[] = r % 2 ? ['none', 'eager', 'queued', 'three'] : ['three', 'queued', 'eager', 'none'];
      for (const tag of order) {
        for (const uuid of endpoints) await call('PUT', `/webhook_endpoints/${uuid}`, { status: tag === 'none' ? 'disabled' : 'active' });
        if (tag === 'queued' || tag === 'eager') await worker.stop();
        if (tag === 'eager') worker = startWebhookWorker(orm, config.webhooks);
        results[tag].push(await rate(n, 8, async (i) => void (await call('POST', '/customers', { first_name: `B${i}`, last_name: 'Bench' }))));
        // What the round left to deliver (the deferred work of a yielding worker), and how long it took.
        const left = tag === 'none' ? 0 : await pending();
        const undispatched = tag === 'none' ? 0 : await undispatchedEvents();
        const drainStart = Date.now();
        if (tag === 'eager') {
          await worker.stop();
          worker = startWebhookWorker(orm, config.webhooks, { busy });
        }
        // Every round starts with an empty queue, its events dispatched (a `none` round's too, while
        // its endpoints are still disabled).
        if (tag === 'queued') worker = startWebhookWorker(orm, config.webhooks, { busy });
        while ((await pending()) > 0 || (await undispatchedEvents()) > 0) await new Promise((res) => setTimeout(res, 50));
        log(`round ${r + 1} ${tag}: ${results[tag].at(-1)!.toFixed(0)} customers/s${tag === 'none' ? '' : `; at its end ${left} deliveries pending and ${undispatched} events not yet dispatched, all delivered ${((Date.now() - drainStart) / 1000).toFixed(1)} s later`}`);
      }
    }
    await worker.stop();
    server.close();
    await close();
    const out = {
      mode: db.mode,
      deliveries: { count: deliveries, seconds, perSecond: deliveries / seconds, concurrency: config.webhooks.concurrency },
      creation: {
        rounds,
        requestsPerRound: n,
        none: median(results.none),
        threeEndpoints: median(results.three),
        ratio: median(results.three) / median(results.none),
        threeEndpointsWorkerStopped: median(results.queued),
        ratioWorkerStopped: median(results.queued) / median(results.none),
        threeEndpointsNotYielding: median(results.eager),
        ratioNotYielding: median(results.eager) / median(results.none),
      },
    };
    process.stdout.write(JSON.stringify(out, null, 2) + '\n');
  } finally {
    receiver.close();
    await orm.close(true);
    await db.close();
  }
}

main().catch((err) => {
  process.stderr.write(`${err?.stack ?? err}\n`);
  process.exit(1);
});
