import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { createTenant, rest, useTestApp } from '../../helpers/app';
import { MAIN_JS, ServerProcess, startServer } from '../../helpers/server-process';
import { until } from '../../helpers/webhook-receiver';
import { companyTodayIn } from '../../../src/modules/company/company.rules';
import { lastDueDate } from '../../../src/modules/recurring/recurring.generate';
import { addDays, occurrenceDates, parseRule } from '../../../src/modules/schedule/schedule.rrule';

// Exactly once under concurrency and crashes (docs/recurring-work.md): two `npm run worker`
// processes and a server generate at once, one worker is killed with SIGKILL mid-run, and every
// occurrence still has exactly one invoice and one visit, with invoice numbers without gaps.

const t = useTestApp();
const NY = 'America/New_York';
const AGREEMENTS = 150;

function startWorker(): { proc: ChildProcess; out: () => string; exited: Promise<unknown> } {
  const proc = spawn(process.execPath, [path.join(path.dirname(MAIN_JS), 'worker.js')], {
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'info', DATABASE_URL: t.url },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += String(d)));
  proc.stderr!.on('data', (d) => (out += String(d)));
  return { proc, out: () => out, exited: new Promise((resolve) => proc.on('exit', resolve)) };
}

const count = async (sql: string, params: unknown[] = []) => (await t.orm.em.getConnection().execute<{ n: number }[]>(sql, params))[0].n;

it('two workers and a server, one killed with SIGKILL mid-run: every occurrence exactly once, numbers without gaps', async () => {
  const a = await createTenant(t);
  const c = (await rest(t, a).post('/customers', { first_name: 'Ada', last_name: 'Lovelace' })).body.data;
  const job = (await rest(t, a).post('/jobs', { customer_uuid: c.uuid, title: 'Plan' })).body.data;
  const today = companyTodayIn(NY);
  const startsOn = `${addDays(today, -150).slice(0, 7)}-01`;
  const rule = 'FREQ=MONTHLY;BYMONTHDAY=1';
  // Agreements whose occurrences since startsOn are all due: 5 or 6 invoices each.
  await t.orm.em.getConnection().execute(
    `insert into recurring_invoices (uuid, company_uuid, customer_uuid, job_uuid, rrule, starts_on, timezone, line_items, status, next_issue_date, created_at, updated_at)
     select gen_random_uuid(), ?, ?, ?, ?, ?::date, ?, '[{"description":"Plan","quantity":1,"unitPrice":30,"taxRate":0}]'::jsonb, 'active', ?::date, now(), now()
     from generate_series(1, ?)`,
    [a.companyUuid, c.uuid, job.uuid, rule, startsOn, NY, startsOn, AGREEMENTS],
  );
  // Schedules whose visits are all to be written by the background task.
  const jobs: string[] = [];
  for (let i = 0; i < 3; i++) {
    const j = (await rest(t, a).post('/jobs', { customer_uuid: c.uuid, title: `Route ${i}` })).body.data;
    expect((await rest(t, a).put(`/jobs/${j.uuid}/schedule`, { rrule: 'FREQ=DAILY', starts_on: today, all_day: true, horizon_days: 120 })).status).toBe(200);
    jobs.push(j.uuid);
  }
  await t.orm.em.getConnection().execute(`delete from visits where schedule_uuid is not null`);
  await t.orm.em.getConnection().execute(`update job_schedules set generated_through = null`);

  const perAgreement = occurrenceDates(parseRule(rule, startsOn), startsOn, lastDueDate(NY, new Date())).slice(-12);
  const expected = AGREEMENTS * perAgreement.length;
  const workers = [startWorker(), startWorker()];
  let server: ServerProcess | undefined;
  try {
    server = await startServer({ DATABASE_URL: t.url, TASK_WORKER: 'on' });
    // Mid-run: some invoices written, far from all.
    await until(async () => (await count(`select count(*)::int as n from invoices`)) > 0, 'the first invoices', 120_000);
    workers[0].proc.kill('SIGKILL');
    await workers[0].exited;
    const written = await count(`select count(*)::int as n from invoices`);
    expect(written).toBeLessThan(expected);
    await until(async () => (await count(`select count(*)::int as n from recurring_invoices where next_issue_date <= ?::date`, [perAgreement[perAgreement.length - 1]])) === 0, 'every agreement invoiced', 240_000);
    await until(async () => (await count(`select count(*)::int as n from job_schedules where generated_through is distinct from ?::date`, [addDays(today, 119)])) === 0, 'every schedule extended', 240_000);
  } finally {
    for (const w of workers) w.proc.kill('SIGKILL');
    server?.kill('SIGKILL');
    await Promise.all([...workers.map((w) => w.exited), server?.exited]);
  }
  const conn = t.orm.em.getConnection();
  const rows = await conn.execute<{ recurring_invoice_uuid: string; dates: string[] }[]>(
    `select recurring_invoice_uuid, array_agg(issue_date::text order by issue_date) as dates from invoices group by recurring_invoice_uuid`,
  );
  expect(rows).toHaveLength(AGREEMENTS);
  expect(rows.every((r) => JSON.stringify(r.dates) === JSON.stringify(perAgreement))).toBe(true);
  const numbers = (await conn.execute<{ invoice_number: string }[]>(`select invoice_number from invoices order by invoice_number`)).map((r) => r.invoice_number);
  expect(numbers).toEqual(Array.from({ length: expected }, (_, i) => `INV-${String(i + 1).padStart(4, '0')}`));
  const counts = await conn.execute<{ invoices_count: number; n: number }[]>(`select invoices_count, count(*)::int as n from recurring_invoices group by invoices_count`);
  expect(counts).toEqual([{ invoices_count: perAgreement.length, n: AGREEMENTS }]);
  for (const j of jobs) {
    const v = await conn.execute<{ n: number; d: number }[]>(`select count(*)::int as n, count(distinct occurrence_date)::int as d from visits where job_uuid = ?`, [j]);
    expect(v[0]).toEqual({ n: 120, d: 120 });
  }
}, 600_000);
