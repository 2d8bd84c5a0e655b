import type { Client } from 'pg';
import { createTenant, rest, useDbClient, useTestApp } from '../../helpers/app';
import { makeInvoice } from '../../helpers/billing';
import { checkout, connect, deliver, useStandIn } from '../../helpers/online-payments';
import { settleStaleRefunds } from '../../../src/modules/online-payment/refund-intents';

// Refunds are asked of Stripe outside the invoice's lock and transaction (docs/payments.md): the
// intent is written, Stripe is asked with its key, the answer recorded; the stripe-refunds task
// finishes what a failure or a crash left, and Stripe makes each refund once.

const stand = useStandIn();
const t = useTestApp(() => stand.env());
const db = useDbClient();

const refundCalls = () => stand.calls.filter((c) => c.path === '/v1/refunds');
const onlinePayment = async (invoiceUuid: string) =>
  (await db.query(`select uuid, status, refunded_amount::text, payment_details from payments where invoice_uuid = $1 and payment_type = 'credit_card'`, [invoiceUuid])).rows[0];

/** Whether the invoice's row can be locked now (NOWAIT: an error if anyone holds it). */
async function lockable(c: Client, invoiceUuid: string): Promise<boolean> {
  await c.query('begin');
  try {
    await c.query(`select 1 from invoices where uuid = $1 for update nowait`, [invoiceUuid]);
    return true;
  } catch {
    return false;
  } finally {
    await c.query('rollback');
  }
}

async function paid(a: Awaited<ReturnType<typeof createTenant>>, cheque = 0) {
  await connect(t, a);
  const inv = await makeInvoice(t, a, { line_items: [{ description: 'Work', quantity: 1, unit_price: 100 }] });
  const s = await checkout(t, a, inv.uuid);
  const { intent } = stand.pay(s.session_id);
  if (cheque) await rest(t, a).post('/payments', { invoice_uuid: inv.uuid, payment_type: 'check', amount: cheque, payment_date: '2026-11-21' });
  return { inv, session: s.session_id, intent: intent.id };
}

describe('Stripe refunds outside the lock, exactly once', () => {
  it('asks Stripe for an API refund with the invoice unlocked and the refund reserved, then records it', async () => {
    const a = await createTenant(t);
    const { inv, session, intent } = await paid(a);
    await deliver(t, stand, stand.sessionEvent('checkout.session.completed', session));
    const payment = await onlinePayment(inv.uuid);

    const held = stand.hold('/v1/refunds');
    const refund = rest(t, a).post(`/payments/${payment.uuid}/refund`, { amount: 30 }).then((r) => r);
    await held.arrived;
    // While Stripe is asked: no lock on the invoice, the refund reserved (a second one cannot take it twice).
    expect(await lockable(db, inv.uuid)).toBe(true);
    const during = await onlinePayment(inv.uuid);
    expect(during.refunded_amount).toBe('30.00');
    expect(during.payment_details.pending_refunds).toEqual([expect.objectContaining({ cents: 3000, key: expect.stringMatching(/^refund-/) })]);
    const over = await rest(t, a).post(`/payments/${payment.uuid}/refund`, { amount: 70.01 });
    expect(over.status).toBe(400);
    expect((await rest(t, a).post('/payments', { invoice_uuid: inv.uuid, payment_type: 'cash', amount: 10, payment_date: '2026-11-21' })).status).toBe(200);
    held.release();
    const done = await refund;
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ refunded_amount: 30, status: 'Completed' });
    const after = await onlinePayment(inv.uuid);
    expect(after.payment_details.pending_refunds).toEqual([]);
    expect(after.payment_details.charge_refunded_cents).toBe(3000);
    expect(refundCalls()).toHaveLength(1);
    expect(stand.intents.get(intent)!.refunded).toBe(3000);
    expect((await rest(t, a).get(`/invoices/${inv.uuid}`)).body.data).toMatchObject({ paid_amount: 80, balance_amount: 20 });
  });

  it('makes the excess refund of the webhook after its commit, the invoice unlocked meanwhile', async () => {
    const a = await createTenant(t);
    const { inv, session, intent } = await paid(a, 40);
    const held = stand.hold('/v1/refunds');
    const answer = deliver(t, stand, stand.sessionEvent('checkout.session.completed', session)).then((r) => r);
    await held.arrived;
    expect(await lockable(db, inv.uuid)).toBe(true);
    expect(await onlinePayment(inv.uuid)).toMatchObject({ status: 'Completed', refunded_amount: '40.00' });
    held.release();
    expect((await answer).body.data.outcome).toBe('handled');
    expect((await onlinePayment(inv.uuid)).payment_details.pending_refunds).toEqual([]);
    expect(refundCalls()).toEqual([expect.objectContaining({ idempotencyKey: `excess-${intent}`, params: expect.objectContaining({ amount: '4000' }) })]);
    expect((await rest(t, a).get(`/invoices/${inv.uuid}`)).body.data).toMatchObject({ status: 'Paid', balance_amount: 0 });
  });

  it('leaves a refund Stripe did not answer to the task, which makes it once: not made, or made with its answer lost', async () => {
    const a = await createTenant(t);
    for (const after of [false, true]) {
      stand.reset();
      const { inv, session, intent } = await paid(a);
      await deliver(t, stand, stand.sessionEvent('checkout.session.completed', session));
      const payment = await onlinePayment(inv.uuid);
      stand.fail('/v1/refunds', 1, { after });
      const res = await rest(t, a).post(`/payments/${payment.uuid}/refund`, { amount: 25 });
      // Recorded as asked: the refund is owed, and made by the task with the same key.
      expect([res.status, res.body.data.refunded_amount]).toEqual([200, 25]);
      expect(stand.intents.get(intent)!.refunded).toBe(after ? 2500 : 0);
      const pending = (await onlinePayment(inv.uuid)).payment_details.pending_refunds;
      expect(pending).toHaveLength(1);
      // Fresh entries are the request's: the task with its grace period leaves them.
      await settleStaleRefunds(t.orm);
      expect((await onlinePayment(inv.uuid)).payment_details.pending_refunds).toHaveLength(1);
      await settleStaleRefunds(t.orm, 0);
      await settleStaleRefunds(t.orm, 0);
      expect(stand.intents.get(intent)!.refunded).toBe(2500);
      expect(refundCalls().map((c) => c.idempotencyKey)).toEqual([pending[0].key]);
      const done = await onlinePayment(inv.uuid);
      expect([done.refunded_amount, done.payment_details.pending_refunds, done.payment_details.charge_refunded_cents]).toEqual(['25.00', [], 2500]);
    }
  });

  it('gives the reservation back when Stripe refuses the refund', async () => {
    const a = await createTenant(t);
    const { inv, session, intent } = await paid(a);
    await deliver(t, stand, stand.sessionEvent('checkout.session.completed', session));
    const payment = await onlinePayment(inv.uuid);
    // Refunded in full in Stripe's dashboard; its event has not arrived: Stripe refuses any more.
    stand.intents.get(intent)!.refunded = 10_000;
    const res = await rest(t, a).post(`/payments/${payment.uuid}/refund`, { amount: 30 });
    expect([res.status, res.body.error.details[0].field]).toEqual([400, 'amount']);
    expect(await onlinePayment(inv.uuid)).toMatchObject({ status: 'Completed', refunded_amount: '0.00', payment_details: expect.objectContaining({ pending_refunds: [] }) });
    expect((await rest(t, a).get(`/invoices/${inv.uuid}`)).body.data).toMatchObject({ status: 'Paid', balance_amount: 0 });
  });
});
