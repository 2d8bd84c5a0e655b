import 'reflect-metadata';
import { Pool } from 'pg';
import WebSocket from 'ws';
import { initOrm } from '../src/db/orm';
import { createCompany } from '../src/modules/company/company.admin';
import { openBenchDatabase } from './setup';
import { startApiServer } from './server';
import { numberArg } from './args';
import { cpuMsOf, rssOf } from './procs';
import type { Measured, Row } from './report';

// `npx ts-node --transpile-only bench/live-fanout.ts [--subscribers 1000] [--rate 200] [--seconds 10] [--jobs 20] [--sql] [--cpu-prof <dir>]`
// (docs/live-updates.md), against the server built as `npm start` runs it: live delivery to many
// WebSocket subscribers of one process. Every subscriber follows the same company with the same
// selection; a writer updates `jobs` jobs in turn (one row would serialize the writes on its lock)
// `rate` times a second (open loop, at most 32 in flight) for `seconds`, through `PUT /jobs/{uuid}`,
// or with `--sql` by UPDATE statements on the database (no HTTP request for the server to serve: its
// CPU is the live delivery's alone), and each subscriber records when each update reached it.
// Latency is from the write's answer (the commit happened before it) to the delivery, over every
// (subscriber, event); the clients share this process's CPU with nothing but themselves, and read
// each message's title without parsing the rest (at 200,000 messages a second a full JSON.parse
// made this process, not the server, the bottleneck). Also printed: the server's CPU time (user +
// system) from the first write to the last delivery, in all and per delivery, this process's own,
// and the server's RSS per idle subscriber (after connecting them, before the first event).

const log = (m: string) => process.stderr.write(`[bench:live] ${m}\n`);
const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];
const QUERY = 'subscription { events(types: ["job.updated"]) { type cursor object } }';

const UPDATE = Buffer.from('"title":"u');

/** A raw graphql-transport-ws subscriber (cheaper than a full client): calls `onUpdate` with the number of each update (title `u<i>`). */
function subscriber(url: string, key: string, onUpdate: (i: number) => void): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, 'graphql-transport-ws');
    ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${key}` } })));
    ws.on('error', reject);
    ws.on('message', (raw: Buffer) => {
      const at = raw.indexOf(UPDATE);
      if (at >= 0) {
        let i = 0;
        for (let k = at + UPDATE.length; raw[k] >= 0x30 && raw[k] <= 0x39; k++) i = i * 10 + raw[k] - 0x30;
        return onUpdate(i);
      }
      if ((JSON.parse(String(raw)) as { type: string }).type === 'connection_ack') {
        ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: QUERY } }));
        resolve(ws);
      }
    });
  });
}

export interface LiveOptions {
  /** The database's URL (a company of its own is made there) and the server's port and pid. */
  url: string;
  port: number;
  pid: number;
  subscribers: number;
  /** Writes a second, for `seconds`, over `jobs` jobs in turn. */
  rate: number;
  seconds: number;
  jobs: number;
  /** Writes by UPDATE statements on the database, not by PUT /jobs/{uuid}. */
  viaSql: boolean;
  log: (m: string) => void;
  /** The server's output, for a failed write's log line. */
  output?: () => string;
}

export interface LiveResult {
  writes: 'sql' | 'rest';
  subscribers: number;
  targetWritesPerSecond: number;
  writesPerSecond: number;
  writeSeconds: number;
  failedWrites: number;
  deliveries: number;
  expected: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number | undefined };
  serverCpuMs: number;
  serverCpuUsPerDelivery: number;
  benchCpuMs: number;
  rssKbPerIdleSubscriber: number;
}

/** Live delivery to `subscribers` WebSocket subscribers of the server at `port` (the comment above). */
export async function liveFanout(o: LiveOptions): Promise<LiveResult> {
  const { subscribers: n, rate, seconds, viaSql, log } = o;
  const orm = await initOrm(o.url, 2);
  const sockets: WebSocket[] = [];
  let pool: Pool | null = null;
  try {
    const base = `http://127.0.0.1:${o.port}/api/v1`;
    const { apiKey } = await createCompany(orm.em.fork(), { name: 'Bench Live', email: 'bench-live@example.com' });
    const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
    const call = async (method: string, path: string, body: object) => {
      const res = await fetch(`${base}${path}`, { method, headers, body: JSON.stringify(body) });
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { data: { uuid: string } }).data;
    };
    const customer = await call('POST', '/customers', { first_name: 'Job', last_name: 'Owner' });
    const jobs: string[] = [];
    for (let k = 0; k < o.jobs; k++) jobs.push((await call('POST', '/jobs', { customer_uuid: customer.uuid, title: 'Bench' })).uuid);
    pool = viaSql ? new Pool({ connectionString: o.url, max: 16 }) : null;
    const setTitle = async (uuid: string, title: string) => {
      if (pool) await pool.query('update jobs set title = $1 where uuid = $2', [title, uuid]);
      else await call('PUT', `/jobs/${uuid}`, { title });
    };
    /** Update i: job i % jobs gets the title `u<i>`. */
    const write = (i: number) => setTitle(jobs[i % jobs.length], `u${i}`);

    // received[i]: when each subscriber got update i (ms, performance.now()); update 0 is the
    // warm-up, counted per subscriber in `warm`.
    const total = Math.round(rate * seconds);
    const received = Array.from({ length: total + 1 }, () => [] as number[]);
    const warm = new Set<number>();
    let deliveries = 0;
    let arrived: () => void = () => undefined;
    const onUpdate = (who: number, i: number) => {
      if (i === 0) return void warm.add(who);
      if (i <= total) {
        received[i].push(performance.now());
        if (++deliveries === n * total) arrived();
      }
    };
    const rssBefore = rssOf(o.pid);
    for (let i = 0; i < n; i += 50) {
      sockets.push(...(await Promise.all(Array.from({ length: Math.min(50, n - i) }, (_, k) => subscriber(`ws://127.0.0.1:${o.port}/graphql`, apiKey, (u) => onUpdate(i + k, u))))));
    }
    const rssIdle = rssOf(o.pid);
    // The warm-up: a subscription follows the feed from when the server takes its `subscribe`,
    // which may come after a write, so update 0 is written again (to another job, or the same
    // job with another title that reads as 0: `u00`…) until every subscriber has had it.
    const done = new Promise<void>((resolve) => (arrived = resolve));
    const deadline = Date.now() + 60_000;
    for (let k = 0; warm.size < n; k++) {
      if (Date.now() > deadline) throw new Error(`${n - warm.size} of ${n} subscribers received no update in 60 s`);
      await setTitle(jobs[k % jobs.length], `u${'0'.repeat(1 + Math.floor(k / jobs.length))}`);
      for (let waited = 0; warm.size < n && waited < 1_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    }
    log(`${n} subscribers live; writing ${total} updates at ${rate}/s`);

    const committed: number[] = new Array(total + 1).fill(0);
    let inFlight = 0;
    let failures = 0;
    let next = 1;
    const [serverCpu0, ownCpu0] = [cpuMsOf(o.pid), process.cpuUsage()];
    const start = performance.now();
    await new Promise<void>((resolve) => {
      const tick = setInterval(() => {
        const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate));
        while (next <= due && inFlight < 32) {
          const i = next++;
          inFlight++;
          void write(i)
            .then(() => void (committed[i] = performance.now()))
            .catch((err: Error) => {
              if (failures++ === 0) log(`a write failed (${err.cause ?? err.message}); the server's output's tail:\n${o.output?.().slice(-3000) ?? ''}`);
            })
            .finally(() => --inFlight === 0 && next > total && resolve());
        }
        if (next > total) clearInterval(tick);
      }, 5);
    });
    const writeSeconds = (performance.now() - start) / 1000;
    await Promise.race([done, new Promise((r) => setTimeout(r, 180_000).unref())]);
    const [serverCpuMs, own] = [cpuMsOf(o.pid) - serverCpu0, process.cpuUsage(ownCpu0)];
    const latencies: number[] = [];
    for (let i = 1; i <= total; i++) if (committed[i]) for (const at of received[i]) latencies.push(Math.max(0, at - committed[i]));
    latencies.sort((a, b) => a - b);
    return {
      writes: viaSql ? 'sql' : 'rest',
      subscribers: n,
      targetWritesPerSecond: rate,
      writesPerSecond: total / writeSeconds,
      writeSeconds,
      failedWrites: failures,
      deliveries: latencies.length,
      expected: n * total,
      latencyMs: { p50: pct(latencies, 50), p90: pct(latencies, 90), p99: pct(latencies, 99), max: latencies.at(-1) },
      serverCpuMs,
      serverCpuUsPerDelivery: (serverCpuMs * 1000) / Math.max(1, latencies.length),
      benchCpuMs: (own.user + own.system) / 1000,
      rssKbPerIdleSubscriber: (rssIdle - rssBefore) / 1024 / n,
    };
  } finally {
    for (const ws of sockets) ws.terminate();
    await pool?.end();
    await orm.close(true);
  }
}

/** The row of `npm run bench` (bench/run.ts): the writes' rate, the deliveries' latency, every delivery made. */
export function liveRow(r: LiveResult): Row {
  const result: Measured = {
    requests: r.deliveries,
    seconds: r.writeSeconds,
    rps: r.writesPerSecond,
    p50: Math.round(r.latencyMs.p50),
    p99: Math.round(r.latencyMs.p99),
    non2xx: r.failedWrites,
    statusCodes: {},
    errors: r.expected - r.deliveries,
    rssMax: null,
    rssBefore: null,
  };
  const ok = r.failedWrites === 0 && r.deliveries === r.expected;
  return {
    id: 'live_fanout',
    label: `Live delivery: ${r.subscribers} WebSocket subscribers, SQL writes at ${r.targetWritesPerSecond}/s`,
    result,
    baseline: null,
    sameJson: null,
    live: { subscribers: r.subscribers, targetRate: r.targetWritesPerSecond, p99Ms: r.latencyMs.p99, kbPerIdleSubscriber: r.rssKbPerIdleSubscriber },
    verified: { ok, note: ok ? `all ${r.deliveries} deliveries arrived` : `${r.deliveries} of ${r.expected} deliveries, ${r.failedWrites} writes failed` },
  };
}

async function main(): Promise<void> {
  const db = await openBenchDatabase(log);
  // `--cpu-prof <dir>`: the server's V8 CPU profile, written there when it stops (bench/profile-summary.ts reads it).
  const profDir = process.argv.includes('--cpu-prof') ? process.argv[process.argv.indexOf('--cpu-prof') + 1] : '';
  const server = await startApiServer(db.serverEnv, 'live-server', profDir ? ['--cpu-prof', '--cpu-prof-dir', profDir] : []);
  try {
    const out = await liveFanout({
      url: db.url,
      port: server.port,
      pid: server.pid,
      subscribers: numberArg('subscribers', 1000),
      rate: numberArg('rate', 200),
      seconds: numberArg('seconds', 10),
      jobs: numberArg('jobs', 20),
      viaSql: process.argv.includes('--sql'),
      log,
      output: () => server.output(),
    });
    process.stdout.write(JSON.stringify({ mode: db.mode, ...out }, null, 2) + '\n');
  } catch (err) {
    log(`server output (tail):\n${server.output().slice(-3000)}`);
    throw err;
  } finally {
    await server.stop();
    await db.close();
  }
}

if (require.main === module) {
  main().catch((err) => {
    process.stderr.write(`${err?.stack ?? err}\n`);
    process.exit(1);
  });
}
