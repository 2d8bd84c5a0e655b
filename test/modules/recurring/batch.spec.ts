import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTenant, rest, Tenant, useDbClient, useTestApp } from '../../helpers/app';
import { issueDue } from '../../../src/modules/recurring/recurring.generate';

// Agreements issued in batches (several agreements of one company per transaction,
// docs/recurring-work.md) give what the plain path gives, one agreement per transaction: the same
// invoices record for record (numbers without gaps or duplicates, dates, amounts, lines), the same
// events, the same agreements and jobs after; a failing agreement in a batch fails alone; two runs
// racing write each occurrence once.

// Documents and mails (auto_send) are kept under DATA_DIR.
const t = useTestApp({ DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'fsc-recurring-batch-')) });
const db = useDbClient();
const NOW = new Date('2035-03-20T12:00:00Z');

/**
 * A company's agreements, each named by its notes (`A0`, `A1`, …) and due on a day of its own
 * (BYMONTHDAY = its index + 1, from 2035-01-01), so that both paths claim them in one order:
 * agreements sharing a job, one of a job that is Complete, one without lines (billing the job's
 * amount), a discount, two lines with tax, one that ends after COUNT=2, one with auto_send.
 */
async function company(name: string, count: number): Promise<{ a: Tenant; agreements: string[]; jobs: string[] }> {
  const a = await createTenant(t, { name });
  const c = (await rest(t, a).post('/customers', { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' })).body.data;
  const jobs: string[] = [];
  for (const [i, extra] of [{}, { status: 'Complete' }, { estimated_amount: 240 }, {}, {}].entries()) {
    const j = await rest(t, a).post('/jobs', { customer_uuid: c.uuid, title: `Plan ${i}`, ...extra });
    expect(j.status).toBe(200);
    jobs.push(j.body.data.uuid);
  }
  const agreements: string[] = [];
  for (let i = 0; i < count; i++) {
    const day = (i % 28) + 1;
    const kind = i % 7;
    const body: Record<string, unknown> = {
      customer_uuid: c.uuid,
      // Jobs 0 (three agreements of every seven), 1 (Complete), 2 (no lines) and the others.
      job_uuid: jobs[[0, 0, 1, 2, 0, 3, i < 7 ? 4 : 3][kind]],
      rrule: `FREQ=MONTHLY;BYMONTHDAY=${day}${kind === 4 ? ';COUNT=2' : ''}`,
      starts_on: '2035-01-01',
      notes: `A${i}`,
      terms: kind === 5 ? 'Net 10' : undefined,
      due_days: 10 + kind,
      discount_amount: kind === 1 ? 5 : undefined,
      auto_send: kind === 6,
      line_items:
        kind === 3 ? undefined : kind === 5 ? [{ description: 'Filters', quantity: 3, unit_price: 12.5, tax_rate: 8.25 }, { description: 'Labour', quantity: 1, unit_price: 80, tax_rate: 0 }] : [{ description: `Service ${i}`, quantity: 1, unit_price: 49.5 + i, tax_rate: 10 }],
    };
    const res = await rest(t, a).post('/recurring_invoices', body);
    expect(res.body.error).toBeUndefined();
    agreements.push(res.body.data.uuid);
  }
  return { a, agreements, jobs };
}

/** Keys that name rows or moments: the same record has others in another company or run. */
const VOLATILE = /(^|_)(uuid|id|at)$|^row_version$/;
const strip = (o: Record<string, unknown> | null): Record<string, unknown> | null =>
  o && Object.fromEntries(Object.entries(o).filter(([k]) => !VOLATILE.test(k)).map(([k, v]) => [k, v && typeof v === 'object' && !Array.isArray(v) ? strip(v as Record<string, unknown>) : v]));

/**
 * Everything issuing wrote for a company, with rows named as the fixture names them (agreements
 * by notes, jobs by title, invoices by their agreement and date): per agreement its state and its
 * invoices; the jobs; the mails; and every event with its row image.
 */
async function written(a: Tenant, o: { numbers: boolean }) {
  const q = async (sql: string) => (await db.query(sql, [a.companyUuid])).rows;
  const agreements = await q(
    `select notes, status, next_issue_date::text, invoices_count, last_issued_at is not null as issued from recurring_invoices where company_uuid = $1 order by notes`,
  );
  const invoices = await q(
    `select r.notes as agreement, j.title as job, i.invoice_number, i.issue_date::text, i.due_date::text, i.status, i.subtotal::text, i.tax_amount::text, i.discount_amount::text,
            i.total_amount::text, i.balance_amount::text, i.line_items, i.notes, i.terms
     from invoices i join recurring_invoices r on r.uuid = i.recurring_invoice_uuid join jobs j on j.uuid = i.job_uuid where i.company_uuid = $1 order by r.notes, i.issue_date`,
  );
  const jobs = await q(`select title, status, invoiced_at is not null as invoiced, completed_at is not null as completed from jobs where company_uuid = $1 order by title`);
  const mails = await q(
    `select r.notes as agreement, i.invoice_number, i.issue_date::text, m.to_address, m.status from document_emails m join invoices i on i.uuid = m.document_uuid
     join recurring_invoices r on r.uuid = i.recurring_invoice_uuid where m.company_uuid = $1 and m.document_kind = 'invoice' order by r.notes, i.issue_date`,
  );
  // Events named by their record: an invoice by agreement and date, a job by title, an agreement by notes.
  const events = (
    await q(
      `select e.type, e.resource, e.actor, e.row, e.previous, coalesce(ir.notes || ' ' || i.issue_date::text, j.title, r.notes) as record
       from events e left join invoices i on e.resource = 'invoice' and i.uuid = e.record_uuid left join recurring_invoices ir on ir.uuid = i.recurring_invoice_uuid
       left join jobs j on e.resource = 'job' and j.uuid = e.record_uuid left join recurring_invoices r on e.resource = 'recurring_invoice' and r.uuid = e.record_uuid
       where e.company_uuid = $1 and e.resource in ('invoice', 'job', 'recurring_invoice')`,
    )
  ).map((e) => ({ ...e, actor: strip(e.actor), row: strip(e.row), previous: strip(e.previous) }));
  const drop = (r: Record<string, unknown>) => (o.numbers ? r : { ...r, invoice_number: undefined, row: r.row && { ...(r.row as object), invoice_number: undefined } });
  const key = (x: unknown) => JSON.stringify(x);
  return {
    agreements,
    invoices: invoices.map(drop),
    jobs,
    mails: mails.map(drop),
    // Within a transaction the order of rows differs between the paths (a batch writes every job's
    // and invoice's rows before the agreements'); the rows themselves do not.
    events: events.map(drop).sort((x, y) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0)),
  };
}

const numbers = async (a: Tenant) => (await db.query(`select invoice_number from invoices where company_uuid = $1 order by invoice_number`, [a.companyUuid])).rows.map((r) => r.invoice_number);
const gapless = (n: number) => Array.from({ length: n }, (_, i) => `INV-${String(i + 1).padStart(4, '0')}`);

describe('recurring invoices issued in batches', () => {
  it('give, record for record, what one agreement per transaction gives: numbers, amounts, lines, events, agreements, jobs, mails', async () => {
    const plain = await company('Plain', 14);
    expect(await issueDue(t.orm, NOW, 1, 1)).toBe(40);
    const batched = await company('Batched', 14);
    // Batches of four: agreements sharing a job within a batch and across batches.
    expect(await issueDue(t.orm, NOW, 1, 4)).toBe(40);
    const [p, b] = [await written(plain.a, { numbers: true }), await written(batched.a, { numbers: true })];
    expect(p.invoices).toHaveLength(40);
    expect(await numbers(batched.a)).toEqual(gapless(40));
    expect(b).toEqual(p);
    expect(p.events.filter((e) => e.type === 'invoice.created')).toHaveLength(40);
    expect(p.mails).toHaveLength(6);
    expect(p.agreements.find((r) => r.notes === 'A4')).toMatchObject({ status: 'ended', next_issue_date: null, invoices_count: 2 });
    // Nothing more is due, on either path.
    expect(await issueDue(t.orm, NOW, 1, 4)).toBe(0);
  });

  it('a failing agreement fails alone: the others of its batch are invoiced, as on the plain path', async () => {
    const setUp = async (name: string) => {
      const c = await company(name, 10);
      // A3 bills a job deleted since (its invoices cannot be built)...
      await db.query(`update jobs set deleted_at = now() where uuid = (select job_uuid from recurring_invoices where notes = 'A3' and company_uuid = $1)`, [c.a.companyUuid]);
      // ...and A6's January invoice exists already: writing it again breaks the unique (agreement, date).
      await db.query(
        `insert into invoices (uuid, company_uuid, invoice_number, customer_uuid, job_uuid, issue_date, due_date, recurring_invoice_uuid, created_at, updated_at)
         select gen_random_uuid(), company_uuid, 'X-1', customer_uuid, job_uuid, '2035-01-07', '2035-01-20', uuid, now(), now() from recurring_invoices where notes = 'A6' and company_uuid = $1`,
        [c.a.companyUuid],
      );
      return c;
    };
    const plain = await setUp('Plain');
    expect(await issueDue(t.orm, NOW, 1, 1)).toBe(23);
    const batched = await setUp('Batched');
    // Batches of four: A3 fails in the first, A6 in the second.
    expect(await issueDue(t.orm, NOW, 1, 4)).toBe(23);
    const [p, b] = [await written(plain.a, { numbers: true }), await written(batched.a, { numbers: true })];
    expect(b).toEqual(p);
    expect(await numbers(batched.a)).toEqual([...gapless(23), 'X-1']);
    // The two at fault are left as they were, for the next run.
    for (const notes of ['A3', 'A6']) expect(b.agreements.find((r) => r.notes === notes)).toMatchObject({ status: 'active', invoices_count: 0, issued: false });
  });

  it('two runs racing, four loops each, write each occurrence once: what the plain path writes, numbers aside, without gaps', async () => {
    const plain = await company('Plain', 40);
    const all = await issueDue(t.orm, NOW, 1, 1);
    const batched = await company('Batched', 40);
    const [x, y] = await Promise.all([issueDue(t.orm, NOW, 4, 4), issueDue(t.orm, NOW, 4, 4)]);
    expect(x + y).toBe(all);
    expect(await numbers(batched.a)).toEqual(gapless(all));
    expect(await written(batched.a, { numbers: false })).toEqual(await written(plain.a, { numbers: false }));
    const once = await db.query(`select count(*)::int as n, count(distinct (recurring_invoice_uuid, issue_date))::int as d from invoices where company_uuid = $1`, [batched.a.companyUuid]);
    expect(once.rows[0]).toEqual({ n: all, d: all });
  });
});
