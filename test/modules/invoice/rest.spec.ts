import { createTenant, rest, useTestApp } from '../../helpers/app';
import { watchStatements } from '../../helpers/statements';
import { makeTemplate } from '../../helpers/estimate-fixtures';
import { fields, makeCustomer, makeInvoice, makeJob, pay } from '../../helpers/billing';

const t = useTestApp();

describe('REST invoices', () => {
  it('creates from a job: number, defaults, totals, embeds; the job becomes Invoiced', async () => {
    const a = await createTenant(t);
    const job = await makeJob(t, a, { estimated_amount: 250 });
    const loc = (await rest(t, a).post('/locations', { name: 'Shop', address1: '1 St', city: 'Springfield', state: 'IL', zip: '62701' })).body.data;
    const res = await rest(t, a).post('/invoices', {
      job_uuid: job.uuid,
      customer_uuid: job.customer_uuid,
      location_uuid: loc.uuid,
      due_date: '2099-01-31',
      line_items: [
        { description: 'Labour', quantity: 1.5, unit_price: 89.99, tax_rate: 8.25 },
        { quantity: 3, unit_price: 3.33, tax_rate: 10 },
      ],
      discount_amount: 5,
      notes: 'Thanks',
    });
    expect(res.status).toBe(200);
    const inv = res.body.data;
    expect(inv).toMatchObject({
      invoice_number: 'INV-0001',
      customer_uuid: job.customer_uuid,
      job_uuid: job.uuid,
      estimate_uuid: null,
      location_uuid: loc.uuid,
      invoice_type: 'Full',
      progress_percentage: null,
      due_date: '2099-01-31',
      subtotal: 144.98,
      tax_amount: 12.14,
      discount_amount: 5,
      total_amount: 152.12,
      paid_amount: 0,
      balance_amount: 152.12,
      status: 'Pending',
      notes: 'Thanks',
      deleted_at: null,
      customer: { uuid: job.customer_uuid, first_name: 'Ada', last_name: 'Lovelace' },
      job: { uuid: job.uuid, job_number: job.job_number, title: 'Fix boiler', status: 'Invoiced' },
      estimate: null,
      location: { uuid: loc.uuid, name: 'Shop', city: 'Springfield', state: 'IL' },
    });
    expect(inv.issue_date).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect(inv.line_items).toEqual([
      { description: 'Labour', quantity: 1.5, unit_price: 89.99, line_total: 134.99, tax_rate: 8.25, tax_amount: 11.14 },
      { description: null, quantity: 3, unit_price: 3.33, line_total: 9.99, tax_rate: 10, tax_amount: 1 },
    ]);
    const got = await rest(t, a).get(`/invoices/${inv.uuid}`);
    expect(got.body).toEqual({ success: true, data: inv });
    const j = (await rest(t, a).get(`/jobs/${job.uuid}`)).body.data;
    expect(j.status).toBe('Invoiced');
    expect(j.invoiced_at).not.toBeNull();
    expect((await makeInvoice(t, a)).invoice_number).toBe('INV-0002');
  });

  it('uses job amounts without line items; progress bills its share; drafts leave the job alone', async () => {
    const a = await createTenant(t);
    const job = await makeJob(t, a, { estimated_amount: 400 });
    const base = { job_uuid: job.uuid, customer_uuid: job.customer_uuid, due_date: '2099-01-01' };
    const full = (await rest(t, a).post('/invoices', { ...base, tax_amount: 32, status: 'Draft' })).body.data;
    expect(full).toMatchObject({ subtotal: 400, tax_amount: 32, total_amount: 432, line_items: null, status: 'Draft' });
    expect((await rest(t, a).get(`/jobs/${job.uuid}`)).body.data.status).toBe('New');
    await rest(t, a).put(`/jobs/${job.uuid}`, { actual_amount: 1000 });
    const progress = (await rest(t, a).post('/invoices', { ...base, invoice_type: 'Progress', progress_percentage: 25 })).body.data;
    expect(progress).toMatchObject({ invoice_type: 'Progress', progress_percentage: 25, subtotal: 250, total_amount: 250 });
    const sent = (await rest(t, a).post('/invoices', { ...base, subtotal: 123.45 })).body.data;
    expect(sent.subtotal).toBe(123.45);
  });

  it.each([
    [{ invoice_type: 'Progress' }, 'progress_percentage'],
    [{ invoice_type: 'Progress', progress_percentage: 0 }, 'progress_percentage'],
    [{ invoice_type: 'Progress', progress_percentage: 100.5 }, 'progress_percentage'],
    [{ invoice_type: 'Full', progress_percentage: 50 }, 'progress_percentage'],
    [{ subtotal: 99 }, 'subtotal'],
    [{ discount_amount: 500 }, 'discount_amount'],
    [{ status: 'Paid' }, 'status'],
    [{ status: 'Overdue' }, 'status'],
    [{ invoice_number: 'X-1' }, 'invoice_number'],
    [{ total_amount: 5 }, 'total_amount'],
    [{ due_date: '2020-01-01', issue_date: '2020-02-01' }, 'due_date'],
    [{ due_date: '2020-02-30' }, 'due_date'],
    [{ line_items: [{ unit_price: 1.001 }] }, 'line_items[0].unit_price'],
    [{ line_items: [{ unit_price: 1, quantity: 0 }] }, 'line_items[0].quantity'],
    [{ line_items: [{ unit_price: 1, quantity: 1.00001 }] }, 'line_items[0].quantity'],
    [{ line_items: [{ unit_price: 1, tax_rate: 101 }] }, 'line_items[0].tax_rate'],
    [{ line_items: [{ quantity: 2 }] }, 'line_items[0].unit_price'],
    [{ line_items: [{ unit_price: 1, colour: 'red' }] }, 'line_items[0].colour'],
    [{ line_items: {} }, 'line_items'],
  ])('refuses %j naming %s', async (extra, field) => {
    const a = await createTenant(t);
    const job = await makeJob(t, a);
    const res = await rest(t, a).post('/invoices', { job_uuid: job.uuid, customer_uuid: job.customer_uuid, due_date: '2099-01-01', line_items: [{ unit_price: 100 }], ...extra });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(fields(res)).toContain(field);
  });

  it('needs the job, its customer, and an estimate of that customer', async () => {
    const a = await createTenant(t);
    const job = await makeJob(t, a);
    const other = await makeCustomer(t, a, { first_name: 'Grace' });
    const missing = await rest(t, a).post('/invoices', { customer_uuid: job.customer_uuid, due_date: '2099-01-01' });
    expect(fields(missing)).toEqual(expect.arrayContaining(['job_uuid']));
    const wrong = await rest(t, a).post('/invoices', { job_uuid: job.uuid, customer_uuid: other.uuid, due_date: '2099-01-01' });
    expect(fields(wrong)).toEqual(['customer_uuid']);
    await rest(t, a).delete(`/jobs/${job.uuid}`);
    const deleted = await rest(t, a).post('/invoices', { job_uuid: job.uuid, customer_uuid: job.customer_uuid, due_date: '2099-01-01' });
    expect(fields(deleted)).toEqual(['job_uuid']);
  });

  it('links an estimate of the same customer and embeds it; another customer\'s estimate is 400', async () => {
    const a = await createTenant(t);
    const job = await makeJob(t, a);
    const template = await makeTemplate(t, a);
    const estimate = (await rest(t, a).post('/estimates', { customer_uuid: job.customer_uuid, template_uuid: template.uuid })).body.data;
    const inv = await makeInvoice(t, a, { job_uuid: job.uuid, estimate_uuid: estimate.uuid });
    expect(inv.estimate).toEqual({ uuid: estimate.uuid, estimate_number: estimate.estimate_number, status: estimate.status, total_amount: estimate.total_amount });
    const other = await makeCustomer(t, a, { first_name: 'Grace' });
    const foreign = (await rest(t, a).post('/estimates', { customer_uuid: other.uuid, template_uuid: template.uuid })).body.data;
    const res = await rest(t, a).post('/invoices', { job_uuid: job.uuid, customer_uuid: job.customer_uuid, estimate_uuid: foreign.uuid, due_date: '2099-01-01' });
    expect(fields(res)).toEqual(['estimate_uuid']);
    expect(fields(await rest(t, a).put(`/invoices/${inv.uuid}`, { estimate_uuid: foreign.uuid }))).toEqual(['estimate_uuid']);
    // The embed resolves a deleted estimate too.
    await rest(t, a).delete(`/estimates/${estimate.uuid}`);
    expect((await rest(t, a).get(`/invoices/${inv.uuid}`)).body.data.estimate.uuid).toBe(estimate.uuid);
  });

  it('sending a draft invoices the job; a Complete job stays Complete; type changes drop the percentage', async () => {
    const a = await createTenant(t);
    const job = await makeJob(t, a);
    const draft = await makeInvoice(t, a, { job_uuid: job.uuid, status: 'Draft' });
    expect((await rest(t, a).get(`/jobs/${job.uuid}`)).body.data.status).toBe('New');
    expect((await rest(t, a).put(`/invoices/${draft.uuid}`, { status: 'Pending' })).body.data.status).toBe('Pending');
    expect((await rest(t, a).get(`/jobs/${job.uuid}`)).body.data.status).toBe('Invoiced');
    const done = await makeJob(t, a, { status: 'Complete' });
    await makeInvoice(t, a, { job_uuid: done.uuid });
    expect((await rest(t, a).get(`/jobs/${done.uuid}`)).body.data.status).toBe('Complete');
    const progress = await makeInvoice(t, a, { invoice_type: 'Progress', progress_percentage: 40 });
    const full = (await rest(t, a).put(`/invoices/${progress.uuid}`, { invoice_type: 'Full' })).body.data;
    expect(full).toMatchObject({ invoice_type: 'Full', progress_percentage: null });
    expect(fields(await rest(t, a).put(`/invoices/${progress.uuid}`, { progress_percentage: 10 }))).toEqual(['progress_percentage']);
    expect(fields(await rest(t, a).put(`/invoices/${progress.uuid}`, { invoice_type: 'Progress' }))).toEqual(['progress_percentage']);
    const paidDraft = await makeInvoice(t, a, { status: 'Draft' });
    expect((await rest(t, a).put(`/invoices/${paidDraft.uuid}`, { status: 'Paid' })).body.data).toMatchObject({ status: 'Paid', paid_amount: 100 });
  });

  it("a new invoice takes its job's paid_at away, with a total of 0 too; a draft leaves it", async () => {
    const a = await createTenant(t);
    const job = await makeJob(t, a);
    const first = await makeInvoice(t, a, { job_uuid: job.uuid });
    await pay(t, a, first.uuid, 100);
    const paidAt = (await rest(t, a).get(`/jobs/${job.uuid}`)).body.data.paid_at;
    expect(paidAt).not.toBeNull();
    // A draft does not count: the job stays paid.
    await makeInvoice(t, a, { job_uuid: job.uuid, status: 'Draft' });
    expect((await rest(t, a).get(`/jobs/${job.uuid}`)).body.data).toMatchObject({ status: 'Invoiced', paid_at: paidAt });
    // A total of 0 is not 'Paid' (docs/invoices-and-payments.md): the job is no longer all paid.
    const zero = await makeInvoice(t, a, { job_uuid: job.uuid, line_items: [{ unit_price: 0 }] });
    expect(zero).toMatchObject({ total_amount: 0, balance_amount: 0, status: 'Pending', job: { uuid: job.uuid, status: 'Invoiced' } });
    expect((await rest(t, a).get(`/jobs/${job.uuid}`)).body.data).toMatchObject({ status: 'Invoiced', paid_at: null });
    // Marked 'Paid' by hand, it counts as paid: the job is paid again.
    await rest(t, a).put(`/invoices/${zero.uuid}`, { status: 'Paid' });
    expect((await rest(t, a).get(`/jobs/${job.uuid}`)).body.data.paid_at).not.toBeNull();
    // A Complete job keeps its status and loses paid_at all the same.
    const done = await makeJob(t, a, { status: 'Complete' });
    await pay(t, a, (await makeInvoice(t, a, { job_uuid: done.uuid })).uuid, 100);
    await makeInvoice(t, a, { job_uuid: done.uuid });
    expect((await rest(t, a).get(`/jobs/${done.uuid}`)).body.data).toMatchObject({ status: 'Complete', paid_at: null, invoiced_at: null });
  });

  it('updates partially and recomputes; total below paid is refused', async () => {
    const a = await createTenant(t);
    const inv = await makeInvoice(t, a, { line_items: [{ unit_price: 100, tax_rate: 10 }] });
    expect(inv.total_amount).toBe(110);
    const disc = (await rest(t, a).put(`/invoices/${inv.uuid}`, { discount_amount: 10 })).body.data;
    expect(disc).toMatchObject({ subtotal: 100, tax_amount: 10, discount_amount: 10, total_amount: 100, balance_amount: 100 });
    const lines = (await rest(t, a).put(`/invoices/${inv.uuid}`, { line_items: [{ unit_price: 50, quantity: 2, tax_rate: 5 }, { unit_price: 20 }] })).body.data;
    expect(lines).toMatchObject({ subtotal: 120, tax_amount: 5, total_amount: 115 });
    const notes = (await rest(t, a).put(`/invoices/${inv.uuid}`, { notes: 'hello', terms: '' })).body.data;
    expect(notes).toMatchObject({ notes: 'hello', terms: null, total_amount: 115 });
    expect((await pay(t, a, inv.uuid, 100)).status).toBe(200);
    const below = await rest(t, a).put(`/invoices/${inv.uuid}`, { discount_amount: 30 });
    expect(below.status).toBe(400);
    expect(fields(below)).toEqual(['total_amount']);
    expect((await rest(t, a).get(`/invoices/${inv.uuid}`)).body.data.discount_amount).toBe(10);
  });

  it('GET → edit → PUT works, line items included', async () => {
    const a = await createTenant(t);
    const inv = await makeInvoice(t, a, { line_items: [{ unit_price: 10, quantity: 3, tax_rate: 7.5 }] });
    const { uuid: _u, ...body } = (await rest(t, a).get(`/invoices/${inv.uuid}`)).body.data;
    const res = await rest(t, a).put(`/invoices/${inv.uuid}`, { ...body, notes: 'edited' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ notes: 'edited', total_amount: inv.total_amount });
    const bad = await rest(t, a).put(`/invoices/${inv.uuid}`, { paid_amount: 5 });
    expect(fields(bad)).toEqual(['paid_amount']);
  });

  it('reads, filters and updates Overdue consistently; drafts never are', async () => {
    const a = await createTenant(t);
    const past = await makeInvoice(t, a, { issue_date: '2020-01-01', due_date: '2020-01-15' });
    const future = await makeInvoice(t, a);
    const draft = await makeInvoice(t, a, { issue_date: '2020-01-01', due_date: '2020-01-15', status: 'Draft' });
    expect(past.status).toBe('Overdue');
    expect(draft.status).toBe('Draft');
    const numbers = async (q: string) => (await rest(t, a).get(`/invoices?${q}`)).body.data.invoices.map((i: { uuid: string }) => i.uuid);
    expect(await numbers('status=Overdue')).toEqual([past.uuid]);
    expect(await numbers('status=pending')).toEqual([future.uuid]);
    expect(await numbers('status=Draft,Overdue')).toEqual([draft.uuid, past.uuid]);
    expect(await numbers('status=All')).toHaveLength(3);
    expect((await rest(t, a).get('/invoices?status=Late')).status).toBe(400);
    const list = (await rest(t, a).get('/invoices')).body.data.invoices;
    expect(list.find((i: { uuid: string }) => i.uuid === past.uuid).status).toBe('Overdue');
    // PUT of the GET body (status 'Overdue' included) is fine; setting 'Overdue' by hand is not.
    expect((await rest(t, a).put(`/invoices/${past.uuid}`, { status: 'Overdue', notes: 'x' })).status).toBe(200);
    expect(fields(await rest(t, a).put(`/invoices/${future.uuid}`, { status: 'Overdue' }))).toEqual(['status']);
    const moved = (await rest(t, a).put(`/invoices/${past.uuid}`, { due_date: '2099-01-01' })).body.data;
    expect(moved.status).toBe('Pending');
    // Paid in full: never overdue.
    await rest(t, a).put(`/invoices/${moved.uuid}`, { due_date: '2020-01-20' });
    await pay(t, a, past.uuid, 100);
    expect((await rest(t, a).get(`/invoices/${past.uuid}`)).body.data.status).toBe('Paid');
  });

  it('lists with filters, search and customer embeds', async () => {
    const a = await createTenant(t);
    const one = await makeInvoice(t, a);
    const two = await makeInvoice(t, a);
    const ids = async (q: string) => (await rest(t, a).get(`/invoices?${q}`)).body.data.invoices.map((i: { uuid: string }) => i.uuid);
    expect(await ids('')).toEqual([two.uuid, one.uuid]);
    expect(await ids(`customer_uuid=${one.customer_uuid}`)).toEqual([one.uuid]);
    expect(await ids(`job_uuid=${two.job_uuid}`)).toEqual([two.uuid]);
    expect(await ids('search=inv-0002')).toEqual([two.uuid]);
    expect(await ids('search=0001')).toEqual([one.uuid]);
    expect(await ids('customer_uuid=00000000-0000-4000-8000-000000000000')).toEqual([]);
    expect((await rest(t, a).get('/invoices?customer_uuid=nope')).status).toBe(400);
    const page = (await rest(t, a).get('/invoices?limit=1')).body.data;
    expect(page.pagination).toEqual({ page: 1, limit: 1, total: 2, total_pages: 2 });
    expect(page.invoices[0].customer).toEqual({ uuid: two.customer_uuid, first_name: 'Ada', last_name: 'Lovelace' });
    expect(page.invoices[0].job).toBeUndefined();
  });

  it('soft deletes, but not with Completed payments; the job loses paid_at', async () => {
    const a = await createTenant(t);
    const inv = await makeInvoice(t, a);
    const p = (await pay(t, a, inv.uuid, 100)).body.data;
    expect((await rest(t, a).get(`/jobs/${inv.job_uuid}`)).body.data.paid_at).not.toBeNull();
    const refused = await rest(t, a).delete(`/invoices/${inv.uuid}`);
    expect(refused.status).toBe(400);
    await rest(t, a).put(`/payments/${p.uuid}`, { status: 'Refunded' });
    expect((await rest(t, a).get(`/jobs/${inv.job_uuid}`)).body.data.paid_at).toBeNull();
    const del = await rest(t, a).delete(`/invoices/${inv.uuid}`);
    expect(del.status).toBe(200);
    expect(typeof del.body.data.message).toBe('string');
    expect((await rest(t, a).get(`/invoices/${inv.uuid}`)).status).toBe(404);
    expect((await rest(t, a).put(`/invoices/${inv.uuid}`, { notes: 'x' })).status).toBe(404);
    expect((await rest(t, a).get('/invoices')).body.data.invoices).toEqual([]);
    expect((await rest(t, a).get('/invoices?include_deleted=true')).body.data.invoices).toHaveLength(1);
    expect(fields(await pay(t, a, inv.uuid, 1))).toEqual(['invoice_uuid']);
  });

  it('previews with the same numbers as create', async () => {
    const a = await createTenant(t);
    const job = await makeJob(t, a, { estimated_amount: 300 });
    const body = { line_items: [{ description: 'Pipe', quantity: 2.5, unit_price: 19.99, tax_rate: 6.25 }], discount_amount: 1 };
    const res = await rest(t, a).post('/invoices/preview', body);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      preview: { subtotal: 49.98, tax_amount: 3.12, discount_amount: 1, total_amount: 52.1, balance_amount: 52.1 },
      breakdown: { line_items: [{ description: 'Pipe', quantity: 2.5, unit_price: 19.99, line_total: 49.98, tax_rate: 6.25, tax_amount: 3.12 }] },
    });
    const created = (await rest(t, a).post('/invoices', { ...body, job_uuid: job.uuid, customer_uuid: job.customer_uuid, due_date: '2099-01-01' })).body.data;
    expect(created).toMatchObject(res.body.data.preview);
    const fromJob = (await rest(t, a).post('/invoices/preview', { job_uuid: job.uuid, tax_amount: 24 })).body.data;
    expect(fromJob.preview).toEqual({ subtotal: 300, tax_amount: 24, discount_amount: 0, total_amount: 324, balance_amount: 324 });
    expect(fromJob.breakdown.line_items).toEqual([]);
    expect((await rest(t, a).post('/invoices/preview', {})).body.data.preview.total_amount).toBe(0);
    expect(fields(await rest(t, a).post('/invoices/preview', { subtotal: 5, discount_amount: 6 }))).toEqual(['discount_amount']);
    expect(fields(await rest(t, a).post('/invoices/preview', { line_items: [{ unit_price: 1 }], subtotal: 2 }))).toEqual(['subtotal']);
  });

  it('keeps companies apart: invisible, unchangeable, unreferenceable', async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'Other Co' });
    const inv = await makeInvoice(t, a);
    expect((await rest(t, b).get(`/invoices/${inv.uuid}`)).status).toBe(404);
    expect((await rest(t, b).put(`/invoices/${inv.uuid}`, { notes: 'x' })).status).toBe(404);
    expect((await rest(t, b).delete(`/invoices/${inv.uuid}`)).status).toBe(404);
    expect((await rest(t, b).get('/invoices')).body.data.pagination.total).toBe(0);
    expect((await rest(t, b).get(`/invoices?customer_uuid=${inv.customer_uuid}`)).body.data.invoices).toEqual([]);
    const bJob = await makeJob(t, b);
    const foreignJob = await rest(t, b).post('/invoices', { job_uuid: inv.job_uuid, customer_uuid: bJob.customer_uuid, due_date: '2099-01-01' });
    const missingJob = await rest(t, b).post('/invoices', { job_uuid: '00000000-0000-4000-8000-000000000000', customer_uuid: bJob.customer_uuid, due_date: '2099-01-01' });
    expect(fields(foreignJob)).toEqual(['job_uuid']);
    expect(foreignJob.body.error.message).toBe(missingJob.body.error.message);
    expect(fields(await rest(t, b).post('/invoices/preview', { job_uuid: inv.job_uuid }))).toEqual(['job_uuid']);
    // Numbering is per company.
    expect((await makeInvoice(t, b)).invoice_number).toBe('INV-0001');
    expect((await rest(t, a).get('/invoices/not-a-uuid')).status).toBe(404);
  });

  it("reads the job once on create: the parties' statement and the write, and the job's checks still hold", async () => {
    const a = await createTenant(t);
    const job = await makeJob(t, a);
    const other = await makeCustomer(t, a);
    const body = { job_uuid: job.uuid, customer_uuid: job.customer_uuid, issue_date: '2025-12-01', due_date: '2026-01-01', line_items: [{ description: 'Labor', quantity: 1, unit_price: 10 }] };
    await rest(t, a).post('/invoices', body); // the key is kept by the key cache from here on
    const statements = watchStatements();
    const seen = statements.seen;
    try {
      expect((await rest(t, a).post('/invoices', body)).status).toBe(200);
      // One statement reads the job and the customer, one the company's invoice custom fields
      // (their defaults and required ones, docs/custom-fields.md), one writes the invoice and the job's change.
      expect(seen).toHaveLength(3);
      expect(seen[0]).toMatch(/^select .* from "jobs" as "j" left join "customers"/);
      expect(seen[1]).toMatch(/from "?custom_field_definitions"? where company_uuid/);
      expect(seen[2]).toMatch(/insert into "invoices"/);
    } finally {
      statements.stop();
    }
    const mismatch = await rest(t, a).post('/invoices', { ...body, customer_uuid: other.uuid });
    expect(mismatch.status).toBe(400);
    expect(JSON.stringify(mismatch.body)).toMatch(/job's customer/);
  });
});
