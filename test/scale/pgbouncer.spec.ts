import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { missingBinaries, Service, startPgbouncer } from '../../deploy/topology';
import { createTenant, useTestApp } from '../helpers/app';
import { keyWith } from '../helpers/keys';
import { ServerProcess, startServer } from '../helpers/server-process';

// Debian's PgBouncer (1.18) in transaction mode in front of the test database, two server
// processes through it with DB_PREPARED_STATEMENTS=false, and DATABASE_DIRECT_URL for what needs a
// session (the key cache's LISTEN, the job engine, migrations under their advisory lock):
// docs/scaling.md. Skipped, saying so, where /usr/sbin/pgbouncer is absent.
const missing = missingBinaries(['pgbouncer']);
const maybe = missing.length ? it.skip : it;
if (missing.length) console.warn(`test/scale/pgbouncer.spec.ts skipped: ${missing.join(', ')} not installed`);

const t = useTestApp();
let bouncer: Service;
let a: ServerProcess;
let b: ServerProcess;
let pooled: string;

beforeAll(async () => {
  if (missing.length) return;
  const server = new URL(t.url);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fsc-pgbouncer-'));
  // Ten server connections, not the default twenty: the other test files run beside this one on the
  // same PostgreSQL (max_connections 100 by default), and one run of the whole suite found it full.
  // Two hundred requests at once still wait in PgBouncer's queue, which is what this test is about.
  bouncer = await startPgbouncer(dir, Number(server.port || 5432), server.hostname, { poolSize: 10, password: decodeURIComponent(server.password) || undefined });
  const u = new URL(t.url);
  u.port = String(bouncer.port);
  u.password = '';
  pooled = u.toString();
  const env = { DATABASE_URL: pooled, DATABASE_DIRECT_URL: t.url, DB_PREPARED_STATEMENTS: 'false', DB_POOL_MAX: '20' };
  // One migrates (nothing pending: through the session connection, under its lock) and runs the job engine.
  [a, b] = await Promise.all([startServer({ ...env, MIGRATE: 'true', TASK_WORKER: 'on' }), startServer(env)]);
}, 120_000);

afterAll(async () => {
  for (const s of [a, b]) {
    s?.kill('SIGTERM');
    await s?.exited;
  }
  await bouncer?.stop();
});

async function call(s: ServerProcess, key: string, method: string, url: string, body?: unknown) {
  const res = await fetch(`http://127.0.0.1:${s.port}${url}`, { method, headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
  return { status: res.status, body: (await res.json()) as any };
}

maybe('lists and creates through PgBouncer in transaction mode, on both surfaces, 200 at once', async () => {
  const tenant = await createTenant(t);
  const creates = await Promise.all(
    Array.from({ length: 200 }, (_, i) => call(i % 2 ? a : b, tenant.key, 'POST', '/api/v1/customers', { first_name: `P${i}`, last_name: 'Pooled' })),
  );
  expect(creates.filter((r) => r.status !== 200)).toEqual([]);
  const lists = await Promise.all(Array.from({ length: 100 }, (_, i) => call(i % 2 ? a : b, tenant.key, 'GET', '/api/v1/customers?limit=100')));
  expect(lists.filter((r) => r.status !== 200)).toEqual([]);
  expect(lists.every((r) => r.body.data.customers.length === 100)).toBe(true);
  const gql = await call(b, tenant.key, 'POST', '/graphql', { query: '{ customers(limit: 5) { pagination { total } items { uuid } } }' });
  expect(gql.status).toBe(200);
  expect(gql.body.errors).toBeUndefined();
  expect(JSON.stringify(gql.body.data)).toContain('200');
  // The processes' statements went through PgBouncer: its server connections are in pg_stat_activity
  // under no application name, the key caches' listening sessions under theirs, directly.
  const sql = new Client({ connectionString: t.url });
  await sql.connect();
  try {
    const { rows } = await sql.query<{ n: number }>(`select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name = 'fsc-key-cache'`);
    // a's, b's and the test's own app's: LISTEN went to the session connection of DATABASE_DIRECT_URL.
    expect(rows[0].n).toBe(3);
  } finally {
    await sql.end();
  }
  expect(a.stdout()).toContain('background task engine started');
}, 180_000);

maybe('a key revoked through one process is refused by the other on its next request, through PgBouncer', async () => {
  const tenant = await createTenant(t);
  const k = await keyWith(t, tenant, {});
  // Both processes have used (and keep) the key.
  for (const s of [a, b, a, b]) expect((await call(s, k.key, 'GET', '/api/v1/customers')).status).toBe(200);
  const revoked = await call(a, tenant.key, 'DELETE', `/api/v1/api_keys/${k.id}`);
  expect(revoked.status).toBe(200);
  const next = await call(b, k.key, 'GET', '/api/v1/customers');
  expect(next.status).toBe(401);
  expect(next.body.error.code).toBe('UNAUTHORIZED');
  expect((await call(a, k.key, 'POST', '/graphql', { query: '{ company { name } }' })).status).toBe(401);
});
