import request from 'supertest';
import { createTenant, gql, rest, useTestApp } from '../../helpers/app';
import { fields, makeInvoice, makeJob, pay } from '../../helpers/billing';
import { makeEstimate, makeLocation, makeTemplate } from '../../helpers/estimate-fixtures';

// Contract rules of estimates, invoices and payments found by the billing audit, on both surfaces.

const t = useTestApp();

describe('billing contract', () => {
  it('REST names nested list fields by their REST names in errors (line_items[i].line_total)', async () => {
    const a = await createTenant(t);
    const job = await makeJob(t, a);
    const base = { job_uuid: job.uuid, customer_uuid: job.customer_uuid, due_date: '2099-01-01' };
    const lines = [{ unit_price: 10, line_total: 11 }, { unit_price: 10, tax_rate: 10, tax_amount: 2 }];
    for (const res of [await rest(t, a).post('/invoices/preview', { line_items: lines }), await rest(t, a).post('/invoices', { ...base, line_items: lines })]) {
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([
        { field: 'line_items[0].line_total', message: 'line_items[0].line_total is computed: quantity × unit_price is 10' },
        { field: 'line_items[1].tax_amount', message: 'line_items[1].tax_amount is computed: line_total × tax_rate % is 1' },
      ]);
    }
    const inv = await makeInvoice(t, a);
    const put = await rest(t, a).put(`/invoices/${inv.uuid}`, { line_items: [{ unit_price: 5, quantity: 2, line_total: 9.99 }] });
    expect(put.body.error.message).toBe('line_items[0].line_total is computed: quantity × unit_price is 10');
    expect(fields(put)).toEqual(['line_items[0].line_total']);
    // Computed amounts of a preview are named as the preview shows them.
    const tmpl = await makeTemplate(t, a);
    const big = await rest(t, a).post('/estimates/preview', { template_uuid: tmpl.uuid, quantity: 9_999_999_999 });
    expect(big.body.error.details).toEqual([{ field: 'total_amount', message: 'total_amount would be above 9,999,999,999.99' }]);
    expect(fields(await rest(t, a).post('/invoices/preview', { subtotal: 9_999_999_999.99, tax_amount: 1 }))).toEqual(['total_amount']);
    // GraphQL keeps the camelCase path.
    const g = await gql(t, a, `query { previewInvoice(input: { lineItems: [{ unitPrice: 10, lineTotal: 11 }] }) { preview { subtotal } } }`);
    expect(g.errors?.[0].extensions.details?.map((d) => d.field)).toEqual(['lineItems[0].lineTotal']);
  });

  it("overpayment says exactly 'amount exceeds invoice balance (…)' on both surfaces", async () => {
    const a = await createTenant(t);
    const inv = await makeInvoice(t, a);
    expect((await pay(t, a, inv.uuid, 40)).status).toBe(200);
    const over = await pay(t, a, inv.uuid, 60.01);
    expect(over.status).toBe(400);
    expect(over.body.error).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'amount exceeds invoice balance (60.00)',
      details: [{ field: 'amount', message: 'amount exceeds invoice balance (60.00)' }],
    });
    const pending = (await pay(t, a, inv.uuid, 70, { status: 'Pending' })).body.data;
    expect((await rest(t, a).put(`/payments/${pending.uuid}`, { status: 'Completed' })).body.error.message).toBe('amount exceeds invoice balance (60.00)');
    const g = await gql(t, a, `mutation($i: PaymentCreateInput!) { createPayment(input: $i) { uuid } }`, {
      i: { invoiceUuid: inv.uuid, paymentType: 'CASH', amount: 61, paymentDate: '2026-11-21' },
    });
    expect(g.errors?.[0].message).toBe('amount exceeds invoice balance (60.00)');
  });

  it('invoice preview is a dry run of create: it takes the create body and gives the same numbers', async () => {
    const a = await createTenant(t);
    const job = await makeJob(t, a, { estimated_amount: 1234.56 });
    const loc = await makeLocation(t, a);
    const body = {
      job_uuid: job.uuid,
      customer_uuid: job.customer_uuid,
      location_uuid: loc.uuid,
      due_date: '2099-01-31',
      issue_date: '2099-01-01',
      invoice_type: 'Progress',
      progress_percentage: 33.3333,
      tax_amount: 10.5,
      discount_amount: 0.5,
      notes: 'n',
      terms: 'Net 30',
      internal_notes: 'i',
      status: 'Draft',
    };
    const preview = await rest(t, a).post('/invoices/preview', body);
    expect(preview.status).toBe(200);
    // 1234.56 × 33.3333 % = 411.519… → 411.52; + 10.50 − 0.50
    expect(preview.body.data).toEqual({
      preview: { subtotal: 411.52, tax_amount: 10.5, discount_amount: 0.5, total_amount: 421.52, balance_amount: 421.52 },
      breakdown: { line_items: [] },
    });
    const created = (await rest(t, a).post('/invoices', body)).body.data;
    expect(created).toMatchObject({ subtotal: 411.52, tax_amount: 10.5, discount_amount: 0.5, total_amount: 421.52, balance_amount: 421.52 });
    // References are checked as create checks them.
    const other = await makeJob(t, a);
    const b = await createTenant(t, { name: 'Other' });
    const foreign = await makeLocation(t, b);
    expect(fields(await rest(t, a).post('/invoices/preview', { ...body, customer_uuid: other.customer_uuid }))).toEqual(['customer_uuid']);
    expect(fields(await rest(t, a).post('/invoices/preview', { ...body, location_uuid: foreign.uuid }))).toEqual(['location_uuid']);
    expect(fields(await rest(t, a).post('/invoices/preview', { ...body, status: 'Paid' }))).toEqual(['status']);
    expect(fields(await rest(t, a).post('/invoices/preview', { ...body, due_date: '2098-12-31' }))).toEqual(['due_date']);
    const g = await gql(t, a, `query($i: InvoicePreviewInput!) { previewInvoice(input: $i) { preview { subtotal totalAmount } } }`, {
      i: { jobUuid: job.uuid, customerUuid: job.customer_uuid, dueDate: '2099-01-31', lineItems: [{ unitPrice: 0.01, quantity: 1.5, taxRate: 25 }] },
    });
    // 0.015 → 0.02, its tax 0.005 → 0.01 (half away from zero)
    expect(g.data.previewInvoice.preview).toEqual({ subtotal: 0.02, totalAmount: 0.03 });
  });

  it('estimate GET → PUT works after its job and location were deleted; a new deleted reference is 400', async () => {
    const a = await createTenant(t);
    const { customer, template } = await makeEstimate(t, a);
    const job = (await rest(t, a).post('/jobs', { customer_uuid: customer.uuid, title: 'Heater' })).body.data;
    const loc = await makeLocation(t, a);
    const est = (await rest(t, a).post('/estimates', { customer_uuid: customer.uuid, template_uuid: template.uuid, job_uuid: job.uuid, location_uuid: loc.uuid })).body.data;
    expect((await rest(t, a).delete(`/jobs/${job.uuid}`)).status).toBe(200);
    expect((await rest(t, a).delete(`/locations/${loc.uuid}`)).status).toBe(200);
    const got = (await rest(t, a).get(`/estimates/${est.uuid}`)).body.data;
    expect(got.job.uuid).toBe(job.uuid);
    const put = await rest(t, a).put(`/estimates/${est.uuid}`, { ...got, response_notes: 'Called back' });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ job_uuid: job.uuid, location_uuid: loc.uuid, response_notes: 'Called back', total_amount: est.total_amount });
    const g = await gql(t, a, `mutation($u: UUID!, $i: EstimateUpdateInput!) { updateEstimate(uuid: $u, input: $i) { jobUuid locationUuid } }`, {
      u: est.uuid,
      i: { jobUuid: job.uuid, locationUuid: loc.uuid },
    });
    expect(g.data.updateEstimate).toEqual({ jobUuid: job.uuid, locationUuid: loc.uuid });
    // Moving to another deleted record is still refused.
    const other = await makeEstimate(t, a);
    const loc2 = await makeLocation(t, a, { name: 'Gone' });
    await rest(t, a).delete(`/locations/${loc2.uuid}`);
    expect(fields(await rest(t, a).put(`/estimates/${other.estimate.uuid}`, { location_uuid: loc2.uuid }))).toEqual(['location_uuid']);
  });

  it('GraphQL relations: Customer.estimates, Customer.payments, Job.estimates (not deleted, newest first, limit)', async () => {
    const a = await createTenant(t);
    const { customer, template, estimate: first } = await makeEstimate(t, a);
    const job = (await rest(t, a).post('/jobs', { customer_uuid: customer.uuid, title: 'Heater', estimated_amount: 500 })).body.data;
    const second = (await rest(t, a).post('/estimates', { customer_uuid: customer.uuid, template_uuid: template.uuid, job_uuid: job.uuid })).body.data;
    const third = (await rest(t, a).post('/estimates', { customer_uuid: customer.uuid, template_uuid: template.uuid, job_uuid: job.uuid })).body.data;
    await rest(t, a).delete(`/estimates/${third.uuid}`);
    const inv = await makeInvoice(t, a, { job_uuid: job.uuid });
    const p1 = (await pay(t, a, inv.uuid, 10)).body.data;
    const p2 = (await pay(t, a, inv.uuid, 20)).body.data;
    const p3 = (await pay(t, a, inv.uuid, 30)).body.data;
    await rest(t, a).delete(`/payments/${p3.uuid}`);
    const res = await gql(
      t,
      a,
      `query($c: UUID!, $j: UUID!) {
        customer(uuid: $c) { estimates { uuid estimateNumber } payments { uuid amount invoice { uuid } } one: payments(limit: 1) { uuid } }
        job(uuid: $j) { estimates { uuid } }
      }`,
      { c: customer.uuid, j: job.uuid },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.customer.estimates).toEqual([
      { uuid: second.uuid, estimateNumber: second.estimate_number },
      { uuid: first.uuid, estimateNumber: first.estimate_number },
    ]);
    expect(res.data.customer.payments).toEqual([
      { uuid: p2.uuid, amount: 20, invoice: { uuid: inv.uuid } },
      { uuid: p1.uuid, amount: 10, invoice: { uuid: inv.uuid } },
    ]);
    expect(res.data.customer.one).toEqual([{ uuid: p2.uuid }]);
    expect(res.data.job.estimates).toEqual([{ uuid: second.uuid }]);
  });
  it('an Idempotency-Key replay is the first response byte for byte (key order kept), on both surfaces', async () => {
    const a = await createTenant(t);
    const inv = await makeInvoice(t, a);
    const post = () =>
      request(t.app)
        .post('/api/v1/payments')
        .set('Authorization', `Bearer ${a.key}`)
        .set('Idempotency-Key', 'same-text')
        .send({ invoice_uuid: inv.uuid, payment_type: 'cash', amount: 10, payment_date: '2026-11-21' });
    const first = await post();
    const again = await post();
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.text).toBe(first.text);
    const op = { query: `mutation($i: PaymentCreateInput!) { createPayment(input: $i) { uuid paymentNumber amount invoice { invoiceNumber } } }`, variables: { i: { invoiceUuid: inv.uuid, paymentType: 'CASH', amount: 5, paymentDate: '2026-11-21' } } };
    const g = () => request(t.app).post('/graphql').set('Authorization', `Bearer ${a.key}`).set('Idempotency-Key', 'same-gql').send(op);
    const g1 = await g();
    const g2 = await g();
    expect(g2.headers['idempotent-replayed']).toBe('true');
    expect(g2.text).toBe(g1.text);
    expect((await rest(t, a).get(`/invoices/${inv.uuid}`)).body.data.paid_amount).toBe(15);
  });

  it('an invoice GET → PUT that changes nothing keeps updated_at, line items included', async () => {
    const a = await createTenant(t);
    const inv = await makeInvoice(t, a, { line_items: [{ description: 'Valve', quantity: 1.5, unit_price: 0.01, tax_rate: 25 }, { unit_price: 3 }] });
    const got = (await rest(t, a).get(`/invoices/${inv.uuid}`)).body.data;
    const put = await rest(t, a).put(`/invoices/${inv.uuid}`, got);
    expect(put.status).toBe(200);
    expect(put.body.data).toEqual(got);
    const lines = await rest(t, a).put(`/invoices/${inv.uuid}`, { line_items: got.line_items });
    expect(lines.body.data.updated_at).toBe(got.updated_at);
    const changed = await rest(t, a).put(`/invoices/${inv.uuid}`, { line_items: [{ unit_price: 3 }] });
    expect(changed.body.data).toMatchObject({ subtotal: 3, tax_amount: 0, total_amount: 3 });
    expect(changed.body.data.updated_at).not.toBe(got.updated_at);
  });
});

