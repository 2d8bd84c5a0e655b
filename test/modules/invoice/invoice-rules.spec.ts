import { useTestApp, createTenant, rest, useDbClient } from '../../helpers/app';
import { makeJob } from '../../helpers/billing';
import { billedJobChange, billsJob, isOverdue, overdueSql } from '../../../src/modules/invoice/invoice.rules';
import { JobStatus } from '../../../src/modules/job/job.rules';

// Each invoice rule in its two forms (src/modules/invoice/invoice.rules.ts) over the same fixtures:
// the SQL form run in PostgreSQL.

const t = useTestApp();
const db = useDbClient();

describe('overdue', () => {
  const today = '2026-03-08';
  const fixtures = ['Draft', 'Pending', 'Paid'].flatMap((status) =>
    ['-5.00', '0.00', '0.01', '120.50'].flatMap((balance) => ['2026-02-28', '2026-03-07', '2026-03-08', '2026-03-09'].map((due) => ({ status, balance, due }))),
  );

  it('the TS form and the SQL form judge every fixture alike (and the SQL form is never null)', async () => {
    const { rows } = await db.query(
      `select e.i, ${overdueSql('e', '$2::date')} as overdue from json_to_recordset($1::json) as e(i int, status text, balance_amount numeric(12,2), due_date date) order by e.i`,
      [JSON.stringify(fixtures.map((f, i) => ({ i, status: f.status, balance_amount: f.balance, due_date: f.due }))), today],
    );
    expect(rows).toHaveLength(fixtures.length);
    const sql = rows.map((r) => r.overdue);
    const ts = fixtures.map((f) => isOverdue(f.status, Number(f.balance), f.due, today));
    expect(sql).toEqual(ts);
    expect(ts.filter(Boolean).length).toBe(4); // Pending, a positive balance, due before today
  });

  it("an unknown today is not overdue in TS; the SQL form's default today is the company's", () => {
    expect(isOverdue('Pending', 10, '2000-01-01', undefined)).toBe(false);
    expect(overdueSql('e')).toContain('e.company_uuid');
  });

  it('reads and the status filter agree: each invoice is listed under the status it reads as', async () => {
    const tenant = await createTenant(t);
    const api = rest(t, tenant);
    const job = await makeJob(t, tenant);
    const make = (o: object) => api.post('/invoices', { job_uuid: job.uuid, customer_uuid: job.customer_uuid, line_items: [{ quantity: 1, unit_price: 50 }], ...o });
    for (const o of [{ issue_date: '2020-01-01', due_date: '2020-01-31' }, { due_date: '2099-01-01' }, { status: 'Draft', issue_date: '2020-01-01', due_date: '2020-01-31' }]) {
      expect((await make(o)).status).toBe(200);
    }
    const all = (await api.get('/invoices')).body.data.invoices as Array<{ uuid: string; status: string }>;
    expect(all.map((i) => i.status).sort()).toEqual(['Draft', 'Overdue', 'Pending']);
    for (const status of ['Overdue', 'Pending', 'Draft']) {
      const listed = (await api.get(`/invoices?status=${status.toLowerCase()}`)).body.data.invoices as Array<{ uuid: string }>;
      expect(listed.map((i) => i.uuid)).toEqual(all.filter((i) => i.status === status).map((i) => i.uuid));
    }
  });
});

describe('a billed job becomes Invoiced', () => {
  it('billsJob: a new invoice, a draft sent or a move to another job bills the job; a draft never does', () => {
    const a = 'a', b = 'b';
    expect(billsJob(null, { jobUuid: a, draft: false })).toBe(true);
    expect(billsJob(null, { jobUuid: a, draft: true })).toBe(false);
    expect(billsJob(null, { jobUuid: null, draft: false })).toBe(false);
    expect(billsJob({ jobUuid: a, draft: true }, { jobUuid: a, draft: false })).toBe(true);
    expect(billsJob({ jobUuid: a, draft: false }, { jobUuid: a, draft: false })).toBe(false);
    expect(billsJob({ jobUuid: a, draft: false }, { jobUuid: b, draft: false })).toBe(true);
    expect(billsJob({ jobUuid: a, draft: false }, { jobUuid: b, draft: true })).toBe(false);
  });

  it("billedJobChange: 'Invoiced' with invoiced_at set once; a Complete job stays as it is", () => {
    const now = new Date('2026-03-08T12:00:00Z');
    const earlier = new Date('2026-01-01T00:00:00Z');
    const job = { status: JobStatus.NEW, startedAt: null, completedAt: null, invoicedAt: null };
    expect(billedJobChange(job, now)).toEqual({ status: JobStatus.INVOICED, invoicedAt: now });
    expect(billedJobChange({ ...job, status: JobStatus.COMPLETE }, now)).toEqual({});
    expect(billedJobChange({ ...job, status: JobStatus.SCHEDULED, invoicedAt: earlier }, now)).toEqual({ status: JobStatus.INVOICED });
    expect(billedJobChange({ ...job, status: JobStatus.INVOICED, invoicedAt: earlier }, now)).toEqual({});
  });

  it('create and update bill a job alike, from every starting status', async () => {
    const tenant = await createTenant(t);
    const api = rest(t, tenant);
    const body = (job: { uuid: string; customer_uuid: string }, o: object = {}) => ({ job_uuid: job.uuid, customer_uuid: job.customer_uuid, due_date: '2099-12-31', line_items: [{ quantity: 1, unit_price: 10 }], ...o });
    const shape = (j: { status: string; invoiced_at: string | null }) => ({ status: j.status, invoiced: j.invoiced_at !== null });
    for (const status of ['New', 'In Progress', 'Complete', 'Invoiced']) {
      const [created, sent, moved] = [await makeJob(t, tenant, { status }), await makeJob(t, tenant, { status }), await makeJob(t, tenant, { status })];
      // 1. created Pending; 2. created as a draft (nothing), then sent; 3. an invoice moved onto it.
      expect((await api.post('/invoices', body(created))).status).toBe(200);
      const draft = (await api.post('/invoices', body(sent, { status: 'Draft' }))).body.data;
      expect(shape((await api.get(`/jobs/${sent.uuid}`)).body.data)).toEqual(shape(sent));
      expect((await api.put(`/invoices/${draft.uuid}`, { status: 'Pending' })).status).toBe(200);
      const elsewhere = await makeJob(t, tenant, { customer_uuid: moved.customer_uuid });
      const other = (await api.post('/invoices', body(elsewhere))).body.data;
      expect((await api.put(`/invoices/${other.uuid}`, { job_uuid: moved.uuid })).status).toBe(200);
      const after = await Promise.all([created, sent, moved].map(async (j) => shape((await api.get(`/jobs/${j.uuid}`)).body.data)));
      const expected = status === 'Complete' ? { status: 'Complete', invoiced: false } : { status: 'Invoiced', invoiced: true };
      expect(after).toEqual([expected, expected, expected]);
    }
  });
});
