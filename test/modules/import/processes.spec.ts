import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { createTenant, rest, useTestApp } from '../../helpers/app';
import { csvOf, CUSTOMER_COLUMNS, customerRow, finished, uploadImport } from '../../helpers/imports';
import { MAIN_JS } from '../../helpers/server-process';
import { until } from '../../helpers/webhook-receiver';
import { stopSenders } from '../../../src/jobs/engine';
import '../../../src/jobs/tasks';

// A worker killed mid-import (docs/import-export.md): `npm run worker` takes the import, is killed
// with SIGKILL at 40%, and a second worker takes it over and finishes it with exactly one record
// per row: the batches the first committed stay, the one it was writing is rolled back whole.

const t = useTestApp();
const N = 10_000;
afterAll(() => stopSenders());

function startWorker(): { proc: ChildProcess; out: () => string; exited: Promise<unknown> } {
  const proc = spawn(process.execPath, [path.join(path.dirname(MAIN_JS), 'worker.js')], {
    // A heartbeat older than a second is stale: the second worker need not wait a minute.
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'info', DATABASE_URL: t.url, IMPORT_STALE_SECONDS: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += String(d)));
  proc.stderr!.on('data', (d) => (out += String(d)));
  return { proc, out: () => out, exited: new Promise((resolve) => proc.on('exit', resolve)) };
}

const one = async <T>(sql: string, params: unknown[] = []) => (await t.orm.em.getConnection().execute<T[]>(sql, params))[0];

it('kill -9 of the worker at 40%: another worker finishes the import with exactly 10,000 records', async () => {
  const a = await createTenant(t);
  const up = await uploadImport(t, a, csvOf(CUSTOMER_COLUMNS, Array.from({ length: N }, (_, i) => customerRow(i))), { resource: 'customers' });
  expect(up.status).toBe(202);
  const uuid = up.body.data.uuid as string;
  const first = startWorker();
  let second: ReturnType<typeof startWorker> | undefined;
  try {
    await until(async () => (await one<{ n: number }>(`select rows_done as n from imports where uuid = ?`, [uuid])).n >= 0.4 * N, 'the import at 40%', 180_000);
    first.proc.kill('SIGKILL');
    await first.exited;
    const killedAt = await one<{ rows_done: number; created: number; status: string }>(`select rows_done, created, status from imports where uuid = ?`, [uuid]);
    expect(killedAt.status).toBe('running');
    expect(killedAt.rows_done).toBeLessThan(N);
    // The committed batches and the import's progress agree: nothing half-written.
    expect(Number((await one<{ n: string }>(`select count(*) as n from customers where company_uuid = ?`, [a.companyUuid])).n)).toBe(killedAt.created);
    // Its heartbeat goes stale (a second), then a second worker takes the import over at start.
    await until(async () => (await one<{ stale: boolean }>(`select heartbeat_at < now() - interval '1.5 seconds' as stale from imports where uuid = ?`, [uuid])).stale, 'a stale heartbeat');
    second = startWorker();
    const done = await finished(t, a, uuid, 300_000);
    expect(done).toMatchObject({ status: 'succeeded', rows_done: N, created: N, failed: 0 });
  } finally {
    first.proc.kill('SIGKILL');
    second?.proc.kill('SIGTERM');
    await second?.exited;
  }
  const counts = await one<{ n: string; d: string }>(`select count(*) as n, count(distinct email) as d from customers where company_uuid = ?`, [a.companyUuid]);
  expect(counts).toEqual({ n: String(N), d: String(N) });
  expect((await rest(t, a).get('/customers?limit=1')).body.data.pagination.total).toBe(N);
  const events = await one<{ n: string }>(`select count(*) as n from events where company_uuid = ? and type = 'customer.created'`, [a.companyUuid]);
  expect(events.n).toBe(String(N));
}, 600_000);
