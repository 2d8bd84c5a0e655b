import { Client } from 'pg';
import request from 'supertest';
import { minute, parseMetrics, Reading, sampleWaits } from '../../bench/soak-probes';
import { createTenant, rest, useTestApp } from '../helpers/app';

// The soak's reading of the server's /metrics (bench/soak-probes.ts): the per-route answer counts
// it takes from the latency histogram are the requests sent, whatever their status.

const t = useTestApp();

it("reads each route's answers, over every status, from the server's own /metrics", async () => {
  const a = await createTenant(t);
  const c = (await rest(t, a).post('/customers', { first_name: 'A', last_name: 'B' })).body.data;
  await rest(t, a).get(`/customers/${c.uuid}`);
  await rest(t, a).get(`/customers/${c.uuid}`);
  await rest(t, a).get('/customers/00000000-0000-4000-8000-000000000000');
  const before = parseMetrics((await request(t.app).get('/metrics')).text);
  const [answers, slow] = before.routes.get('GET /api/v1/customers/:uuid')!;
  expect(answers).toBe(3);
  expect(slow).toBeGreaterThanOrEqual(0);
  expect(slow).toBeLessThanOrEqual(3);
  expect(before.routes.get('POST /api/v1/customers')![0]).toBe(1);

  await rest(t, a).get(`/customers/${c.uuid}`);
  const after = parseMetrics((await request(t.app).get('/metrics')).text);
  const reading = (r: Pick<Reading, 'routes' | 'gc'>): Reading => ({ ...r, checkpoints: 0, cpu: [0, 0, 0, 0, 0, 0, 0, 0], serverCpuMs: 0 });
  const m = minute(reading(before), reading(after));
  // Between the two readings: the one GET, and the first /metrics scrape itself.
  expect(m.serverAnswers).toBe(2);
});

it('counts an answer as slow when it fell outside the 100 ms bucket, over every status', () => {
  const b = (status: string, le: string, n: number) => `http_request_duration_seconds_bucket{le="${le}",method="GET",route="/x",status="${status}"} ${n}`;
  const text = [
    '# HELP http_request_duration_seconds HTTP request latency',
    b('200', '0.05', 5),
    b('200', '0.1', 7),
    b('200', '0.25', 9),
    b('200', '+Inf', 10),
    b('404', '0.1', 2),
    b('404', '+Inf', 2),
    'http_request_duration_seconds_count{method="GET",route="/x",status="200"} 10',
    'nodejs_gc_duration_seconds_sum{kind="minor"} 0.5',
  ].join('\n');
  const r = parseMetrics(text);
  expect(r.routes).toEqual(new Map([['GET /x', [12, 3]]]));
  expect(r.gc).toEqual(new Map([['minor', 0.5]]));
});

it('a minute is the difference of two readings', () => {
  const a: Reading = { routes: new Map([['GET /x', [10, 1]]]), gc: new Map([['minor', 1.5]]), checkpoints: 3, cpu: [100, 0, 50, 800, 10, 0, 0, 40], serverCpuMs: 700 };
  const b: Reading = {
    routes: new Map([['GET /x', [30, 4]], ['POST /y', [5, 0]]]),
    gc: new Map([['minor', 1.75], ['major', 0.1]]),
    checkpoints: 4,
    cpu: [400, 0, 150, 1300, 30, 0, 0, 120],
    serverCpuMs: 2700,
  };
  expect(minute(a, b)).toEqual({
    serverSlow: 3,
    serverAnswers: 25,
    slowRoutes: ['GET /x 3'],
    gcMs: { minor: 250, major: 100 },
    checkpoints: 1,
    // 1,000 ticks in all (user 300, system 100, idle 500, iowait 20, steal 80): busy is all but idle and iowait.
    cpu: { busy: 48, server: 20, iowait: 2, steal: 8 },
    serverCpuMsPerAnswer: 80,
  });
});

it("samples what the database's busy sessions wait for: a row lock held by another transaction", async () => {
  const a = await createTenant(t);
  const holder = new Client({ connectionString: t.url });
  const waiter = new Client({ connectionString: t.url });
  await holder.connect();
  await waiter.connect();
  const waits = sampleWaits(t.url, 20);
  try {
    await holder.query('begin');
    await holder.query('update companies set name = name where uuid = $1', [a.companyUuid]);
    const blocked = waiter.query('update companies set name = name where uuid = $1', [a.companyUuid]);
    // Until a sample has seen the waiting update (each sample takes what the last one left).
    let seen: Record<string, number> = {};
    for (let i = 0; i < 500 && !seen['Lock:transactionid']; i++) {
      await new Promise((r) => setTimeout(r, 20));
      seen = { ...seen, ...waits.take() };
    }
    expect(seen['Lock:transactionid']).toBeGreaterThan(0);
    await holder.query('commit');
    await blocked;
    // The lock is gone: the samples from now on see no session waiting for it.
    await new Promise((r) => setTimeout(r, 200));
    waits.take();
    await new Promise((r) => setTimeout(r, 200));
    expect(waits.take()['Lock:transactionid']).toBeUndefined();
  } finally {
    await waits.stop();
    await holder.end();
    await waiter.end();
  }
});
