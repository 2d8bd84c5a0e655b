import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTenant, gql, rest, Tenant, useDbClient, useTestApp } from '../../helpers/app';
import { makeJob } from '../../helpers/visits';
import { companyTodayIn } from '../../../src/modules/company/company.rules';
import { addDays } from '../../../src/modules/schedule/schedule.rrule';
import { issueDue, lastDueDate } from '../../../src/modules/recurring/recurring.generate';

// Service agreements (docs/recurring-work.md): CRUD on both surfaces, one invoice per occurrence
// through the invoice create, catch-up of missed dates (at most 12), pause without catch-up,
// ended after COUNT, auto_send, events, tenancy.

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fsc-recurring-'));
const t = useTestApp({ DATA_DIR: dataDir });
const db = useDbClient();
const NY = 'America/New_York';

async function agreement(a: Tenant, extra: object = {}) {
  const c = (await rest(t, a).post('/customers', { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' })).body.data;
  const j = (await rest(t, a).post('/jobs', { customer_uuid: c.uuid, title: 'Maintenance plan' })).body.data;
  const res = await rest(t, a).post('/recurring_invoices', {
    customer_uuid: c.uuid,
    job_uuid: j.uuid,
    rrule: 'FREQ=MONTHLY;BYMONTHDAY=15',
    starts_on: '2031-01-01',
    line_items: [{ description: 'Monthly service', quantity: 1, unit_price: 49.5, tax_rate: 10 }],
    due_days: 14,
    ...extra,
  });
  expect(res.body.error).toBeUndefined();
  expect(res.status).toBe(200);
  return res.body.data;
}

const invoicesOf = async (a: Tenant, r: { uuid: string }) =>
  (await db.query(`select invoice_number, issue_date::text, due_date::text, total_amount::text from invoices where recurring_invoice_uuid = $1 and company_uuid = $2 order by issue_date`, [r.uuid, a.companyUuid])).rows;

describe('recurring invoices', () => {
  it('creates, reads, lists, updates, pauses, resumes, deletes and restores an agreement (REST)', async () => {
    const a = await createTenant(t);
    const r = await agreement(a);
    expect(r).toMatchObject({ rrule: 'FREQ=MONTHLY;BYMONTHDAY=15', starts_on: '2031-01-01', timezone: NY, due_days: 14, auto_send: false, status: 'active', next_issue_date: '2031-01-15', last_issued_at: null, invoices_count: 0, discount_amount: 0 });
    expect(r.line_items).toEqual([{ description: 'Monthly service', quantity: 1, unit_price: 49.5, tax_rate: 10 }]);
    expect((await rest(t, a).get(`/recurring_invoices/${r.uuid}`)).body.data.uuid).toBe(r.uuid);
    expect((await rest(t, a).get('/recurring_invoices')).body.data.recurring_invoices.map((x: { uuid: string }) => x.uuid)).toEqual([r.uuid]);
    const upd = await rest(t, a).put(`/recurring_invoices/${r.uuid}`, { rrule: 'FREQ=MONTHLY;BYMONTHDAY=-1', notes: 'Thanks' });
    expect(upd.body.data).toMatchObject({ rrule: 'FREQ=MONTHLY;BYMONTHDAY=-1', next_issue_date: '2031-01-31', notes: 'Thanks' });
    expect((await rest(t, a).post(`/recurring_invoices/${r.uuid}/pause`)).body.data.status).toBe('paused');
    expect((await rest(t, a).post(`/recurring_invoices/${r.uuid}/resume`)).body.data).toMatchObject({ status: 'active', next_issue_date: '2031-01-31' });
    expect((await rest(t, a).delete(`/recurring_invoices/${r.uuid}`)).status).toBe(200);
    expect((await rest(t, a).get(`/recurring_invoices/${r.uuid}`)).status).toBe(404);
    expect((await rest(t, a).post(`/recurring_invoices/${r.uuid}/restore`)).body.data.uuid).toBe(r.uuid);
    const bad = await rest(t, a).post('/recurring_invoices', { customer_uuid: r.customer_uuid, job_uuid: r.job_uuid, rrule: 'FREQ=SECONDLY', starts_on: '2031-01-01' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe('rrule');
    const preview = await rest(t, a).post('/recurring_invoices/preview', { customer_uuid: r.customer_uuid, job_uuid: r.job_uuid, rrule: 'FREQ=MONTHLY;BYDAY=2TU', starts_on: '2031-01-01', line_items: [{ unit_price: 100, tax_rate: 5 }], due_days: 10, limit: 2 });
    expect(preview.body.data.invoices).toEqual([
      { issue_date: '2031-01-14', due_date: '2031-01-24', total_amount: 105 },
      { issue_date: '2031-02-11', due_date: '2031-02-21', total_amount: 105 },
    ]);
    const { rows } = await db.query(`select type from events where resource = 'recurring_invoice' and company_uuid = $1 order by id`, [a.companyUuid]);
    expect(rows.map((x) => x.type)).toEqual(['recurring_invoice.created', 'recurring_invoice.updated', 'recurring_invoice.updated', 'recurring_invoice.updated', 'recurring_invoice.deleted', 'recurring_invoice.restored']);
  });

  it('a run invoicing agreements in parallel gives what the one-at-a-time run gives: each occurrence once, numbers gapless', async () => {
    const shapes = async (a: Tenant) =>
      (await db.query(`select i.invoice_number, i.issue_date::text, i.due_date::text, i.total_amount::text, r.starts_on::text from invoices i join recurring_invoices r on r.uuid = i.recurring_invoice_uuid where i.company_uuid = $1 order by i.invoice_number`, [a.companyUuid])).rows;
    const make = async (a: Tenant) => {
      for (let i = 0; i < 8; i++) await agreement(a, { starts_on: '2035-01-01', rrule: `FREQ=MONTHLY;BYMONTHDAY=${i + 1}` });
    };
    const parallel = await createTenant(t);
    await make(parallel);
    // Two runs at once, four loops each (as two processes would), over three missed months.
    await Promise.all([issueDue(t.orm, new Date('2035-03-20T12:00:00Z'), 4), issueDue(t.orm, new Date('2035-03-20T12:00:00Z'), 4)]);
    const plain = await createTenant(t, { name: 'Plain' });
    await make(plain);
    await issueDue(t.orm, new Date('2035-03-20T12:00:00Z'), 1);
    const [p, q] = [await shapes(parallel), await shapes(plain)];
    expect(p).toHaveLength(24);
    const key = (r: { issue_date: string; due_date: string; total_amount: string }) => `${r.issue_date} ${r.due_date} ${r.total_amount}`;
    expect(p.map(key).sort()).toEqual(q.map(key).sort());
    expect(new Set(p.map(key)).size).toBe(24);
    expect(p.map((r) => r.invoice_number)).toEqual(q.map((r) => r.invoice_number));
  });

  it('invoices each occurrence once, dated its occurrence, and catches up the three missed while the server was down', async () => {
    const a = await createTenant(t);
    const r = await agreement(a);
    expect(await issueDue(t.orm, new Date('2031-01-15T10:59:00Z'))).toBe(0); // 05:59 in New York
    expect(await issueDue(t.orm, new Date('2031-01-15T11:00:00Z'))).toBe(1);
    expect(await issueDue(t.orm, new Date('2031-01-20T12:00:00Z'))).toBe(0);
    // Down from January to late April: February, March and April, each once, numbered in order.
    expect(await issueDue(t.orm, new Date('2031-04-20T12:00:00Z'))).toBe(3);
    expect(await issueDue(t.orm, new Date('2031-04-20T12:00:00Z'))).toBe(0);
    expect(await invoicesOf(a, r)).toEqual([
      { invoice_number: 'INV-0001', issue_date: '2031-01-15', due_date: '2031-01-29', total_amount: '54.45' },
      { invoice_number: 'INV-0002', issue_date: '2031-02-15', due_date: '2031-03-01', total_amount: '54.45' },
      { invoice_number: 'INV-0003', issue_date: '2031-03-15', due_date: '2031-03-29', total_amount: '54.45' },
      { invoice_number: 'INV-0004', issue_date: '2031-04-15', due_date: '2031-04-29', total_amount: '54.45' },
    ]);
    const after = (await rest(t, a).get(`/recurring_invoices/${r.uuid}`)).body.data;
    expect(after).toMatchObject({ next_issue_date: '2031-05-15', invoices_count: 4, status: 'active' });
    expect(after.last_issued_at).not.toBeNull();
    // The invoices are the system's: invoice.created with recurring_invoice_uuid, actor system.
    const ev = await rest(t, a).get('/events?types=invoice.created');
    expect(ev.body.data.events).toHaveLength(4);
    expect(ev.body.data.events.every((e: { actor: { type: string }; data: { object: { recurring_invoice_uuid: string } } }) => e.actor.type === 'system' && e.data.object.recurring_invoice_uuid === r.uuid)).toBe(true);
    const g = await gql(t, a, `query($u: UUID!) { recurringInvoice(uuid: $u) { invoicesCount invoices { issueDate recurringInvoiceUuid } } }`, { u: r.uuid });
    expect(g.data.recurringInvoice.invoicesCount).toBe(4);
    expect(g.data.recurringInvoice.invoices.map((i: { issueDate: string }) => i.issueDate)).toEqual(['2031-04-15', '2031-03-15', '2031-02-15', '2031-01-15']);
  });

  it('catches up at most the 12 most recent missed occurrences, and ends after COUNT', async () => {
    const a = await createTenant(t);
    const daily = await agreement(a, { rrule: 'FREQ=DAILY' });
    expect(await issueDue(t.orm, new Date('2031-02-01T12:00:00Z'))).toBe(12);
    expect((await invoicesOf(a, daily)).map((i) => i.issue_date)).toEqual(Array.from({ length: 12 }, (_, i) => addDays('2031-01-21', i)));
    const b = await createTenant(t, { name: 'Other' });
    const twice = await agreement(b, { rrule: 'FREQ=MONTHLY;BYMONTHDAY=15;COUNT=2' });
    expect(await issueDue(t.orm, new Date('2031-06-01T12:00:00Z'))).toBeGreaterThanOrEqual(2);
    expect((await invoicesOf(b, twice)).map((i) => i.issue_date)).toEqual(['2031-01-15', '2031-02-15']);
    expect((await rest(t, b).get(`/recurring_invoices/${twice.uuid}`)).body.data).toMatchObject({ status: 'ended', next_issue_date: null, invoices_count: 2 });
    expect((await rest(t, b).post(`/recurring_invoices/${twice.uuid}/resume`)).status).toBe(400);
  });

  it('does not catch up the dates it was paused for', async () => {
    const a = await createTenant(t);
    const today = companyTodayIn(NY);
    const r = await agreement(a, { rrule: 'FREQ=DAILY', starts_on: addDays(today, -10) });
    await rest(t, a).post(`/recurring_invoices/${r.uuid}/pause`);
    expect(await issueDue(t.orm)).toBe(0);
    const resumed = await gql(t, a, `mutation($u: UUID!) { resumeRecurringInvoice(uuid: $u) { status nextIssueDate } }`, { u: r.uuid });
    expect(resumed.data.resumeRecurringInvoice).toEqual({ status: 'ACTIVE', nextIssueDate: today });
    const now = new Date();
    const expected = lastDueDate(NY, now) === today ? [today] : [];
    await issueDue(t.orm, now);
    expect((await invoicesOf(a, r)).map((i) => i.issue_date)).toEqual(expected);
  });

  it('starts again after the last invoiced date when its rule changes or it is restored, without catch-up', async () => {
    const a = await createTenant(t);
    const today = companyTodayIn(NY);
    const now = new Date();
    const r = await agreement(a, { rrule: 'FREQ=DAILY', starts_on: addDays(today, -3) });
    const first = await issueDue(t.orm, now);
    const last = lastDueDate(NY, now);
    expect(first).toBe(last === today ? 4 : 3);
    const changed = (await rest(t, a).put(`/recurring_invoices/${r.uuid}`, { rrule: 'FREQ=DAILY;INTERVAL=1' })).body.data;
    expect(changed.next_issue_date).toBe(addDays(last, 1) > today ? addDays(last, 1) : today);
    expect(await issueDue(t.orm, now)).toBe(0);
    await rest(t, a).delete(`/recurring_invoices/${r.uuid}`);
    const restored = (await rest(t, a).post(`/recurring_invoices/${r.uuid}/restore`)).body.data;
    expect(restored.next_issue_date).toBe(changed.next_issue_date);
    expect(await issueDue(t.orm, now)).toBe(0);
    expect((await rest(t, a).get(`/recurring_invoices/${r.uuid}`)).body.data.invoices_count).toBe(first);
  });

  it('mails each invoice of an auto_send agreement', async () => {
    const a = await createTenant(t);
    const r = await agreement(a, { auto_send: true });
    expect(await issueDue(t.orm, new Date('2031-02-20T12:00:00Z'))).toBe(2);
    const invoices = (await rest(t, a).get(`/invoices?limit=10`)).body.data.invoices;
    expect(invoices).toHaveLength(2);
    for (const inv of invoices) {
      const emails = (await rest(t, a).get(`/invoices/${inv.uuid}/emails`)).body.data.emails;
      expect(emails).toEqual([expect.objectContaining({ to: 'ada@example.com', status: 'sent' })]);
    }
  });

  it("keeps another company's agreements out of reach, on both surfaces", async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'Other' });
    const r = await agreement(a);
    expect((await rest(t, b).get(`/recurring_invoices/${r.uuid}`)).status).toBe(404);
    expect((await rest(t, b).put(`/recurring_invoices/${r.uuid}`, { notes: 'x' })).status).toBe(404);
    expect((await rest(t, b).post(`/recurring_invoices/${r.uuid}/pause`)).status).toBe(404);
    expect((await rest(t, b).get('/recurring_invoices')).body.data.recurring_invoices).toEqual([]);
    const ref = await rest(t, b).post('/recurring_invoices', { customer_uuid: r.customer_uuid, job_uuid: r.job_uuid, rrule: 'FREQ=DAILY', starts_on: '2031-01-01' });
    expect(ref.status).toBe(400);
    const g = await gql(t, b, `query($u: UUID!) { recurringInvoice(uuid: $u) { uuid } }`, { u: r.uuid });
    expect(g.errors?.[0].extensions.code).toBe('NOT_FOUND');
  });
});
