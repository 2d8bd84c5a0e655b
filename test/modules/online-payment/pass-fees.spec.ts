import request from 'supertest';
import { createTenant, gql, rest, useDbClient, useTestApp } from '../../helpers/app';
import { makeInvoice } from '../../helpers/billing';
import { checkout, connect, deliver, useStandIn } from '../../helpers/online-payments';
import { passedFeeCents, stripeFeeCents } from '../../../src/modules/online-payment/fees';

// pass_fees (docs/payments.md): the customer pays Stripe's fee on top; the invoice gets its amount.

const stand = useStandIn();
const t = useTestApp(() => stand.env());
const db = useDbClient();

const sessionCalls = () => stand.calls.filter((c) => c.path === '/v1/checkout/sessions');

describe('pass_fees: the customer pays the processing fee', () => {
  it('covers Stripe fee exactly: the company nets the amount (to the cent above at most)', () => {
    for (let cents = 1; cents < 3_000_000; cents += 997) {
      const card = passedFeeCents(cents, { card: true, ach: true });
      const cardNet = cents + card - stripeFeeCents(cents + card, 'card');
      expect([cents, cardNet - cents >= 0 && cardNet - cents <= 1]).toEqual([cents, true]);
      const ach = passedFeeCents(cents, { card: false, ach: true });
      const achNet = cents + ach - stripeFeeCents(cents + ach, 'ach');
      expect([cents, achNet - cents >= 0 && achNet - cents <= 1]).toEqual([cents, true]);
    }
    expect(passedFeeCents(10_000, { card: true, ach: false })).toBe(330);
    expect(passedFeeCents(10_000, { card: false, ach: true })).toBe(81);
    expect(passedFeeCents(1_000_000, { card: false, ach: true })).toBe(500);
  });

  it('adds the fee as a line of the session on both surfaces; the payment records the invoice share, the invoice is paid, nothing refunded', async () => {
    const a = await createTenant(t);
    const account = await connect(t, a, { pass_fees: true });
    const inv = await makeInvoice(t, a, { line_items: [{ description: 'Work', quantity: 1, unit_price: 100 }] });

    const s = await checkout(t, a, inv.uuid);
    expect(s).toMatchObject({ amount: 100, fee_amount: 3.3 });
    const [call] = sessionCalls();
    expect(call).toMatchObject({
      account,
      params: {
        line_items: { 0: { price_data: { unit_amount: '10000' } }, 1: { price_data: { unit_amount: '330', product_data: { name: 'Processing fee' } } } },
        metadata: { invoice_uuid: inv.uuid, fee_cents: '330' },
        payment_intent_data: { metadata: { fee_cents: '330' } },
      },
    });
    const g = await gql(t, a, `mutation($u: UUID!) { createInvoiceCheckout(invoiceUuid: $u, input: { amount: 50 }) { amount feeAmount } }`, { u: inv.uuid });
    expect(g.data.createInvoiceCheckout).toEqual({ amount: 50, feeAmount: 1.81 });
    expect(sessionCalls()[1].params.line_items[1].price_data.unit_amount).toBe('181');

    // The customer pays 103.30; Stripe keeps its fee on that (3.30): the invoice is paid, no excess.
    const { intent } = stand.pay(s.session_id);
    expect(intent.amount).toBe(10_330);
    expect((await deliver(t, stand, stand.sessionEvent('checkout.session.completed', s.session_id))).body.data.outcome).toBe('handled');
    const payment = (await rest(t, a).get(`/payments?invoice_uuid=${inv.uuid}`)).body.data.payments[0];
    expect(payment).toMatchObject({ amount: 100, processing_fee: 3.3, status: 'Completed', refunded_amount: 0 });
    expect(payment.payment_details.surcharge_cents).toBe(330);
    expect((await rest(t, a).get(`/invoices/${inv.uuid}`)).body.data).toMatchObject({ status: 'Paid', paid_amount: 100, balance_amount: 0 });
    const q = await gql(t, a, `query($u: UUID!) { invoice(uuid: $u) { status paidAmount payments { amount processingFee } } }`, { u: inv.uuid });
    expect(q.data.invoice).toEqual({ status: 'PAID', paidAmount: 100, payments: [{ amount: 100, processingFee: 3.3 }] });
    expect(stand.calls.filter((c) => c.path === '/v1/refunds')).toHaveLength(0);

    // A full refund gives back the invoice's share; the fee stays with Stripe.
    const refund = await rest(t, a).post(`/payments/${payment.uuid}/refund`);
    expect(refund.body.data).toMatchObject({ refunded_amount: 100, status: 'Refunded' });
    expect(stand.calls.filter((c) => c.path === '/v1/refunds')[0].params.amount).toBe('10000');
    const rows = (await db.query(`select amount::text, refunded_amount::text from payments where invoice_uuid = $1`, [inv.uuid])).rows;
    expect(rows).toEqual([{ amount: '100.00', refunded_amount: '100.00' }]);
  });

  it("charges the bank-account fee when only ACH is offered, and shows the fee on the customer page's Pay button", async () => {
    const a = await createTenant(t);
    await connect(t, a, { pass_fees: true, accept_card: false, accept_ach: true });
    const inv = await makeInvoice(t, a, { line_items: [{ description: 'Work', quantity: 1, unit_price: 100 }] });
    const link = (await rest(t, a).post(`/invoices/${inv.uuid}/share_link`)).body.data.url as string;
    const path = new URL(link).pathname;
    const page = await request(t.app).get(path);
    expect(page.text).toContain('Processing fee: $0.81');
    expect(page.text).toContain('Pay $100.81');
    expect((await request(t.app).post(`${path}/pay`)).status).toBe(303);
    expect(sessionCalls()[0].params).toMatchObject({ line_items: { 1: { price_data: { unit_amount: '81' } } }, metadata: { fee_cents: '81' } });

    // Without pass_fees: no fee line, no fee in the metadata.
    await rest(t, a).put('/companies/me/payment_settings', { pass_fees: false });
    expect((await request(t.app).get(path)).text).not.toContain('Processing fee');
    expect(await checkout(t, a, inv.uuid)).toMatchObject({ amount: 100, fee_amount: 0 });
    expect(sessionCalls()[1].params.line_items[1]).toBeUndefined();
    expect(sessionCalls()[1].params.metadata.fee_cents).toBeUndefined();
  });
});
