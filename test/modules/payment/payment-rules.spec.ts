import { useTestApp, createTenant, rest, useDbClient } from '../../helpers/app';
import { makeInvoice, makeJob, pay } from '../../helpers/billing';
import { paymentCustomerOf } from '../../../src/modules/payment/payment.rules';

// "A payment's customer is its invoice's" (src/modules/payment/payment.rules.ts): the TS form
// (payments made by create and by marking an invoice paid) and the SQL form (an invoice moved to
// another customer) leave every payment row with its invoice's customer.

const t = useTestApp();
const db = useDbClient();

it('payments follow their invoice to another customer, and a payment marked paid takes the new one', async () => {
  const tenant = await createTenant(t);
  const api = rest(t, tenant);
  const invoice = await makeInvoice(t, tenant);
  const untouched = await makeInvoice(t, tenant);
  expect((await pay(t, tenant, invoice.uuid, 30)).status).toBe(200);
  expect((await pay(t, tenant, invoice.uuid, 20, { status: 'Pending' })).status).toBe(200);
  expect((await pay(t, tenant, untouched.uuid, 10)).status).toBe(200);
  const before = (await db.query(`select uuid, updated_at from payments where invoice_uuid = $1`, [untouched.uuid])).rows;

  const other = await makeJob(t, tenant);
  expect((await api.put(`/invoices/${invoice.uuid}`, { job_uuid: other.uuid, customer_uuid: other.customer_uuid })).status).toBe(200);
  const marked = await api.put(`/invoices/${invoice.uuid}`, { status: 'Paid' });
  expect(marked.body.data).toMatchObject({ status: 'Paid', paid_amount: 100, balance_amount: 0 });

  const payments = (await api.get(`/payments?invoice_uuid=${invoice.uuid}`)).body.data.payments as Array<{ customer_uuid: string; amount: number; notes: string | null }>;
  expect(payments.map((p) => p.amount).sort()).toEqual([20, 30, 70]);
  // The TS form, on the invoice as GET shows it.
  const current = (await api.get(`/invoices/${invoice.uuid}`)).body.data;
  for (const p of payments) expect(p.customer_uuid).toBe(paymentCustomerOf({ customer: current.customer_uuid }));
  expect(current.customer_uuid).toBe(other.customer_uuid);
  // Every row of the company, as stored: the payment's customer is its invoice's.
  const rows = (await db.query(`select p.customer_uuid = i.customer_uuid as same from payments p join invoices i on i.uuid = p.invoice_uuid where p.company_uuid = $1`, [tenant.companyUuid])).rows;
  expect(rows.map((r) => r.same)).toEqual([true, true, true, true]);
  // The payments of other invoices are left alone.
  expect((await db.query(`select uuid, updated_at from payments where invoice_uuid = $1`, [untouched.uuid])).rows).toEqual(before);
});

it("the payment of an invoice marked paid is made with create's checks: numbered, processed, validated", async () => {
  const tenant = await createTenant(t);
  const api = rest(t, tenant);
  const invoice = await makeInvoice(t, tenant);
  expect((await pay(t, tenant, invoice.uuid, 25)).status).toBe(200);
  expect((await api.put(`/invoices/${invoice.uuid}`, { status: 'Paid' })).status).toBe(200);
  const [marked] = (await api.get(`/payments?invoice_uuid=${invoice.uuid}&payment_type=other`)).body.data.payments;
  expect(marked).toMatchObject({ amount: 75, net_amount: 75, processing_fee: 0, status: 'Completed', notes: 'Marked as paid', payment_details: { source: 'marked_paid' } });
  expect(marked.processed_at).not.toBeNull();
  expect(Number(marked.payment_number)).toBeGreaterThan(0);
});
