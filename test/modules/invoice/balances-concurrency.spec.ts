import { Client } from 'pg';
import request from 'supertest';
import type { Express } from 'express';
import { createApp } from '../../../src/app';
import { loadConfig } from '../../../src/config/index';
import { initOrm, Orm } from '../../../src/db/orm';
import { createTenant, rest, Tenant, useTestApp } from '../../helpers/app';
import { makeCustomer, makeInvoice, makeJob } from '../../helpers/billing';

// 50 concurrent payments on one invoice, sent through several app instances, each with its own
// ORM and connection pool on this worker's database: real separate connections, real contention.
const t = useTestApp();
const APPS = 5;
const POOL = 10;
let apps: Array<{ app: Express; orm: Orm; close: () => Promise<void> }> = [];
let probe: Client;

beforeAll(async () => {
  for (let i = 0; i < APPS; i++) {
    const orm = await initOrm(t.url, POOL);
    const built = await createApp({ orm, config: loadConfig({ ...process.env, DATABASE_URL: t.url }) });
    apps.push({ app: built.app, orm, close: built.close });
  }
  probe = new Client({ connectionString: t.url });
  await probe.connect();
});

afterAll(async () => {
  await probe?.end();
  for (const a of apps) {
    await a.close();
    await a.orm.close(true);
  }
  apps = [];
});

/** Row locks a `burst` can hold: an invoice's row, or a company's invoice numbering row. */
const invoiceRow = (uuid: string) => ({ sql: 'select 1 from invoices where uuid = $1 for update', params: [uuid] });
const invoiceNumberingRow = (companyUuid: string) => ({
  sql: `select 1 from numbering_settings where company_uuid = $1 and kind = 'invoice' for update`,
  params: [companyUuid],
});

/**
 * Runs the requests at once across the apps. With `hold`, a separate connection first locks that
 * row and lets go only once several requests are queued behind it: real contention, observed
 * rather than hoped for (no timing involved).
 */
async function burst<T>(fns: Array<(app: Express) => Promise<T>>, hold?: { sql: string; params: unknown[] }): Promise<{ results: T[]; queued: number }> {
  let queued = 0;
  const holder = hold ? new Client({ connectionString: t.url }) : null;
  if (holder) {
    await holder.connect();
    await holder.query('begin');
    const { rowCount } = await holder.query(hold!.sql, hold!.params);
    if (rowCount !== 1) throw new Error('nothing to hold');
  }
  const running = Promise.all(fns.map((fn, i) => fn(apps[i % apps.length].app)));
  if (holder) {
    while (queued < 5) {
      const { rows } = await probe.query(
        `select count(*)::int as waits from pg_stat_activity
         where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`,
      );
      queued = rows[0].waits;
      if (queued < 5) await new Promise((r) => setTimeout(r, 10));
    }
    await holder.query('commit');
    await holder.end();
  }
  return { results: await running, queued };
}

const payVia = (tenant: Tenant, invoiceUuid: string, amount: number) => (app: Express) =>
  request(app)
    .post('/api/v1/payments')
    .set('Authorization', `Bearer ${tenant.key}`)
    .send({ invoice_uuid: invoiceUuid, payment_type: 'credit_card', amount, payment_date: '2026-11-21' });

const createVia = (tenant: Tenant, job: { uuid: string; customer_uuid: string }, extra: object = {}) => (app: Express) =>
  request(app)
    .post('/api/v1/invoices')
    .set('Authorization', `Bearer ${tenant.key}`)
    .send({ job_uuid: job.uuid, customer_uuid: job.customer_uuid, due_date: '2099-12-31', line_items: [{ unit_price: 40 }], ...extra });

async function jobRow(jobUuid: string) {
  const { rows } = await probe.query(`select status, invoiced_at, paid_at from jobs where uuid = $1`, [jobUuid]);
  return rows[0] as { status: string; invoiced_at: Date | null; paid_at: Date | null };
}

async function ledger(invoiceUuid: string) {
  const { rows } = await probe.query(
    `select i.total_amount, i.paid_amount, i.balance_amount, i.status,
            (select coalesce(sum(amount), 0) from payments p where p.invoice_uuid = i.uuid and p.status = 'Completed' and p.deleted_at is null) as completed_sum
     from invoices i where i.uuid = $1`,
    [invoiceUuid],
  );
  return rows[0] as { total_amount: string; paid_amount: string; balance_amount: string; status: string; completed_sum: string };
}

describe('balances under concurrency', () => {
  it('50 concurrent payments that together overpay: the invoice never passes its total', async () => {
    const a = await createTenant(t);
    const inv = await makeInvoice(t, a); // total 100.00
    const { results, queued } = await burst(Array.from({ length: 50 }, () => payVia(a, inv.uuid, 3)), invoiceRow(inv.uuid));
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 400);
    expect(ok).toHaveLength(33);
    expect(refused).toHaveLength(17);
    for (const r of refused) expect(r.body.error.message).toMatch(/amount exceeds invoice balance/);
    const l = await ledger(inv.uuid);
    expect(l).toMatchObject({ total_amount: '100.00', paid_amount: '99.00', balance_amount: '1.00', completed_sum: '99.00', status: 'Pending' });
    // Proof of real concurrency: at least five payment transactions were queued on the row lock.
    expect(queued).toBeGreaterThanOrEqual(5);
    expect(new Set(ok.map((r) => r.body.data.payment_number)).size).toBe(33);
  });

  it('50 concurrent payments that exactly settle the invoice: Paid, and the job gets paid_at', async () => {
    const a = await createTenant(t);
    const inv = await makeInvoice(t, a);
    const { results } = await burst(Array.from({ length: 50 }, () => payVia(a, inv.uuid, 2)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(await ledger(inv.uuid)).toMatchObject({ paid_amount: '100.00', balance_amount: '0.00', completed_sum: '100.00', status: 'Paid' });
    expect((await rest(t, a).get(`/jobs/${inv.job_uuid}`)).body.data.paid_at).not.toBeNull();
  });

  it('creates, refunds, deletes and amount changes racing: paid_amount always equals the Completed sum', async () => {
    const a = await createTenant(t);
    const inv = await makeInvoice(t, a, { line_items: [{ unit_price: 500 }] });
    const seeded: string[] = [];
    for (let i = 0; i < 20; i++) seeded.push((await rest(t, a).post('/payments', { invoice_uuid: inv.uuid, payment_type: 'cash', amount: 10, payment_date: '2026-11-21' })).body.data.uuid);
    const auth = (r: request.Test) => r.set('Authorization', `Bearer ${a.key}`);
    const ops: Array<(app: Express) => Promise<request.Response>> = [];
    for (let i = 0; i < 20; i++) ops.push(payVia(a, inv.uuid, 17));
    seeded.slice(0, 7).forEach((uuid) => ops.push((app) => auth(request(app).put(`/api/v1/payments/${uuid}`)).send({ status: 'Refunded' })));
    seeded.slice(7, 13).forEach((uuid) => ops.push((app) => auth(request(app).delete(`/api/v1/payments/${uuid}`))));
    seeded.slice(13, 20).forEach((uuid) => ops.push((app) => auth(request(app).put(`/api/v1/payments/${uuid}`)).send({ amount: 25 })));
    const { results } = await burst(ops);
    expect(results.filter((r) => r.status >= 500)).toEqual([]);
    const l = await ledger(inv.uuid);
    expect(l.paid_amount).toBe(l.completed_sum);
    expect(Number(l.paid_amount)).toBeLessThanOrEqual(500);
    expect(Number(l.balance_amount)).toBe(Number(l.total_amount) - Number(l.paid_amount));
  });
});

describe('invoice creates under concurrency', () => {
  it('creates in one company with an override pending: the override given once, the counter without gaps', async () => {
    const a = await createTenant(t);
    for (let i = 0; i < 3; i++) await makeInvoice(t, a); // INV-0001 … INV-0003
    const jobs = [];
    for (let i = 0; i < 30; i++) jobs.push(await makeJob(t, a));
    expect((await rest(t, a).put('/numbering', { invoice: { override_number: 10 } })).status).toBe(200);
    // A create that fails (another company's customer) uses no number.
    const stranger = await makeCustomer(t, await createTenant(t));
    const fns = jobs.map((job) => createVia(a, job));
    fns.splice(15, 0, createVia(a, { uuid: jobs[0].uuid, customer_uuid: stranger.uuid }));
    const { results, queued } = await burst(fns, invoiceNumberingRow(a.companyUuid));
    expect(queued).toBeGreaterThanOrEqual(5);
    expect(results.map((r) => r.status).sort()).toEqual([...Array(30).fill(200), 400]);
    // 4 … 33: the override (10) once, the counter's numbers around it.
    const numbers = results.filter((r) => r.status === 200).map((r) => r.body.data.invoice_number).sort();
    expect(numbers).toEqual(Array.from({ length: 30 }, (_, i) => `INV-${String(i + 4).padStart(4, '0')}`));
    expect((await rest(t, a).get('/numbering')).body.data.invoice).toMatchObject({ next_number: 34, next_number_formatted: 'INV-0034', has_override: false });
    for (const job of jobs) expect((await jobRow(job.uuid)).status).toBe('Invoiced');
  });

  it('creates on one job at once: all succeed, the job Invoiced once', async () => {
    const a = await createTenant(t);
    const job = await makeJob(t, a);
    const { results } = await burst(Array.from({ length: 12 }, () => createVia(a, job)));
    expect(results.map((r) => r.status)).toEqual(Array(12).fill(200));
    expect(new Set(results.map((r) => r.body.data.invoice_number)).size).toBe(12);
    const row = await jobRow(job.uuid);
    expect(row.status).toBe('Invoiced');
    expect(results.every((r) => r.body.data.job.status === 'Invoiced')).toBe(true);
    expect(row.invoiced_at).not.toBeNull();
  });

  it("a create racing the payment that settles the job's other invoice: the job ends without paid_at", async () => {
    const a = await createTenant(t);
    const firsts = [];
    for (let i = 0; i < 8; i++) firsts.push(await makeInvoice(t, a)); // $100 each, one job each
    const fns = firsts.flatMap((inv) => [payVia(a, inv.uuid, 100), createVia(a, { uuid: inv.job_uuid, customer_uuid: inv.customer_uuid })]);
    const { results } = await burst(fns);
    expect(results.map((r) => r.status)).toEqual(Array(16).fill(200));
    // Whichever went first, the job has a Pending invoice: no paid_at.
    for (const inv of firsts) expect((await jobRow(inv.job_uuid)).paid_at).toBeNull();
  });
});
