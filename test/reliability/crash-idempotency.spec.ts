import { createTenant, useTestApp } from '../helpers/app';
import { ServerProcess, startServer } from '../helpers/server-process';

// kill -9 of the server while idempotent creates are in flight: every retry with the same key
// returns the first response when the create committed, or creates it once when it did not;
// never two records for one key (src/data/idempotency.ts: one transaction for both).
const t = useTestApp();
let server: ServerProcess | undefined;
afterAll(async () => {
  server?.kill('SIGKILL');
  await server?.exited;
});

type Answer = { status: number; body: any; replayed: boolean };

async function post(port: number, key: string, path: string, idem: string, body: object): Promise<Answer> {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Idempotency-Key': idem },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json(), replayed: res.headers.get('idempotent-replayed') === 'true' };
}

it('kill -9 during idempotent creates: each retry returns the original response, no duplicate', async () => {
  const tenant = await createTenant(t);
  server = await startServer({ DATABASE_URL: t.url });
  const customer = (await post(server.port, tenant.key, '/customers', 'setup', { first_name: 'Ada', last_name: 'Lovelace' })).body.data;
  const job = (await post(server.port, tenant.key, '/jobs', 'setup-job', { customer_uuid: customer.uuid, title: 'Boiler' })).body.data;
  const N = 24;
  const bodies = Array.from({ length: N }, (_, i) => ({
    customer_uuid: customer.uuid,
    job_uuid: job.uuid,
    due_date: '2030-01-31',
    notes: `crash-${i}`,
    line_items: [{ description: `Work ${i}`, quantity: 1, unit_price: 10 + i }],
  }));
  const first = server;
  const inFlight = bodies.map((b, i) => post(first.port, tenant.key, '/invoices', `crash-key-${i}`, b).catch(() => null));
  // Killed as soon as the first answer arrives: the others are somewhere between their claim,
  // their create and their answer.
  await Promise.race(inFlight.map((p) => p.then((a) => (a ? undefined : new Promise(() => undefined)))));
  first.kill('SIGKILL');
  const before = await Promise.all(inFlight);
  await first.exited;

  server = await startServer({ DATABASE_URL: t.url });
  const retries = await Promise.all(bodies.map((b, i) => post(server!.port, tenant.key, '/invoices', `crash-key-${i}`, b)));
  const db = t.orm.em.getConnection();
  for (let i = 0; i < N; i++) {
    const retry = retries[i];
    expect(retry.status).toBe(200);
    const rows = await db.execute<{ uuid: string }[]>(`select uuid from invoices where notes = ?`, [`crash-${i}`]);
    // Exactly one invoice per key, and the retry answers with it.
    expect(rows.map((r) => r.uuid)).toEqual([retry.body.data.uuid]);
    const answered = before[i];
    if (answered && answered.status === 200) {
      // The first attempt was answered before the kill: the retry is its replay, byte for byte.
      expect(retry.replayed).toBe(true);
      expect(retry.body).toEqual(answered.body);
    }
  }
  // A second round of retries replays every one of them.
  const again = await Promise.all(bodies.map((b, i) => post(server!.port, tenant.key, '/invoices', `crash-key-${i}`, b)));
  again.forEach((a, i) => {
    expect(a.replayed).toBe(true);
    expect(a.body).toEqual(retries[i].body);
  });
  // The kill came in the middle: some first attempts were answered, some were not.
  const answered = before.filter((b) => b?.status === 200).length;
  expect(answered).toBeLessThan(N);
  const [{ count }] = await db.execute<{ count: string }[]>(`select count(*) from invoices where notes like 'crash-%'`);
  expect(Number(count)).toBe(N);
});
