import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { Cluster, missingBinaries, startCluster, waitForReplay } from '../../deploy/topology';
import { initOrm, Orm } from '../../src/db/orm';
import { createCompany } from '../../src/modules/company/company.admin';
import { ServerProcess, startServer } from '../helpers/server-process';

// Reads on a streaming replica with read-your-writes across processes (docs/scaling.md, "Reads on
// replicas"): a PostgreSQL 15 primary and a hot standby copied from it by pg_basebackup, built in
// a temporary folder; two server processes with the replica in DATABASE_REPLICA_URLS. Each write
// through one process is read back through the other at once, by REST or GraphQL: never stale. The replica stopped
// mid-run: no request fails; started again, it takes reads again. Several minutes on a busy two-core machine: room beyond jest's 60 s. Skipped, saying so, where PostgreSQL 15's binaries are absent.
const missing = missingBinaries(['postgres']);
const maybe = missing.length ? it.skip : it;
if (missing.length) console.warn(`test/scale/replica.spec.ts skipped: ${missing.join(', ')} not installed`);

let primary: Cluster;
let replica: Cluster;
let orm: Orm;
let a: ServerProcess;
let b: ServerProcess;
let key: string;
let companyUuid: string;
/** A company that writes nothing during the pairs: its reads can go to the replica. */
let quietKey: string;

beforeAll(async () => {
  if (missing.length) return;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fsc-replica-'));
  fs.chmodSync(dir, 0o755);
  primary = await startCluster(path.join(dir, 'primary'));
  const admin = new Client({ connectionString: primary.url() });
  await admin.connect();
  await admin.query('create database fsc');
  await admin.end();
  execFileSync(process.execPath, [path.resolve(__dirname, '../../dist/src/cli/migrate.js')], { env: { ...process.env, DATABASE_URL: primary.url('fsc') }, stdio: ['ignore', 'ignore', 'inherit'] });
  // The replica applies each commit 100 ms late: without the check, reads right after a write are
  // stale (this test fails with the target position left out of src/db/replicas.ts).
  replica = await startCluster(path.join(dir, 'replica'), { primary, settings: { recovery_min_apply_delay: "'100ms'" } });
  orm = await initOrm(primary.url('fsc'), 2);
  const made = await createCompany(orm.em.fork(), { name: 'Replica Plumbing', email: 'office@replica.example' });
  key = made.apiKey;
  companyUuid = made.company.uuid;
  const quiet = await createCompany(orm.em.fork(), { name: 'Quiet Plumbing', email: 'office@quiet.example' });
  quietKey = quiet.apiKey;
  await orm.em.getConnection().execute(`insert into customers (uuid, company_uuid, first_name, last_name) select gen_random_uuid(), ?, 'Q' || i, 'L' from generate_series(1, 20) as i`, [quiet.company.uuid]);
  await waitForReplay(primary.url('fsc'), replica.url('fsc'));
  const env = { DATABASE_URL: primary.url('fsc'), DATABASE_REPLICA_URLS: replica.url('fsc') };
  [a, b] = await Promise.all([startServer(env), startServer(env)]);
}, 180_000);

afterAll(async () => {
  for (const s of [a, b]) {
    s?.kill('SIGTERM');
    await s?.exited;
  }
  await orm?.close(true);
  await replica?.stop();
  await primary?.stop();
});

async function call(s: ServerProcess, method: string, url: string, body?: unknown, as = key) {
  const res = await fetch(`http://127.0.0.1:${s.port}/api/v1${url}`, { method, headers: { Authorization: `Bearer ${as}`, 'Content-Type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
  return { status: res.status, body: (await res.json()) as any };
}

/** A GraphQL query through one process: its status, data and the errors' codes. */
async function gql(s: ServerProcess, query: string, variables: Record<string, unknown> = {}, as = key) {
  const res = await fetch(`http://127.0.0.1:${s.port}/graphql`, { method: 'POST', headers: { Authorization: `Bearer ${as}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ query, variables }) });
  const body = (await res.json()) as { data?: any; errors?: { extensions?: { code?: string } }[] };
  return { status: res.status, data: body.data, codes: (body.errors ?? []).map((e) => e.extensions?.code) };
}

const CUSTOMER_QUERY = `query($u: UUID!) { customer(uuid: $u) { uuid lastName } }`;
const QUIET_LIST_QUERY = `{ customers(limit: 100) { items { uuid } } }`;

/** Reads of customers the replica answered (its own statistics: a standby counts its scans). */
async function replicaScans(): Promise<number> {
  const c = new Client({ connectionString: replica.url('fsc') });
  await c.connect();
  try {
    const { rows } = await c.query<{ n: string }>(`select coalesce(idx_scan, 0) + coalesce(seq_scan, 0) as n from pg_stat_user_tables where relname = 'customers'`);
    return Number(rows[0]?.n ?? 0);
  } finally {
    await c.end();
  }
}

/** True once the replica's statistics count more scans than `before` (a standby flushes them within about a second). */
async function replicaScansAbove(before: number, tries = 100): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    if ((await replicaScans()) > before) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

/** Write through one process, read it through the other at once; returns the stale reads and the failed requests. */
async function pairs(n: number, during?: (i: number) => Promise<void>) {
  let stale = 0;
  let failed = 0;
  const lanes = 4;
  await Promise.all(
    Array.from({ length: lanes }, async (_, lane) => {
      for (let i = lane; i < n; i += lanes) {
        await during?.(i);
        const [w, r] = i % 2 ? [a, b] : [b, a];
        const created = await call(w, 'POST', '/customers', { first_name: `R${i}`, last_name: 'v0' });
        if (created.status !== 200) {
          failed++;
          continue;
        }
        const uuid = created.body.data.uuid;
        // Read back through the other process: REST, or a GraphQL query for every other pair.
        if (i % 4 < 2) {
          const read = await call(r, 'GET', `/customers/${uuid}`);
          if (read.status === 404) stale++;
          else if (read.status !== 200) failed++;
        } else {
          const read = await gql(r, CUSTOMER_QUERY, { u: uuid });
          if (read.codes.includes('NOT_FOUND')) stale++;
          else if (read.status !== 200 || read.codes.length || read.data?.customer?.uuid !== uuid) failed++;
        }
        const updated = await call(r, 'PUT', `/customers/${uuid}`, { last_name: `v${i}` });
        if (updated.status !== 200) failed++;
        // The list, through the first process again: the update is there.
        const list = await call(w, 'GET', `/customers?search=R${i}&limit=100`);
        if (list.status !== 200) failed++;
        else if (!list.body.data.customers.some((c: { uuid: string; last_name: string }) => c.uuid === uuid && c.last_name === `v${i}`)) stale++;
      }
    }),
  );
  return { stale, failed };
}

maybe('write-then-read pairs through two server processes: none stale, and the replica answers reads', async () => {
  expect(await pairs(300)).toEqual({ stale: 0, failed: 0 });
  // Each read of the pairs follows its company's own write by less than the replica's delay, so the
  // primary answers it. A company that has written nothing since the replica caught up is read
  // there, through either process.
  await waitForReplay(primary.url('fsc'), replica.url('fsc'));
  const before = await replicaScans();
  for (const s of [a, b]) {
    const list = await call(s, 'GET', '/customers?limit=100', undefined, quietKey);
    expect([list.status, list.body.data.customers.length]).toEqual([200, 20]);
  }
  expect(await replicaScansAbove(before)).toBe(true);
  // A GraphQL query of the quiet company too.
  const beforeGraphql = await replicaScans();
  for (const s of [a, b]) {
    const list = await gql(s, QUIET_LIST_QUERY, {}, quietKey);
    expect([list.status, list.codes, list.data.customers.items.length]).toEqual([200, [], 20]);
  }
  expect(await replicaScansAbove(beforeGraphql)).toBe(true);
  // Every write of the company is recorded with its WAL position on the primary.
  const sql = orm.em.getConnection();
  expect(Number((await sql.execute(`select count(*) as n from company_wal where company_uuid = ?`, [companyUuid]))[0].n)).toBe(1);
}, 300_000);

maybe('the replica stopped mid-run: no request fails, none is stale', async () => {
  const result = await pairs(200, async (i) => {
    if (i === 60) await replica.stop();
  });
  expect(result).toEqual({ stale: 0, failed: 0 });
  // Started again, it takes the reads again, in both processes (a new pool of connections).
  await replica.start();
  await waitForReplay(primary.url('fsc'), replica.url('fsc'));
  for (const s of [a, b]) {
    const before = await replicaScans();
    let answered = false;
    // The first read after the restart may still find the replica skipped (retried each second).
    for (let i = 0; i < 50 && !answered; i++) {
      const list = await call(s, 'GET', '/customers?limit=100', undefined, quietKey);
      expect(list.status).toBe(200);
      answered = await replicaScansAbove(before, 5);
    }
    expect(answered).toBe(true);
  }
}, 300_000);
