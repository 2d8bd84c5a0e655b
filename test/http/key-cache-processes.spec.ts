import { Client } from 'pg';
import { revokeKey, setAddons } from '../../src/modules/company/company.admin';
import { createTenant, useTestApp } from '../helpers/app';
import { keyWith } from '../helpers/keys';
import { ServerProcess, startServer } from '../helpers/server-process';

// Two server processes on one database, each with its API key cache (src/auth/key-cache.ts): a
// change of a key or its company, made by the admin functions or by hand in SQL, applies to the
// very next request in both processes, on both surfaces, although both kept the key.
const t = useTestApp();
let a: ServerProcess;
let b: ServerProcess;
let sql: Client;

beforeAll(async () => {
  // DEBUG_SQL: the statements each process runs are logged, so the test sees the cache at work.
  [a, b] = await Promise.all([startServer({ DATABASE_URL: t.url, DEBUG_SQL: '1' }), startServer({ DATABASE_URL: t.url, DEBUG_SQL: '1' })]);
  sql = new Client({ connectionString: t.url });
  await sql.connect();
});

afterAll(async () => {
  await sql?.end();
  for (const s of [a, b]) {
    s?.kill('SIGTERM');
    await s?.exited;
  }
});

const NUMBERING = { invoice: { prefix: 'F-', padding: 3 } };

async function call(s: ServerProcess, key: string, graphql: boolean) {
  const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
  const res = graphql
    ? await fetch(`http://127.0.0.1:${s.port}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query: '{ company { name } }' }) })
    : await fetch(`http://127.0.0.1:${s.port}/api/v1/numbering`, { method: 'PUT', headers, body: JSON.stringify(NUMBERING) });
  const body = (await res.json()) as { data?: { company?: { name: string } }; error?: { code: string }; errors?: Array<{ extensions: { code: string } }> };
  return { status: res.status, code: body.error?.code ?? body.errors?.[0]?.extensions.code ?? null, name: body.data?.company?.name ?? null, limit: res.headers.get('ratelimit-limit') };
}

/** Each process and surface once, in turn. */
async function everywhere(key: string) {
  const out = [];
  for (const s of [a, b]) for (const graphql of [false, true]) out.push(await call(s, key, graphql));
  return out;
}

/** Key lookups a process ran while `run` ran (its DEBUG_SQL lines). */
async function lookups(s: ServerProcess, run: () => Promise<unknown>): Promise<number> {
  const before = s.stdout().length;
  await run();
  await new Promise((r) => setTimeout(r, 200));
  return s.stdout().slice(before).split('\n').filter((l) => l.includes('[query]') && /from "api_keys"/.test(l)).length;
}

it('both processes keep the key, and a revocation, add-ons, an IP allow-list, a usage limit and a new name apply to the next request in each', async () => {
  const tenant = await createTenant(t, { name: 'Before Plumbing' });
  const k = await keyWith(t, tenant, {});
  expect((await everywhere(k.key)).map((r) => r.status)).toEqual([200, 200, 200, 200]);
  // Kept: further requests run no key lookup in either process.
  for (const s of [a, b]) expect(await lookups(s, () => call(s, k.key, false).then(() => call(s, k.key, true)))).toBe(0);

  await sql.query(`update companies set name = 'After Plumbing' where uuid = $1`, [tenant.companyUuid]);
  expect((await everywhere(k.key)).filter((r) => r.name).map((r) => r.name)).toEqual(['After Plumbing', 'After Plumbing']);

  await setAddons(t.orm.em.fork(), tenant.companyUuid, []);
  expect((await everywhere(k.key)).map((r) => r.code)).toEqual(['ADDON_REQUIRED', null, 'ADDON_REQUIRED', null]);
  await setAddons(t.orm.em.fork(), tenant.companyUuid, ['custom_numbering', 'job_photos']);
  expect((await everywhere(k.key)).map((r) => r.status)).toEqual([200, 200, 200, 200]);

  await sql.query(`update api_keys set allowed_ips = '{203.0.113.0/24}' where id = $1`, [k.id]);
  expect((await everywhere(k.key)).map((r) => r.code)).toEqual(['IP_RESTRICTED', 'IP_RESTRICTED', 'IP_RESTRICTED', 'IP_RESTRICTED']);
  await sql.query(`update api_keys set allowed_ips = '{127.0.0.0/8,::1/128}' where id = $1`, [k.id]);
  expect((await everywhere(k.key)).map((r) => r.status)).toEqual([200, 200, 200, 200]);

  await sql.query(`update api_keys set usage_limit = 6, usage_period = 'hour' where id = $1`, [k.id]);
  const limited = await everywhere(k.key);
  expect(limited.map((r) => r.limit)).toEqual(['6', '6', '6', '6']);
  expect((await everywhere(k.key)).map((r) => r.code)).toEqual([null, null, 'USAGE_LIMIT_EXCEEDED', 'USAGE_LIMIT_EXCEEDED']);
  await sql.query(`update api_keys set usage_limit = null, usage_period = null where id = $1`, [k.id]);
  expect((await everywhere(k.key)).map((r) => r.status)).toEqual([200, 200, 200, 200]);

  await revokeKey(t.orm.em.fork(), k.id);
  expect((await everywhere(k.key)).map((r) => [r.status, r.code])).toEqual(Array(4).fill([401, 'UNAUTHORIZED']));
  // The tenant's other key still works in both.
  expect((await everywhere(tenant.key)).map((r) => r.status)).toEqual([200, 200, 200, 200]);
});

it('a process whose listening connection is cut looks keys up until it listens again, and a revocation meanwhile applies', async () => {
  const tenant = await createTenant(t);
  const k = await keyWith(t, tenant, {});
  expect((await everywhere(k.key)).map((r) => r.status)).toEqual([200, 200, 200, 200]);
  // Cut both processes' listening connections, then revoke at once: neither may use what it kept.
  await sql.query(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'fsc-key-cache' and datname = current_database()`);
  await revokeKey(t.orm.em.fork(), k.id);
  expect((await everywhere(k.key)).map((r) => r.status)).toEqual([401, 401, 401, 401]);
  expect((await everywhere(tenant.key)).map((r) => r.status)).toEqual([200, 200, 200, 200]);
  for (const s of [a, b]) expect(s.stdout()).toContain('API key cache: listening connection lost');
});
