import 'reflect-metadata';
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { Cluster, freePort, haproxyStatus, missingBinaries, Service, startCluster, startHaproxy, startPgbouncer, waitForReplay } from './topology';
import { gaps, duplicates, ratio, renderTable, Row } from './invariants';

// `npm run scale-test` (docs/scaling.md): the whole topology on this machine — a PostgreSQL 15
// primary and a streaming replica, PgBouncer in transaction mode, three servers behind HAProxy, two
// workers, s3rver for photos — under a mixed load on both surfaces with webhooks and recurring
// generation, with faults (kill -9 of a server and of a worker, the replica stopped), the
// invariants checked, everything stopped, one table printed. Exit code 1 when an invariant fails.
//
// Settings: SCALE_PAIRS (write-then-read pairs, default 10000) and SCALE_SECONDS (the load phase
// ends at whichever comes first, default 120, so that a default run stays within 5 minutes on a
// quiet machine), SCALE_LANES (concurrent clients, 8), SCALE_BENCH_SECONDS (each throughput
// measurement: seconds per side, taken in turns of one second, 5), SCALE_KEEP=1 keeps the folder.

const ROOT = path.resolve(__dirname, '..');
const PAIRS = Number(process.env.SCALE_PAIRS ?? 10_000);
const SECONDS = Number(process.env.SCALE_SECONDS ?? 120);
const LANES = Number(process.env.SCALE_LANES ?? 8);
const BENCH_SECONDS = Number(process.env.SCALE_BENCH_SECONDS ?? 5);
/** Seconds each server serves the list alone before the comparison of 3 servers with one. */
const WARM_SECONDS = 3;
const started = Date.now();
const say = (m: string) => process.stderr.write(`[scale ${((Date.now() - started) / 1000).toFixed(0)}s] ${m}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Proc {
  name: string;
  port: number;
  proc: ChildProcess;
  out: () => string;
  exited: Promise<number | null>;
  alive: boolean;
}

function startNode(name: string, script: string, env: Record<string, string>, port = 0): Promise<Proc> {
  const proc = spawn(process.execPath, [path.join(ROOT, 'dist/src', script)], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', LOG_FORMAT: 'json', HOST: '127.0.0.1', PORT: String(port), MIGRATE: 'false', SEED_DEMO: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out = (out + String(d)).slice(-200_000)));
  proc.stderr!.on('data', (d) => (out = (out + String(d)).slice(-200_000)));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  const p: Proc = { name, port, proc, out: () => out, exited, alive: true };
  void exited.then(() => (p.alive = false));
  if (script !== 'main.js') return sleep(1500).then(() => p);
  return (async () => {
    for (let i = 0; i < 600; i++) {
      if (!p.alive) throw new Error(`${name} exited: ${out}`);
      try {
        if ((await fetch(`http://127.0.0.1:${port}/ready`)).status === 200) return p;
      } catch {
        /* not listening yet */
      }
      await sleep(100);
    }
    throw new Error(`${name} did not become ready: ${out}`);
  })();
}

async function stopNode(p: Proc, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (!p.alive) return;
  p.proc.kill(signal);
  await Promise.race([p.exited, sleep(15_000)]);
  if (p.alive) p.proc.kill('SIGKILL');
}

/** A webhook receiver: every delivery's webhook-id, as many times as it arrived. */
function receiver(): Promise<{ url: string; ids: Map<string, number>; close: () => Promise<void> }> {
  const ids = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const id = String(req.headers['webhook-id'] ?? '');
    req.resume();
    req.on('end', () => {
      ids.set(id, (ids.get(id) ?? 0) + 1);
      res.writeHead(204).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`, ids, close: () => new Promise((r) => server.close(() => r())) })),
  );
}

type Api = (port: number, method: string, url: string, body?: unknown, headers?: Record<string, string>) => Promise<{ status: number; body: any }>;

function apiFor(key: string): Api {
  return async (port, method, url, body, headers = {}) => {
    const res = await fetch(`http://127.0.0.1:${port}${url}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: any = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
    return { status: res.status, body: parsed };
  };
}

/** Requests per second of `lanes` clients running `one` for `seconds`. */
async function throughput(seconds: number, lanes: number, one: (i: number) => Promise<boolean>): Promise<{ rps: number; errors: number }> {
  const end = Date.now() + seconds * 1000;
  let done = 0;
  let errors = 0;
  const t0 = Date.now();
  await Promise.all(
    Array.from({ length: lanes }, async (_, lane) => {
      for (let i = lane; Date.now() < end; i += lanes) {
        if (await one(i).catch(() => false)) done++;
        else errors++;
      }
    }),
  );
  return { rps: done / ((Date.now() - t0) / 1000), errors };
}

/**
 * CPU seconds (user + system) used so far by the cluster: its postmaster, the children it has
 * reaped (backends that ended: the postmaster's cutime and cstime) and the children running.
 */
function clusterCpu(c: Cluster): number {
  const pid = Number(fs.readFileSync(path.join(c.dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const tick = 100; // USER_HZ on Linux
  let total = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(entry) === pid) total += (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / tick;
      else if (Number(f[1]) === pid) total += (Number(f[11]) + Number(f[12])) / tick;
    } catch {
      /* gone */
    }
  }
  return total;
}

/** Two throughputs measured in turn, one second each, `seconds` times: the machine's noise shared by both. */
async function inTurn(seconds: number, lanes: number, a: (i: number) => Promise<boolean>, b: (i: number) => Promise<boolean>) {
  const sum = { a: 0, b: 0, errors: 0 };
  for (let i = 0; i < seconds; i++) {
    const [x, y] = i % 2 ? [b, a] : [a, b];
    const rx = await throughput(1, lanes, x);
    const ry = await throughput(1, lanes, y);
    const [ra, rb] = i % 2 ? [ry, rx] : [rx, ry];
    sum.a += ra.rps / seconds;
    sum.b += rb.rps / seconds;
    sum.errors += ra.errors + rb.errors;
  }
  return { a: { rps: sum.a, errors: sum.errors }, b: { rps: sum.b, errors: 0 } };
}

async function main(): Promise<void> {
  const missing = missingBinaries(['postgres', 'pgbouncer', 'haproxy']);
  if (missing.length) throw new Error(`missing: ${missing.join(', ')}`);
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.js'), '--quiet'], { stdio: 'inherit' });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fsc-scale-'));
  fs.chmodSync(dir, 0o755);
  const load0 = os.loadavg()[0];
  const cleanups: (() => Promise<unknown>)[] = [];
  const rows: Row[] = [];
  let failed = false;
  const check = (name: string, value: string | number, ok: boolean, note = '') => {
    rows.push({ name, value: String(value), ok, note });
    if (!ok) failed = true;
  };
  try {
    say(`folder ${dir}; load average ${load0.toFixed(2)} on ${os.cpus().length} cores`);
    const primary = await startCluster(path.join(dir, 'primary'));
    cleanups.push(() => primary.stop());
    const admin = new Client({ connectionString: primary.url() });
    await admin.connect();
    await admin.query('create database fsc');
    await admin.end();
    execFileSync(process.execPath, [path.join(ROOT, 'dist/src/cli/migrate.js')], { env: { ...process.env, DATABASE_URL: primary.url('fsc') }, stdio: ['ignore', 'ignore', 'inherit'] });
    const replica = await startCluster(path.join(dir, 'replica'), { primary });
    cleanups.push(() => replica.stop());
    const bouncer: Service = await startPgbouncer(path.join(dir, 'pgbouncer'), primary.port, '127.0.0.1', { poolSize: 30 });
    cleanups.push(() => bouncer.stop());
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const S3rver = require('s3rver');
    const s3port = await freePort();
    const s3 = new S3rver({ port: s3port, address: '127.0.0.1', silent: true, directory: path.join(dir, 's3'), configureBuckets: [{ name: 'photos' }] });
    await s3.run();
    cleanups.push(() => s3.close());
    const hooks = await receiver();
    cleanups.push(() => hooks.close());
    say('primary, replica, PgBouncer, s3rver up');

    const sql = new Client({ connectionString: primary.url('fsc') });
    await sql.connect();
    cleanups.push(() => sql.end());
    // The companies: one under load, one that only reads (its reads can always go to the replica).
    const { initOrm } = await import('../src/db/orm');
    const { createCompany } = await import('../src/modules/company/company.admin');
    const orm = await initOrm(primary.url('fsc'), 2);
    const busy = await createCompany(orm.em.fork(), { name: 'Busy Plumbing', email: 'office@busy.example' });
    const quiet = await createCompany(orm.em.fork(), { name: 'Quiet Plumbing', email: 'office@quiet.example' });
    await orm.close(true);
    await sql.query(`insert into customers (uuid, company_uuid, first_name, last_name) select gen_random_uuid(), $1, 'Q' || i, 'L' from generate_series(1, 50) as i`, [quiet.company.uuid]);
    await waitForReplay(primary.url('fsc'), replica.url('fsc'));
    const api = apiFor(busy.apiKey);
    const quietApi = apiFor(quiet.apiKey);

    const bouncerUrl = `postgres://postgres@127.0.0.1:${bouncer.port}/fsc`;
    const common = {
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_RETRY_SCALE: '0.01',
      WEBHOOK_TIMEOUT_MS: '5000',
      WEBHOOK_LEASE_SECONDS: '10',
      S3_BUCKET: 'photos',
      S3_ENDPOINT: `http://127.0.0.1:${s3port}`,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      DB_POOL_MAX: '10',
    };
    const pooled = { ...common, DATABASE_URL: bouncerUrl, DATABASE_DIRECT_URL: primary.url('fsc'), DB_PREPARED_STATEMENTS: 'false' };

    // ---- Throughput: PgBouncer against direct, one server each, measured in turn.
    say('measuring: one server direct, one through PgBouncer');
    const [direct, viaBouncer] = await Promise.all([
      startNode('direct', 'main.js', { ...common, DATABASE_URL: primary.url('fsc'), WEBHOOK_WORKER: 'off', TASK_WORKER: 'off' }, await freePort()),
      startNode('bouncer', 'main.js', { ...pooled, WEBHOOK_WORKER: 'off', TASK_WORKER: 'off' }, await freePort()),
    ]);
    const list = (port: number, a: Api = quietApi) => async () => (await a(port, 'GET', '/api/v1/customers?limit=25')).status === 200;
    const create = (port: number) => async (i: number) => (await api(port, 'POST', '/api/v1/customers', { first_name: `B${i}`, last_name: 'Bench' })).status === 200;
    await throughput(1, LANES, list(direct.port));
    await throughput(1, LANES, list(viaBouncer.port));
    const lists = await inTurn(BENCH_SECONDS, LANES, list(direct.port), list(viaBouncer.port));
    const creates = await inTurn(BENCH_SECONDS, LANES, create(direct.port), create(viaBouncer.port));
    const [dList, bList, dCreate, bCreate] = [lists.a, lists.b, creates.a, creates.b];
    // The replica's effect: reads through a server without replicas, then with them; the primary's CPU per read.
    say('measuring: primary CPU per read without and with the replica');
    const withReplica = await startNode('with-replica', 'main.js', { ...pooled, DATABASE_REPLICA_URLS: replica.url('fsc'), WEBHOOK_WORKER: 'off', TASK_WORKER: 'off' }, await freePort());
    const cpuPerRead = async (port: number) => {
      const c0 = clusterCpu(primary);
      let n = 0;
      await throughput(BENCH_SECONDS, LANES, async () => (await list(port)()) && ++n > 0);
      return (clusterCpu(primary) - c0) / n;
    };
    const cpuPrimaryOnly = await cpuPerRead(viaBouncer.port);
    const cpuWithReplica = await cpuPerRead(withReplica.port);
    await Promise.all([stopNode(direct), stopNode(viaBouncer), stopNode(withReplica)]);

    // ---- The topology: 3 servers behind HAProxy, 2 workers.
    say('starting 3 servers, 2 workers, HAProxy');
    const serverEnv = { ...pooled, DATABASE_REPLICA_URLS: replica.url('fsc'), WEBHOOK_WORKER: 'off', TASK_WORKER: 'off', DRAIN_MS: '1500' };
    const servers = await Promise.all([1, 2, 3].map(async (i) => startNode(`server${i}`, 'main.js', serverEnv, await freePort())));
    const workers = await Promise.all([1, 2].map((i) => startNode(`worker${i}`, 'worker.js', pooled)));
    cleanups.push(() => Promise.all([...servers, ...workers].map((p) => stopNode(p))));
    const lb = await startHaproxy(path.join(dir, 'haproxy'), servers.map((s) => s.port), 300);
    cleanups.push(() => lb.stop());
    for (let i = 0; i < 100 && !Object.values(await haproxyStatus(lb.statsPort)).every((s) => s === 'UP'); i++) await sleep(100);

    // 3 servers through HAProxy against one server directly (the same processes, before the faults).
    // Each server first serves the list on its own for the same time, so that the three are as warm
    // as the one (V8 optimises a function after as many calls in every process; through HAProxy each
    // server gets a third of the calls), and both sides are measured at their steady state.
    say('measuring: 3 servers behind HAProxy against one');
    for (const s of servers) await throughput(WARM_SECONDS, LANES, list(s.port));
    await throughput(1, LANES, list(lb.port));
    const topo = await inTurn(BENCH_SECONDS, LANES, list(servers[0].port), list(lb.port));
    const [oneList, threeList] = [topo.a, topo.b];

    // Webhooks to the receiver; a job with a daily schedule (visits generated), a monthly
    // service agreement started months ago (invoices caught up by the workers' task).
    const endpoint = await api(lb.port, 'POST', '/api/v1/webhook_endpoints', { url: hooks.url });
    if (endpoint.status !== 200) throw new Error(`webhook endpoint: ${JSON.stringify(endpoint.body)}`);
    const customer = (await api(lb.port, 'POST', '/api/v1/customers', { first_name: 'Agreement', last_name: 'Holder' })).body.data;
    const agreementJob = (await api(lb.port, 'POST', '/api/v1/jobs', { customer_uuid: customer.uuid, title: 'Maintenance plan' })).body.data;
    const startsOn = new Date(Date.now() - 200 * 86_400_000).toISOString().slice(0, 10);
    const agreement = await api(lb.port, 'POST', '/api/v1/recurring_invoices', { customer_uuid: customer.uuid, job_uuid: agreementJob.uuid, rrule: 'FREQ=WEEKLY', starts_on: startsOn, line_items: [{ description: 'Visit', quantity: 1, unit_price: 50 }] });
    if (agreement.status !== 200) say(`recurring invoice not created: ${JSON.stringify(agreement.body).slice(0, 300)}`);

    // ---- The load: write-then-read pairs through different processes, and a lane through HAProxy
    // writing invoices and schedules; the faults at fixed points of the run.
    say(`load: up to ${PAIRS} write-then-read pairs or ${SECONDS} s on ${LANES} lanes, faults at 30%, 45%, 60%`);
    const acked = { customers: new Set<string>(), invoices: new Set<string>(), jobs: new Set<string>() };
    let stale = 0;
    let errors = 0;
    let lbErrors = 0;
    let unacknowledged = 0;
    let done = 0;
    let killedAt = 0;
    let downAfterMs = -1;
    const errorSamples: string[] = [];
    const alive = () => servers.filter((s) => s.alive);
    const note = (what: string, r: { status: number; body: unknown }) => {
      errors++;
      if (errorSamples.length < 5) errorSamples.push(`${what} ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
    };
    // A request to a process that was killed meanwhile fails at the connection: not acknowledged.
    const guarded = async <T>(p: Proc, f: () => Promise<T>): Promise<T | null> => {
      try {
        return await f();
      } catch (err) {
        if (!p.alive || (err as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED' || /fetch failed|other side closed/.test(String(err))) {
          unacknowledged++;
          return null;
        }
        throw err;
      }
    };
    // How far the load phase is: pairs done or time spent, whichever is further.
    let t0 = Date.now();
    const progress = () => Math.max(done / PAIRS, (Date.now() - t0) / (SECONDS * 1000));
    const faults = async () => {
      while (progress() < 0.3) await sleep(50);
      say('fault: kill -9 of server1');
      killedAt = Date.now();
      servers[0].proc.kill('SIGKILL');
      for (;;) {
        const st = await haproxyStatus(lb.statsPort);
        if (st.s1?.startsWith('DOWN')) break;
        await sleep(20);
      }
      downAfterMs = Date.now() - killedAt;
      while (progress() < 0.45) await sleep(50);
      say('fault: kill -9 of worker1');
      workers[0].proc.kill('SIGKILL');
      while (progress() < 0.6) await sleep(50);
      say('fault: replica stopped');
      await replica.stop();
    };
    const pairLane = async (lane: number) => {
      for (let i = lane; progress() < 1; i += LANES) {
        const live = alive();
        const w = live[i % live.length];
        const r = live[(i + 1) % live.length];
        const key = randomUUID();
        // Writes alternate between the surfaces; reads are REST GETs (lag-tolerant).
        const created = await guarded(w, async () => {
          if (i % 2) {
            const g = await api(w.port, 'POST', '/graphql', { query: 'mutation($i: CustomerCreateInput!) { createCustomer(input: $i) { uuid lastName } }', variables: { i: { firstName: `P${i}`, lastName: 'v0' } } }, { 'Idempotency-Key': key });
            return g.status === 200 && g.body.data ? { status: 200, uuid: g.body.data.createCustomer.uuid as string, body: g.body } : { status: g.status, uuid: '', body: g.body };
          }
          const c = await api(w.port, 'POST', '/api/v1/customers', { first_name: `P${i}`, last_name: 'v0' }, { 'Idempotency-Key': key });
          return { status: c.status, uuid: c.status === 200 ? (c.body.data.uuid as string) : '', body: c.body };
        });
        if (!created) continue;
        if (created.status !== 200) {
          note('create', created);
          continue;
        }
        acked.customers.add(created.uuid);
        const read = await guarded(r, () => api(r.port, 'GET', `/api/v1/customers/${created.uuid}`));
        if (read && read.status === 404) stale++;
        else if (read && read.status !== 200) note('read', read);
        if (i % 10 === 0) {
          const q = await guarded(r, () => quietApi(r.port, 'GET', '/api/v1/customers?limit=100'));
          if (q && q.status !== 200) note('quiet read', q);
          else if (q && q.body.data.customers.length !== 50) stale++;
        }
        done++;
      }
    };
    let lbStop = false;
    const lbLane = async () => {
      for (let i = 0; !lbStop; i++) {
        const key = randomUUID();
        const job = await api(lb.port, 'POST', '/api/v1/jobs', { customer_uuid: customer.uuid, title: `Job ${i}` }, { 'Idempotency-Key': key });
        if (job.status !== 200) {
          lbErrors++;
          if (errorSamples.length < 5) errorSamples.push(`lb job ${job.status} ${JSON.stringify(job.body).slice(0, 200)}`);
          continue;
        }
        acked.jobs.add(job.body.data.uuid);
        const inv = await api(lb.port, 'POST', '/api/v1/invoices', { job_uuid: job.body.data.uuid, customer_uuid: customer.uuid, due_date: '2030-01-01' }, { 'Idempotency-Key': randomUUID() });
        if (inv.status !== 200) {
          lbErrors++;
          if (errorSamples.length < 5) errorSamples.push(`lb invoice ${inv.status} ${JSON.stringify(inv.body).slice(0, 200)}`);
        } else acked.invoices.add(inv.body.data.uuid);
        if (i % 10 === 0) {
          const s = await api(lb.port, 'PUT', `/api/v1/jobs/${job.body.data.uuid}/schedule`, { rrule: 'FREQ=DAILY', starts_on: new Date().toISOString().slice(0, 10), start_time: '09:00', duration_minutes: 60, horizon_days: 30 });
          if (s.status !== 200) {
            lbErrors++;
            if (errorSamples.length < 5) errorSamples.push(`lb schedule ${s.status} ${JSON.stringify(s.body).slice(0, 200)}`);
          }
        }
      }
    };
    t0 = Date.now();
    const lbRun = lbLane();
    await Promise.all([faults(), ...Array.from({ length: LANES }, (_, l) => pairLane(l))]);
    lbStop = true;
    await lbRun;
    const loadSeconds = (Date.now() - t0) / 1000;
    say(`load done in ${loadSeconds.toFixed(0)} s; waiting for deliveries`);

    // ---- Settle: every delivery done (the killed worker's claims expire after their lease).
    for (let i = 0; i < 1200; i++) {
      const { rows } = await sql.query<{ n: number }>(`select count(*)::int as n from webhook_deliveries where status not in ('succeeded', 'failed')`);
      const { rows: unassigned } = await sql.query<{ n: number }>(`select count(*)::int as n from events e where e.position is null`).catch(() => ({ rows: [{ n: 0 }] }));
      // The dispatcher has read the whole feed (its cursor at the last position): every delivery is made.
      const { rows: behind } = await sql.query<{ n: number }>(`select count(*)::int as n from events where position > coalesce((select position from webhook_dispatch_state where id = 1), 0)`);
      if (rows[0].n === 0 && unassigned[0].n === 0 && behind[0].n === 0) break;
      await sleep(250);
    }

    // ---- Invariants.
    const missingOf = async (table: string, ids: Set<string>) => {
      if (!ids.size) return 0;
      const { rows } = await sql.query<{ n: number }>(`select count(*)::int as n from ${table} where uuid = any($1::uuid[])`, [[...ids]]);
      return ids.size - rows[0].n;
    };
    const lost = (await missingOf('customers', acked.customers)) + (await missingOf('jobs', acked.jobs)) + (await missingOf('invoices', acked.invoices));
    const ackedCount = acked.customers.size + acked.jobs.size + acked.invoices.size;
    const { rows: deliveries } = await sql.query<{ status: string; n: number }>(`select status, count(*)::int as n from webhook_deliveries group by status`);
    const { rows: events } = await sql.query<{ n: number }>(`select count(*)::int as n from events where company_uuid = $1`, [busy.company.uuid]);
    // Every event of the company since the endpoint was made (it takes every type) has its delivery,
    // one each (the dispatcher compares their times to the millisecond).
    const { rows: owed } = await sql.query<{ due: number; made: number; events: number }>(
      `select (select count(*) from events e where e.company_uuid = w.company_uuid and date_trunc('milliseconds', e.created_at) >= date_trunc('milliseconds', w.created_at))::int as due,
              (select count(*) from webhook_deliveries d where d.endpoint_uuid = w.uuid)::int as made,
              (select count(distinct d.event_id) from webhook_deliveries d where d.endpoint_uuid = w.uuid)::int as events
         from webhook_endpoints w where w.uuid = $1`,
      [endpoint.body.data.uuid],
    );
    const succeeded = deliveries.find((d) => d.status === 'succeeded')?.n ?? 0;
    const notSucceeded = deliveries.filter((d) => d.status !== 'succeeded').reduce((s, d) => s + d.n, 0);
    const received = [...hooks.ids.values()];
    const receivedTwice = received.filter((n) => n > 1).length;
    const { rows: visitDup } = await sql.query<{ n: number }>(`select count(*)::int as n from (select schedule_uuid, occurrence_date from visits where schedule_uuid is not null group by 1, 2 having count(*) > 1) d`);
    const { rows: visitCount } = await sql.query<{ n: number }>(`select count(*)::int as n from visits where schedule_uuid is not null`);
    const { rows: recurringInvoices } = await sql.query<{ issue_date: string }>(`select issue_date::text from invoices where recurring_invoice_uuid is not null`);
    const { rows: numbers } = await sql.query<{ invoice_number: string }>(`select invoice_number from invoices where company_uuid = $1`, [busy.company.uuid]);
    const nums = numbers.map((r) => Number(/(\d+)$/.exec(r.invoice_number)?.[1] ?? NaN));

    const f = (n: number, d = 0) => n.toFixed(d);
    check('write-then-read pairs (REST and GraphQL writes, REST reads, different servers)', done, done > 0);
    check('stale reads', stale, stale === 0);
    check('errors from live processes (pairs)', errors, errors === 0, errorSamples.join(' | '));
    // What the servers logged about them (a 503's cause is logged as 'service unavailable').
    if (errors > 0) for (const s of servers) for (const line of s.out().split('\n').filter((l) => /"(service unavailable|request failed)"/.test(l)).slice(0, 3)) say(`${s.name}: ${line.slice(0, 2000)}`);
    check('errors through HAProxy (jobs, invoices, schedules) across the faults', lbErrors, lbErrors === 0);
    check('requests cut by the kill -9 (never acknowledged)', unacknowledged, true, 'a client retries them with their Idempotency-Key');
    check('acknowledged writes lost', `${lost} of ${ackedCount}`, lost === 0);
    // The processes not killed ran to the end (a worker that failed to start would leave the
    // deliveries to the one killed).
    const unkilled = [...servers.slice(1), ...workers.slice(1)];
    check('processes not killed, still running at the end', `${unkilled.filter((p) => p.alive).length} of ${unkilled.length}`, unkilled.every((p) => p.alive), unkilled.filter((p) => !p.alive).map((p) => `${p.name} ended: ${p.out().slice(-300)}`).join('; '));
    check('HAProxy: killed server marked DOWN after (ms)', downAfterMs, downAfterMs >= 0 && downAfterMs <= 2000, 'checks every 300 ms, fall 2; requests retried on the others meanwhile');
    check('events owed a delivery / deliveries made / events delivered', `${owed[0].due} / ${owed[0].made} / ${owed[0].events}`, owed[0].due > 0 && owed[0].made === owed[0].due && owed[0].events === owed[0].due, 'every event of the company since the endpoint was made, one delivery each');
    check('webhook deliveries succeeded / not succeeded', `${succeeded} / ${notSucceeded}`, notSucceeded === 0 && succeeded > 0, `${events[0].n} events of the company`);
    check('distinct deliveries received / received twice', `${hooks.ids.size} / ${receivedTwice}`, hooks.ids.size === succeeded, 'the same webhook-id again after the killed worker\'s lease is the documented at-least-once retry');
    check('generated visits / occurrences generated twice', `${visitCount[0].n} / ${visitDup[0].n}`, visitDup[0].n === 0);
    check('recurring invoices issued / issue dates twice', `${recurringInvoices.length} / ${duplicates(recurringInvoices.map((r) => r.issue_date)).length}`, duplicates(recurringInvoices.map((r) => r.issue_date)).length === 0);
    check('invoice numbers: count / gaps / duplicates', `${nums.length} / ${gaps(nums).length} / ${duplicates(nums).length}`, gaps(nums).length === 0 && duplicates(nums).length === 0);
    check('REST list through PgBouncer / direct (req/s)', `${f(bList.rps)} / ${f(dList.rps)} = ${ratio(bList.rps, dList.rps)}×`, bList.rps >= 0.9 * dList.rps, 'goal ≥ 0.9×');
    check('REST create through PgBouncer / direct (req/s)', `${f(bCreate.rps)} / ${f(dCreate.rps)} = ${ratio(bCreate.rps, dCreate.rps)}×`, bCreate.rps >= 0.9 * dCreate.rps, 'goal ≥ 0.9×');
    check('REST list, 3 servers behind HAProxy / 1 server (req/s)', `${f(threeList.rps)} / ${f(oneList.rps)} = ${ratio(threeList.rps, oneList.rps)}×`, threeList.rps >= oneList.rps, 'goal ≥ 1.0× on this 2-core machine');
    check('primary CPU per read, with replica / without (ms)', `${f(cpuWithReplica * 1000, 3)} / ${f(cpuPrimaryOnly * 1000, 3)} = ${ratio(cpuWithReplica, cpuPrimaryOnly)}×`, cpuWithReplica < cpuPrimaryOnly, 'goal < 1×');
    check('load phase (s) / load average before / after', `${f(loadSeconds)} / ${load0.toFixed(2)} / ${os.loadavg()[0].toFixed(2)}`, true, `${os.cpus().length} cores, shared`);
    if (dList.errors + bList.errors + dCreate.errors + bCreate.errors + oneList.errors + threeList.errors) check('errors during the throughput measurements', dList.errors + bList.errors + dCreate.errors + bCreate.errors + oneList.errors + threeList.errors, false);
  } finally {
    say('stopping everything');
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
    if (!process.env.SCALE_KEEP) fs.rmSync(dir, { recursive: true, force: true });
  }
  process.stdout.write(renderTable(rows) + '\n');
  process.exit(failed ? 1 : 0);
}

main().catch((err) => {
  process.stderr.write(`scale test failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
