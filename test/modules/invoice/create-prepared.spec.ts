import { Client } from 'pg';
import request from 'supertest';
import { usePreparedStatements } from '../../../src/data/prepared';
import { createTenant, gql, rest, Tenant, useTestApp } from '../../helpers/app';
import { makeCustomer, makeJob } from '../../helpers/billing';

// An invoice create's two statements (loadParties and writeNew, src/modules/invoice/invoice.write.ts)
// run as prepared statements (src/data/prepared.ts), named statements of the protocol; with
// DB_PREPARED_STATEMENTS=false, as statements kept by SQL's PREPARE and run by EXECUTE: both must write the same
// invoice (lines, totals to the cent, number), the same job changes, the same events with their
// actor, and answer the same on both surfaces, with an Idempotency-Key too.
const t = useTestApp();

async function plainly<T>(fn: () => Promise<T>): Promise<T> {
  usePreparedStatements(false);
  try {
    return await fn();
  } finally {
    usePreparedStatements(true);
  }
}

// What differs between two records by nature: their own ids, numbers and instants (kept as "set" or null).
const OWN = new Set(['uuid', 'job_uuid', 'jobUuid', 'job_number', 'invoice_number', 'invoiceNumber', 'created_at', 'createdAt', 'updated_at', 'updatedAt', 'invoiced_at', 'invoicedAt', 'request_id', 'record_uuid']);
const norm = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(norm)
    : v && typeof v === 'object' && !(v instanceof Date)
      ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, OWN.has(k) ? (x === null ? null : 'set') : norm(x)]))
      : v;

/** The invoice's row, its job's row and the events of both since `since` (an event id). */
async function stored(invoiceUuid: string, jobUuid: string, since: number) {
  const db = t.orm.em.fork().getConnection();
  const [invoice] = await db.execute(`select * from invoices where uuid = ?`, [invoiceUuid]);
  const [job] = await db.execute(`select * from jobs where uuid = ?`, [jobUuid]);
  const events = await db.execute(`select type, resource, company_uuid, actor, row, previous from events where record_uuid in (?, ?) and id > ? order by id`, [invoiceUuid, jobUuid, since]);
  return { invoice, job, events };
}

async function lastEvent(): Promise<number> {
  const [row] = await t.orm.em.fork().getConnection().execute(`select coalesce(max(id), 0)::int as id from events`);
  return row.id as number;
}

/**
 * During `fn`: the statements run (MikroORM's connection runs and logs every one, whatever the
 * path), those sent through MikroORM's execute (the plain path), and the simple queries pg sent.
 */
async function executed<T>(fn: () => Promise<T>): Promise<{ result: T; run: string[]; sql: string[]; simple: string[] }> {
  const connection = t.orm.em.getConnection() as any;
  const run = jest.spyOn(connection, 'executeQuery');
  const spy = jest.spyOn(connection, 'execute');
  const simple = jest.spyOn(Client.prototype, 'query');
  try {
    const result = await fn();
    return { result, run: run.mock.calls.map((c) => String(c[0])), sql: spy.mock.calls.map((c) => String(c[0])), simple: simple.mock.calls.map((c) => c[0]).filter((q): q is string => typeof q === 'string') };
  } finally {
    run.mockRestore();
    spy.mockRestore();
    simple.mockRestore();
  }
}
const isCreateStatement = (sql: string) => sql.includes('"j__uuid"') || sql.includes('numbering_assign');

const body = (job: { uuid: string; customer_uuid: string }, o: object = {}) => ({
  job_uuid: job.uuid,
  customer_uuid: job.customer_uuid,
  due_date: '2027-01-31',
  line_items: [
    { description: 'Labor', quantity: 2, unit_price: 85, tax_rate: 0 },
    { description: 'Parts', quantity: 1.5, unit_price: 42.55, tax_rate: 8.25 },
  ],
  discount_amount: 3.1,
  terms: 'Net 30',
  ...o,
});

async function restCreate(a: Tenant, b: object) {
  const since = await lastEvent();
  const res = await rest(t, a).post('/invoices', b);
  expect(res.status).toBe(200);
  const got = await rest(t, a).get(`/invoices/${res.body.data.uuid}`);
  // The answer is what a read of the record gives.
  expect(got.body.data).toEqual(res.body.data);
  return { answer: res.body.data, ...(await stored(res.body.data.uuid, res.body.data.job_uuid, since)) };
}

describe('invoice create, prepared by the protocol and by SQL (DB_PREPARED_STATEMENTS=false)', () => {
  it('writes and answers the same over REST: a job billed, a job already billed, a draft', async () => {
    const a = await createTenant(t);
    const customer = await makeCustomer(t, a);
    const [jobA, jobB] = [await makeJob(t, a, { customer_uuid: customer.uuid, estimated_amount: 250 }), await makeJob(t, a, { customer_uuid: customer.uuid, estimated_amount: 250 })];
    const cases: Array<[string, object, object]> = [
      ['the job becomes Invoiced', body(jobA), body(jobB)],
      ['the job is already Invoiced: nothing changes on it', body(jobA, { notes: 'second' }), body(jobB, { notes: 'second' })],
      ['a draft changes nothing on its job', body(jobA, { status: 'Draft' }), body(jobB, { status: 'Draft' })],
    ];
    const numbers: string[] = [];
    for (const [what, plainBody, preparedBody] of cases) {
      const plain = await executed(() => plainly(() => restCreate(a, plainBody)));
      const prepared = await executed(() => restCreate(a, preparedBody));
      // Both statements run either way, neither through MikroORM's execute: as named statements of
      // the protocol, or (DB_PREPARED_STATEMENTS=false) as EXECUTEs of statements kept by SQL's PREPARE.
      for (const r of [plain, prepared]) expect([what, r.run.filter(isCreateStatement).length, r.sql.filter(isCreateStatement)]).toEqual([what, 2, []]);
      expect(plain.simple.filter((q) => /(^|; )execute fsk_/.test(q)).length).toBeGreaterThanOrEqual(2);
      expect(prepared.simple.filter((q) => /execute fsk_|do \$fsc\$/.test(q))).toEqual([]);
      const [p, o] = [plain.result, prepared.result];
      expect(o.invoice).toBeDefined();
      expect([what, norm(o)]).toEqual([what, norm(p)]);
      expect(o.invoice.job_uuid).toBe(jobB.uuid);
      numbers.push(p.answer.invoice_number, o.answer.invoice_number);
      // The actor is the request's key, on every event of the create.
      for (const e of o.events) expect(e.actor).toEqual({ type: 'api_key', key_id: expect.any(String), user_id: a.userId, request_id: expect.any(String) });
    }
    // Totals to the cent: 2 × 85 + 1.5 × 42.55 (63.83, rounded half away from zero), tax 8.25% of 63.83.
    const first = (await rest(t, a).get(`/invoices?limit=1&sort=invoice_number`)).body.data.invoices[0];
    expect(first).toMatchObject({ subtotal: 233.83, tax_amount: 5.27, discount_amount: 3.1, total_amount: 236, balance_amount: 236 });
    expect(first.line_items.map((l: { line_total: number; tax_amount: number }) => [l.line_total, l.tax_amount])).toEqual([[170, 0], [63.83, 5.27]]);
    // One sequence, no number used twice or skipped.
    expect(numbers).toEqual(['INV-0001', 'INV-0002', 'INV-0003', 'INV-0004', 'INV-0005', 'INV-0006']);
    const jobs = await Promise.all([jobA, jobB].map(async (j) => (await rest(t, a).get(`/jobs/${j.uuid}`)).body.data));
    expect(norm(jobs[1])).toEqual(norm(jobs[0]));
    expect(jobs[1].status).toBe('Invoiced');
  });

  it('answers the same over GraphQL', async () => {
    const a = await createTenant(t);
    const customer = await makeCustomer(t, a);
    const [jobA, jobB] = [await makeJob(t, a, { customer_uuid: customer.uuid }), await makeJob(t, a, { customer_uuid: customer.uuid })];
    const CREATE = `mutation($input: InvoiceCreateInput!) { createInvoice(input: $input) { uuid invoiceNumber status jobUuid customerUuid issueDate dueDate subtotal taxAmount
      discountAmount totalAmount paidAmount balanceAmount terms createdAt updatedAt lineItems { description quantity unitPrice lineTotal taxRate taxAmount } job { status invoicedAt } } }`;
    const input = (job: { uuid: string; customer_uuid: string }) => ({
      jobUuid: job.uuid,
      customerUuid: job.customer_uuid,
      dueDate: '2027-01-31',
      lineItems: [{ description: 'Labor', quantity: 2, unitPrice: 85, taxRate: 0 }, { description: 'Parts', quantity: 1, unitPrice: 42.5, taxRate: 8.25 }],
      terms: 'Net 30',
    });
    const plain = await plainly(() => gql(t, a, CREATE, { input: input(jobA) }));
    const prepared = await gql(t, a, CREATE, { input: input(jobB) });
    expect(prepared.errors).toBeUndefined();
    expect(norm(prepared.data)).toEqual(norm(plain.data));
    expect(prepared.data.createInvoice).toMatchObject({ invoiceNumber: 'INV-0002', totalAmount: 216.01, job: { status: 'INVOICED' } });
  });

  it('an Idempotency-Key replay is the first answer, and one invoice is written', async () => {
    const a = await createTenant(t);
    const job = await makeJob(t, a);
    const post = () => request(t.app).post('/api/v1/invoices').set('Authorization', `Bearer ${a.key}`).set('Idempotency-Key', 'create-prepared').send(body(job));
    const { result: first, sql } = await executed(post);
    expect(sql.filter(isCreateStatement)).toEqual([]);
    const again = await post();
    expect(first.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.text).toBe(first.text);
    const list = (await rest(t, a).get(`/invoices?job_uuid=${job.uuid}`)).body.data.invoices;
    expect(list.map((i: { uuid: string; invoice_number: string }) => [i.uuid, i.invoice_number])).toEqual([[first.body.data.uuid, 'INV-0001']]);
    const events = await t.orm.em.fork().getConnection().execute<Array<{ type: string; actor: { type: string } }>>(`select type, actor from events where record_uuid in (?, ?) order by id`, [first.body.data.uuid, job.uuid]);
    expect(events.map((e) => e.type)).toEqual(['job.created', 'job.updated', 'job.status_changed', 'invoice.created']);
    expect(events.slice(1).map((e) => e.actor.type)).toEqual(['api_key', 'api_key', 'api_key']);
  });
});
