import { createTenant, gql, rest, Tenant, useTestApp } from '../../helpers/app';
import { watchStatements } from '../../helpers/statements';
import { makeInvoice, makeJob, pay } from '../../helpers/billing';

const t = useTestApp();

const INVOICE_FIELDS = `uuid invoiceNumber status invoiceType progressPercentage customerUuid jobUuid estimateUuid locationUuid issueDate dueDate
  subtotal taxAmount discountAmount totalAmount paidAmount balanceAmount notes terms internalNotes createdAt updatedAt deletedAt
  lineItems { description quantity unitPrice lineTotal taxRate taxAmount }`;
const CREATE = `mutation($input: InvoiceCreateInput!) { createInvoice(input: $input) { ${INVOICE_FIELDS} customer { firstName } job { status invoicedAt } } }`;

async function createViaGql(tenant: Tenant, input: object) {
  const res = await gql(t, tenant, CREATE, { input });
  return res;
}

describe('GraphQL invoices', () => {
  it('creates with enums, line items and relations, and reads it back', async () => {
    const a = await createTenant(t);
    const job = await makeJob(t, a);
    const res = await createViaGql(a, {
      jobUuid: job.uuid,
      customerUuid: job.customer_uuid,
      dueDate: '2099-02-01',
      invoiceType: 'PROGRESS',
      progressPercentage: 50,
      lineItems: [{ description: 'Valve', quantity: 2, unitPrice: 12.5, taxRate: 8 }],
    });
    expect(res.errors).toBeUndefined();
    const inv = res.data.createInvoice;
    expect(inv).toMatchObject({
      invoiceNumber: 'INV-0001',
      status: 'PENDING',
      invoiceType: 'PROGRESS',
      progressPercentage: 50,
      subtotal: 25,
      taxAmount: 2,
      totalAmount: 27,
      paidAmount: 0,
      balanceAmount: 27,
      lineItems: [{ description: 'Valve', quantity: 2, unitPrice: 12.5, lineTotal: 25, taxRate: 8, taxAmount: 2 }],
      customer: { firstName: 'Ada' },
      job: { status: 'INVOICED' },
    });
    const got = await gql(t, a, `query($u: UUID!) { invoice(uuid: $u) { ${INVOICE_FIELDS} } }`, { u: inv.uuid });
    const { customer: _c, job: _j, ...plain } = inv;
    expect(got.data.invoice).toEqual(plain);
  });

  it('validates with the GraphQL field names', async () => {
    const a = await createTenant(t);
    const job = await makeJob(t, a);
    const base = { jobUuid: job.uuid, customerUuid: job.customer_uuid, dueDate: '2099-02-01' };
    const bad = await createViaGql(a, { ...base, lineItems: [{ unitPrice: 1, quantity: 0 }] });
    expect(bad.errors?.[0].extensions.code).toBe('VALIDATION_ERROR');
    expect(bad.errors?.[0].extensions.details?.map((d) => d.field)).toEqual(['lineItems[0].quantity']);
    const progress = await createViaGql(a, { ...base, invoiceType: 'PROGRESS' });
    expect(progress.errors?.[0].extensions.details?.map((d) => d.field)).toEqual(['progressPercentage']);
    const status = await createViaGql(a, { ...base, status: 'PAID' });
    expect(status.errors?.[0].extensions.details?.map((d) => d.field)).toEqual(['status']);
  });

  it('previews as a query with the REST shape', async () => {
    const a = await createTenant(t);
    const res = await gql(
      t,
      a,
      `query($input: InvoicePreviewInput!) { previewInvoice(input: $input) {
        preview { subtotal taxAmount discountAmount totalAmount balanceAmount }
        breakdown { lineItems { description quantity unitPrice lineTotal taxRate taxAmount } } } }`,
      { input: { lineItems: [{ unitPrice: 10, quantity: 3, taxRate: 10 }], discountAmount: 3 } },
    );
    expect(res.data.previewInvoice).toEqual({
      preview: { subtotal: 30, taxAmount: 3, discountAmount: 3, totalAmount: 30, balanceAmount: 30 },
      breakdown: { lineItems: [{ description: null, quantity: 3, unitPrice: 10, lineTotal: 30, taxRate: 10, taxAmount: 3 }] },
    });
  });

  it('filters by status enum list; Overdue is computed; marking PAID records a payment', async () => {
    const a = await createTenant(t);
    const late = await makeInvoice(t, a, { issue_date: '2020-01-01', due_date: '2020-01-02' });
    const fresh = await makeInvoice(t, a);
    const list = async (status: string) =>
      (await gql(t, a, `{ invoices(status: [${status}]) { items { uuid status } pagination { total } } }`)).data.invoices.items.map((i: { uuid: string; status: string }) => `${i.uuid}:${i.status}`);
    expect(await list('OVERDUE')).toEqual([`${late.uuid}:OVERDUE`]);
    expect(await list('PENDING')).toEqual([`${fresh.uuid}:PENDING`]);
    expect(await list('ALL')).toHaveLength(2);
    const upd = await gql(t, a, `mutation($u: UUID!) { updateInvoice(uuid: $u, input: { status: PAID }) { status paidAmount balanceAmount payments { amount notes paymentType status paymentDetails } } }`, { u: late.uuid });
    expect(upd.data.updateInvoice).toEqual({
      status: 'PAID',
      paidAmount: 100,
      balanceAmount: 0,
      payments: [{ amount: 100, notes: 'Marked as paid', paymentType: 'OTHER', status: 'COMPLETED', paymentDetails: { source: 'marked_paid' } }],
    });
    const overdue = await gql(t, a, `mutation($u: UUID!) { updateInvoice(uuid: $u, input: { status: OVERDUE }) { status } }`, { u: fresh.uuid });
    expect(overdue.errors?.[0].extensions.code).toBe('VALIDATION_ERROR');
  });

  it('deletes with {message}; then NOT_FOUND; keeps companies apart', async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'B' });
    const inv = await makeInvoice(t, a);
    const foreign = await gql(t, b, `query($u: UUID!) { invoice(uuid: $u) { uuid } }`, { u: inv.uuid });
    expect(foreign.errors?.[0].extensions.code).toBe('NOT_FOUND');
    expect((await gql(t, b, `mutation($u: UUID!) { deleteInvoice(uuid: $u) { message } }`, { u: inv.uuid })).errors?.[0].extensions.code).toBe('NOT_FOUND');
    const bJob = await makeJob(t, b);
    const ref = await createViaGql(b, { jobUuid: inv.job_uuid, customerUuid: bJob.customer_uuid, dueDate: '2099-01-01' });
    expect(ref.errors?.[0].extensions.details?.map((d) => d.field)).toEqual(['jobUuid']);
    expect((await gql(t, b, `{ invoices { pagination { total } } }`)).data.invoices.pagination.total).toBe(0);
    const del = await gql(t, a, `mutation($u: UUID!) { deleteInvoice(uuid: $u) { message } }`, { u: inv.uuid });
    expect(del.data.deleteInvoice.message).toEqual(expect.any(String));
    expect((await gql(t, a, `query($u: UUID!) { invoice(uuid: $u) { uuid } }`, { u: inv.uuid })).errors?.[0].extensions.code).toBe('NOT_FOUND');
  });

  it('Customer.invoices and Job.invoices hold the live invoices, newest first, with limit', async () => {
    const a = await createTenant(t);
    const job = await makeJob(t, a);
    const one = await makeInvoice(t, a, { job_uuid: job.uuid });
    const two = await makeInvoice(t, a, { job_uuid: job.uuid });
    const gone = await makeInvoice(t, a, { job_uuid: job.uuid });
    await rest(t, a).delete(`/invoices/${gone.uuid}`);
    const res = await gql(t, a, `query($c: UUID!, $j: UUID!) { customer(uuid: $c) { invoices { uuid } first: invoices(limit: 1) { uuid } } job(uuid: $j) { invoices { uuid } } }`, { c: job.customer_uuid, j: job.uuid });
    expect(res.data.customer.invoices.map((i: { uuid: string }) => i.uuid)).toEqual([two.uuid, one.uuid]);
    expect(res.data.customer.first.map((i: { uuid: string }) => i.uuid)).toEqual([two.uuid]);
    expect(res.data.job.invoices).toHaveLength(2);
  });

  it('a page of invoices with customers and payments costs a fixed number of SQL statements', async () => {
    const a = await createTenant(t);
    const customers: string[] = [];
    for (let i = 0; i < 5; i++) customers.push((await rest(t, a).post('/customers', { first_name: `C${i}`, last_name: 'L' })).body.data.uuid);
    const jobs: Array<{ uuid: string }> = [];
    for (let i = 0; i < 5; i++) jobs.push((await rest(t, a).post('/jobs', { title: `J${i}`, customer_uuid: customers[i] })).body.data);
    for (let batch = 0; batch < 10; batch++) {
      await Promise.all(
        Array.from({ length: 10 }, async (_, k) => {
          const job = jobs[(batch * 10 + k) % jobs.length];
          const inv = await makeInvoice(t, a, { job_uuid: job.uuid });
          await pay(t, a, inv.uuid, 10);
          await pay(t, a, inv.uuid, 5, { status: 'Pending' });
        }),
      );
    }
    const query = `query($limit: Int) { invoices(limit: $limit) { items { uuid status customer { firstName } payments { amount status } job { title } } pagination { total } } }`;
    const statements = watchStatements();
    const measure = async (limit: number) => {
      statements.reset();
      const res = await gql(t, a, query, { limit });
      expect(res.errors).toBeUndefined();
      expect(res.data.invoices.items).toHaveLength(limit);
      expect(res.data.invoices.items.every((i: { payments: unknown[]; customer: unknown }) => i.payments.length === 2 && i.customer)).toBe(true);
      return statements.count;
    };
    try {
      const ten = await measure(10);
      const hundred = await measure(100);
      expect(hundred).toBe(ten);
      // One statement for the page, its count, customers, payments and jobs (the key is kept by
      // the key cache since the requests above: src/auth/key-cache.ts).
      expect(ten).toBe(1);
      expect(hundred).toBe(1);
      // A relation the page does not load with it (a job's customer) is one batch for all rows.
      statements.reset();
      const nested = await gql(t, a, `{ invoices(limit: 100) { items { uuid job { title customer { firstName } } } } }`);
      expect(nested.errors).toBeUndefined();
      expect(nested.data.invoices.items.every((i: { job: { customer: unknown } }) => i.job.customer)).toBe(true);
      expect(statements.count).toBe(2);
    } finally {
      statements.stop();
    }
  });
});
