import { createTenant, useTestApp } from '../helpers/app';
import { keyWith } from '../helpers/keys';
import { ServerProcess, startServer } from '../helpers/server-process';

// Two real server processes on one database share a key's usage counter (docs/access-and-operations.md).
const t = useTestApp();
let a: ServerProcess;
let b: ServerProcess;

beforeAll(async () => {
  [a, b] = await Promise.all([startServer({ DATABASE_URL: t.url }), startServer({ DATABASE_URL: t.url })]);
});

afterAll(async () => {
  for (const s of [a, b]) {
    s?.kill('SIGTERM');
    await s?.exited;
  }
});

async function call(port: number, key: string, graphql: boolean) {
  const res = graphql
    ? await fetch(`http://127.0.0.1:${port}/graphql`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ query: '{ company { uuid } }' }),
      })
    : await fetch(`http://127.0.0.1:${port}/api/v1/companies/me`, { headers: { Authorization: `Bearer ${key}` } });
  const body = (await res.json()) as { error?: { code: string }; errors?: Array<{ extensions: { code: string } }> };
  return {
    status: res.status,
    code: body.error?.code ?? body.errors?.[0]?.extensions.code,
    limit: res.headers.get('ratelimit-limit'),
    remaining: res.headers.get('ratelimit-remaining'),
    reset: Number(res.headers.get('ratelimit-reset')),
  };
}

it('two server processes count one key together', async () => {
  const k = await keyWith(t, await createTenant(t), { usageLimit: 6, usagePeriod: 'hour' });
  expect(a.proc.pid).not.toBe(b.proc.pid);

  // Alternating processes and surfaces: each sees the other's requests.
  const seen = [];
  for (let i = 0; i < 6; i++) seen.push(await call((i % 2 ? b : a).port, k.key, i % 3 === 2));
  expect(seen.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
  expect(seen.map((r) => r.remaining)).toEqual(['5', '4', '3', '2', '1', '0']);

  for (const s of [a, b]) {
    for (const graphql of [false, true]) {
      const r = await call(s.port, k.key, graphql);
      expect(r).toMatchObject({ status: 403, code: 'USAGE_LIMIT_EXCEEDED', limit: '6', remaining: '0' });
      expect(r.reset).toBeGreaterThan(0);
      expect(r.reset).toBeLessThanOrEqual(3600);
    }
  }

  // Concurrent bursts against both processes still count exactly.
  const rows = await t.orm.em.fork().getConnection().execute<{ n: number }[]>('select sum(count)::int as n from api_key_usage where key_id = ?', [k.id]);
  expect(rows[0].n).toBe(10);
  const burst = await Promise.all(Array.from({ length: 10 }, (_, i) => call((i % 2 ? b : a).port, k.key, false)));
  expect(burst.every((r) => r.status === 403)).toBe(true);
  const after = await t.orm.em.fork().getConnection().execute<{ n: number }[]>('select sum(count)::int as n from api_key_usage where key_id = ?', [k.id]);
  expect(after[0].n).toBe(20);
});

it('a fresh key under the limit, hit concurrently through both processes, gets exactly its limit', async () => {
  const k = await keyWith(t, await createTenant(t), { usageLimit: 8, usagePeriod: 'day' });
  const results = await Promise.all(Array.from({ length: 12 }, (_, i) => call((i % 2 ? b : a).port, k.key, i % 4 === 0)));
  expect(results.filter((r) => r.status === 200)).toHaveLength(8);
  expect(results.filter((r) => r.status === 403 && r.code === 'USAGE_LIMIT_EXCEEDED')).toHaveLength(4);
  expect(new Set(results.filter((r) => r.status === 200).map((r) => r.remaining)).size).toBe(8);
});
