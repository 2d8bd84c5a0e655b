import { createTenant, rest, useTestApp } from '../../helpers/app';
import { fields, makeInvoice, makeJob, pay } from '../../helpers/billing';

const t = useTestApp();

describe('REST payments', () => {
  it('creates with defaults, numbers and embeds; the invoice balance follows', async () => {
    const a = await createTenant(t);
    const inv = await makeInvoice(t, a);
    const res = await pay(t, a, inv.uuid, 40, { payment_type: 'credit_card', payment_method: 'visa', processing_fee: 1.45, authorization_code: 'A1', payment_details: { last4: '4242' } });
    expect(res.status).toBe(200);
    const p = res.body.data;
    expect(p).toMatchObject({
      payment_number: '1',
      invoice_uuid: inv.uuid,
      customer_uuid: inv.customer_uuid,
      payment_type: 'credit_card',
      payment_method: 'visa',
      amount: 40,
      processing_fee: 1.45,
      net_amount: 38.55,
      payment_date: '2026-11-21',
      status: 'Completed',
      created_by_user_id: a.userId,
      payment_details: { last4: '4242' },
      deleted_at: null,
      invoice: { uuid: inv.uuid, invoice_number: inv.invoice_number },
      customer: { uuid: inv.customer_uuid, first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', phone: '217-555-0101' },
    });
    expect(p.processed_at).toMatch(/Z$/);
    expect((await rest(t, a).get(`/payments/${p.uuid}`)).body).toEqual({ success: true, data: p });
    expect((await rest(t, a).get(`/invoices/${inv.uuid}`)).body.data).toMatchObject({ paid_amount: 40, balance_amount: 60, status: 'Pending' });
    const pending = (await pay(t, a, inv.uuid, 10, { status: 'Pending', processing_fee: undefined })).body.data;
    expect(pending).toMatchObject({ payment_number: '2', status: 'Pending', processed_at: null, processing_fee: 0, net_amount: 10 });
    expect((await rest(t, a).get(`/invoices/${inv.uuid}`)).body.data.paid_amount).toBe(40);
  });

  it.each([
    [{ amount: 0 }, 'amount'],
    [{ amount: -5 }, 'amount'],
    [{ amount: 1.005 }, 'amount'],
    [{ amount: undefined }, 'amount'],
    [{ payment_type: 'bitcoin' }, 'payment_type'],
    [{ payment_date: '21/11/2026' }, 'payment_date'],
    [{ processing_fee: 50.01, amount: 50 }, 'processing_fee'],
    [{ status: 'Refunded' }, 'status'],
    [{ status: 'Failed' }, 'status'],
    [{ net_amount: 5 }, 'net_amount'],
    [{ customer_uuid: '00000000-0000-4000-8000-000000000000' }, 'customer_uuid'],
    [{ payment_number: '7' }, 'payment_number'],
    [{ invoice_uuid: 'nope' }, 'invoice_uuid'],
    [{ invoice_uuid: '00000000-0000-4000-8000-000000000000' }, 'invoice_uuid'],
    [{ amount: 100.01 }, 'amount'],
  ])('refuses %j naming %s', async (extra, field) => {
    const a = await createTenant(t);
    const inv = await makeInvoice(t, a);
    const res = await rest(t, a).post('/payments', { invoice_uuid: inv.uuid, payment_type: 'cash', amount: 10, payment_date: '2026-11-21', ...extra });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(fields(res)).toContain(field);
  });

  it('refuses overpayment with the documented message, and payments on drafts', async () => {
    const a = await createTenant(t);
    const inv = await makeInvoice(t, a);
    expect((await pay(t, a, inv.uuid, 60)).status).toBe(200);
    const over = await pay(t, a, inv.uuid, 40.01);
    expect(over.status).toBe(400);
    expect(over.body.error.message).toMatch(/amount exceeds invoice balance/);
    expect((await pay(t, a, inv.uuid, 40)).status).toBe(200);
    const paid = (await rest(t, a).get(`/invoices/${inv.uuid}`)).body.data;
    expect(paid).toMatchObject({ paid_amount: 100, balance_amount: 0, status: 'Paid' });
    const draft = await makeInvoice(t, a, { status: 'Draft' });
    expect(fields(await pay(t, a, draft.uuid, 1))).toEqual(['invoice_uuid']);
  });

  it('sets the job paid_at when all its invoices are paid, and takes it back', async () => {
    const a = await createTenant(t);
    const job = await makeJob(t, a);
    const one = await makeInvoice(t, a, { job_uuid: job.uuid });
    const two = await makeInvoice(t, a, { job_uuid: job.uuid, line_items: [{ unit_price: 50 }] });
    await makeInvoice(t, a, { job_uuid: job.uuid, status: 'Draft' }); // drafts do not count
    const paidAt = async () => (await rest(t, a).get(`/jobs/${job.uuid}`)).body.data.paid_at;
    await pay(t, a, one.uuid, 100);
    expect(await paidAt()).toBeNull();
    const p2 = (await pay(t, a, two.uuid, 50)).body.data;
    expect(await paidAt()).not.toBeNull();
    // Refunded and Failed payments do not count; deleting a payment reopens the balance.
    await rest(t, a).put(`/payments/${p2.uuid}`, { status: 'Refunded' });
    expect(await paidAt()).toBeNull();
    expect((await rest(t, a).get(`/invoices/${two.uuid}`)).body.data).toMatchObject({ paid_amount: 0, balance_amount: 50, status: 'Pending' });
    await rest(t, a).put(`/payments/${p2.uuid}`, { status: 'Completed' });
    expect(await paidAt()).not.toBeNull();
    expect((await rest(t, a).delete(`/payments/${p2.uuid}`)).status).toBe(200);
    expect(await paidAt()).toBeNull();
    expect((await rest(t, a).get(`/invoices/${two.uuid}`)).body.data.status).toBe('Pending');
  });

  it('updates: amount and status recheck the balance; invoice_uuid cannot change; fee ≤ amount on the merged record', async () => {
    const a = await createTenant(t);
    const inv = await makeInvoice(t, a);
    const other = await makeInvoice(t, a);
    const p = (await pay(t, a, inv.uuid, 30, { processing_fee: 2 })).body.data;
    const up = (await rest(t, a).put(`/payments/${p.uuid}`, { amount: 80, notes: 'corrected' })).body.data;
    expect(up).toMatchObject({ amount: 80, net_amount: 78, notes: 'corrected' });
    expect((await rest(t, a).get(`/invoices/${inv.uuid}`)).body.data.paid_amount).toBe(80);
    const p2 = (await pay(t, a, inv.uuid, 20, { status: 'Pending' })).body.data;
    expect((await rest(t, a).put(`/payments/${p2.uuid}`, { status: 'Completed' })).status).toBe(200);
    expect(fields(await rest(t, a).put(`/payments/${p.uuid}`, { amount: 80.01 }))).toEqual(['amount']);
    expect(fields(await rest(t, a).put(`/payments/${p.uuid}`, { amount: 1.5 }))).toEqual(['amount']); // fee 2 > amount
    expect(fields(await rest(t, a).put(`/payments/${p.uuid}`, { invoice_uuid: other.uuid }))).toEqual(['invoice_uuid']);
    const same = await rest(t, a).put(`/payments/${p.uuid}`, { invoice_uuid: inv.uuid, customer_uuid: inv.customer_uuid, net_amount: 78 });
    expect(same.status).toBe(200);
    // GET → edit → PUT.
    const { uuid: _u, ...body } = (await rest(t, a).get(`/payments/${p.uuid}`)).body.data;
    expect((await rest(t, a).put(`/payments/${p.uuid}`, { ...body, reference_number: 'CHK-1' })).body.data.reference_number).toBe('CHK-1');
    const proc = (await rest(t, a).put(`/payments/${p2.uuid}`, { processed_at: '2026-11-20T10:00:00-05:00' })).body.data;
    expect(proc.processed_at).toBe('2026-11-20T15:00:00.000Z');
  });

  it('marking an invoice Paid records a payment of the balance; Pending on a paid invoice is 400', async () => {
    const a = await createTenant(t);
    const inv = await makeInvoice(t, a);
    await pay(t, a, inv.uuid, 25);
    const marked = await rest(t, a).put(`/invoices/${inv.uuid}`, { status: 'Paid', notes: 'paid by phone' });
    expect(marked.status).toBe(200);
    expect(marked.body.data).toMatchObject({ status: 'Paid', paid_amount: 100, balance_amount: 0, notes: 'paid by phone' });
    const list = (await rest(t, a).get(`/payments?invoice_uuid=${inv.uuid}`)).body.data.payments;
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({ amount: 75, payment_type: 'other', status: 'Completed', notes: 'Marked as paid', payment_details: { source: 'marked_paid' }, invoice: { uuid: inv.uuid, invoice_number: inv.invoice_number } });
    expect(list[0].customer).toBeUndefined();
    expect(fields(await rest(t, a).put(`/invoices/${inv.uuid}`, { status: 'Pending' }))).toEqual(['status']);
    expect(fields(await rest(t, a).put(`/invoices/${inv.uuid}`, { status: 'Draft' }))).toEqual(['status']);
    expect((await rest(t, a).get(`/jobs/${inv.job_uuid}`)).body.data.paid_at).not.toBeNull();
  });

  it('moving an invoice to another job and customer carries its payments and both jobs\' paid_at', async () => {
    const a = await createTenant(t);
    const inv = await makeInvoice(t, a);
    const p = (await pay(t, a, inv.uuid, 100)).body.data;
    const other = await makeJob(t, a, { customer_uuid: (await rest(t, a).post('/customers', { first_name: 'Grace', last_name: 'Hopper' })).body.data.uuid });
    expect(fields(await rest(t, a).put(`/invoices/${inv.uuid}`, { job_uuid: other.uuid }))).toEqual(['customer_uuid']);
    const moved = await rest(t, a).put(`/invoices/${inv.uuid}`, { job_uuid: other.uuid, customer_uuid: other.customer_uuid });
    expect(moved.body.data).toMatchObject({ job_uuid: other.uuid, customer_uuid: other.customer_uuid, status: 'Paid' });
    expect((await rest(t, a).get(`/payments/${p.uuid}`)).body.data.customer).toMatchObject({ uuid: other.customer_uuid, first_name: 'Grace' });
    expect((await rest(t, a).get(`/jobs/${other.uuid}`)).body.data).toMatchObject({ status: 'Invoiced', paid_at: expect.any(String) });
    expect((await rest(t, a).get(`/jobs/${inv.job_uuid}`)).body.data.paid_at).toBeNull();
  });

  it('lists with filters and soft deletes', async () => {
    const a = await createTenant(t);
    const one = await makeInvoice(t, a);
    const two = await makeInvoice(t, a);
    const p1 = (await pay(t, a, one.uuid, 10, { payment_type: 'check', reference_number: '1001' })).body.data;
    const p2 = (await pay(t, a, two.uuid, 10, { status: 'Pending' })).body.data;
    const ids = async (q: string) => (await rest(t, a).get(`/payments?${q}`)).body.data.payments.map((p: { uuid: string }) => p.uuid);
    expect(await ids('')).toEqual([p2.uuid, p1.uuid]);
    expect(await ids(`invoice_uuid=${one.uuid}`)).toEqual([p1.uuid]);
    expect(await ids(`customer_uuid=${two.customer_uuid}`)).toEqual([p2.uuid]);
    expect(await ids('payment_type=CHECK')).toEqual([p1.uuid]);
    expect(await ids('payment_type=check,cash')).toEqual([p2.uuid, p1.uuid]);
    expect(await ids('status=pending')).toEqual([p2.uuid]);
    expect((await rest(t, a).get('/payments?status=Lost')).status).toBe(400);
    expect((await rest(t, a).delete(`/payments/${p1.uuid}`)).body.data.message).toEqual(expect.any(String));
    expect((await rest(t, a).get(`/payments/${p1.uuid}`)).status).toBe(404);
    expect((await rest(t, a).put(`/payments/${p1.uuid}`, { notes: 'x' })).status).toBe(404);
    expect(await ids('')).toEqual([p2.uuid]);
    expect(await ids('include_deleted=true')).toEqual([p2.uuid, p1.uuid]);
    expect((await rest(t, a).get(`/invoices/${one.uuid}`)).body.data.paid_amount).toBe(0);
  });

  it('keeps companies apart: invisible, unchangeable, unreferenceable', async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'Other Co' });
    const inv = await makeInvoice(t, a);
    const p = (await pay(t, a, inv.uuid, 10)).body.data;
    expect((await rest(t, b).get(`/payments/${p.uuid}`)).status).toBe(404);
    expect((await rest(t, b).put(`/payments/${p.uuid}`, { notes: 'x' })).status).toBe(404);
    expect((await rest(t, b).delete(`/payments/${p.uuid}`)).status).toBe(404);
    expect((await rest(t, b).get('/payments')).body.data.pagination.total).toBe(0);
    expect((await rest(t, b).get(`/payments?invoice_uuid=${inv.uuid}`)).body.data.payments).toEqual([]);
    const foreign = await pay(t, b, inv.uuid, 1);
    const missing = await pay(t, b, '00000000-0000-4000-8000-000000000000', 1);
    expect(fields(foreign)).toEqual(['invoice_uuid']);
    expect(foreign.body.error.message).toBe(missing.body.error.message);
    expect((await rest(t, a).get(`/invoices/${inv.uuid}`)).body.data.paid_amount).toBe(10);
    // Payment numbers are per company.
    expect((await pay(t, b, (await makeInvoice(t, b)).uuid, 1)).body.data.payment_number).toBe('1');
  });
});
