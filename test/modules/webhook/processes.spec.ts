import { createTenant, rest, useTestApp } from '../../helpers/app';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { MAIN_JS, ServerProcess, startServer } from '../../helpers/server-process';
import { startReceiver, until } from '../../helpers/webhook-receiver';

// Deliveries by several server processes over one database (docs/webhooks.md): each delivery is
// claimed by one process at a time (FOR UPDATE SKIP LOCKED with a lease), and a process killed
// mid-attempt leaves it to another once the lease expires.

const env = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SCALE: '0.001' };
const t = useTestApp(env);
const servers: ServerProcess[] = [];
const start = async (extra: Record<string, string> = {}) => {
  const s = await startServer({ DATABASE_URL: t.url, WEBHOOK_WORKER: 'on', ...env, ...extra });
  servers.push(s);
  return s;
};

afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.kill('SIGKILL');
    await s.exited;
  }
});

/** `n` customers in one statement: n customer.created events, committed together. */
async function customers(companyUuid: string, n: number) {
  await t.orm.em.getConnection().execute(
    `insert into customers (uuid, company_uuid, first_name, last_name) select gen_random_uuid(), ?, 'C' || i, 'L' from generate_series(1, ?) as i`,
    [companyUuid, n],
  );
}

const stateCounts = async () =>
  Object.fromEntries(
    (await t.orm.em.getConnection().execute<{ status: string; n: number }[]>('select status, count(*)::int as n from webhook_deliveries group by status')).map((r) => [r.status, r.n]),
  );

it('two server processes and 500 events: 500 distinct deliveries succeed, none twice at once', async () => {
  const receiver = await startReceiver();
  try {
    const a = await createTenant(t);
    await rest(t, a).post('/webhook_endpoints', { url: receiver.url() });
    await Promise.all([start(), start()]);
    await customers(a.companyUuid, 500);
    await until(async () => (await stateCounts()).succeeded === 500, '500 succeeded deliveries', 120_000);
    expect(await stateCounts()).toEqual({ succeeded: 500 });
    const ids = new Set(receiver.received.map((r) => r.headers['webhook-id']));
    expect(ids.size).toBe(500);
    expect(receiver.received).toHaveLength(500);
    expect(receiver.overlaps()).toBe(0);
    // Both processes log their attempts; every attempt is one line.
    const attemptLines = () => servers.flatMap((s) => s.stdout().split('\n').filter((l) => l.includes('"msg":"webhook attempt"')));
    // The line follows the recorded result (written asynchronously).
    const lines = await until(() => (attemptLines().length >= 500 ? attemptLines() : null), 'the log lines');
    expect(lines).toHaveLength(500);
    expect(lines.join()).not.toContain('whsec_');
  } finally {
    await receiver.close();
  }
}, 180_000);

it('kill -9 of the process mid-attempt: another process delivers it after the lease', async () => {
  const receiver = await startReceiver((_r, n) => (n === 1 ? 'hold' : { status: 200 }));
  try {
    const a = await createTenant(t);
    const ep = (await rest(t, a).post('/webhook_endpoints', { url: receiver.url() })).body.data;
    const first = await start({ WEBHOOK_LEASE_SECONDS: '3', WEBHOOK_TIMEOUT_MS: '2000' });
    await rest(t, a).post(`/webhook_endpoints/${ep.uuid}/test`);
    await until(() => receiver.held.length === 1, 'the held attempt');
    first.kill('SIGKILL');
    await first.exited;
    await start({ WEBHOOK_LEASE_SECONDS: '3', WEBHOOK_TIMEOUT_MS: '2000' });
    const [d] = await until(async () => {
      const l = (await rest(t, a).get(`/webhook_endpoints/${ep.uuid}/deliveries?status=succeeded`)).body.data.deliveries;
      return l.length ? l : null;
    }, 'the delivery to succeed', 60_000);
    expect(d.attempts).toBe(2);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1].headers['webhook-id']).toBe(receiver.received[0].headers['webhook-id']);
    expect(receiver.received[1].body).toBe(receiver.received[0].body);
  } finally {
    await receiver.close();
  }
}, 120_000);

it('WEBHOOK_WORKER=off: the server delivers nothing; the worker of `npm run worker` delivers', async () => {
  const receiver = await startReceiver();
  const a = await createTenant(t);
  const ep = (await rest(t, a).post('/webhook_endpoints', { url: receiver.url() })).body.data;
  const worker = spawn(process.execPath, [path.join(path.dirname(MAIN_JS), 'worker.js')], {
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'info', DATABASE_URL: t.url, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  worker.stdout!.on('data', (d) => (out += String(d)));
  const exited = new Promise((resolve) => worker.on('exit', resolve));
  try {
    const server = await start({ WEBHOOK_WORKER: 'off' });
    await fetch(`http://127.0.0.1:${server.port}/api/v1/customers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ first_name: 'Wanda', last_name: 'Worker' }),
    });
    await until(() => receiver.received.length === 1, 'the delivery');
    expect(JSON.parse(receiver.received[0].body).type).toBe('customer.created');
    await until(() => out.includes('"msg":"webhook attempt"'), 'the worker log line');
    expect(server.stdout()).not.toContain('webhook attempt');
    expect((await rest(t, a).get(`/webhook_endpoints/${ep.uuid}/deliveries?status=succeeded`)).body.data.deliveries).toHaveLength(1);
  } finally {
    worker.kill('SIGTERM');
    await exited;
    await receiver.close();
  }
}, 120_000);
