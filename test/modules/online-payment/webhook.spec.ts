import { createTenant, gql, rest, useDbClient, useTestApp } from '../../helpers/app';
import { makeInvoice } from '../../helpers/billing';
import { readAll } from '../../helpers/events';
import { checkout, connect, deliver, useStandIn } from '../../helpers/online-payments';

const stand = useStandIn();
const t = useTestApp(() => stand.env());
const db = useDbClient();

const recorded = async () => Number((await db.query(`select count(*) from stripe_events`)).rows[0].count);
const payments = async (invoiceUuid: string) => (await db.query(`select status, amount::text, refunded_amount::text, payment_type, payment_method, processing_fee::text, transaction_id, created_by_user_id from payments where invoice_uuid = $1`, [invoiceUuid])).rows;

async function paidSession(a: Awaited<ReturnType<typeof createTenant>>, o: { ach?: boolean; total?: number; amount?: number } = {}) {
  const account = await connect(t, a, { accept_ach: !!o.ach });
  const inv = await makeInvoice(t, a, { line_items: [{ description: 'Work', quantity: 1, unit_price: o.total ?? 100 }] });
  const s = await checkout(t, a, inv.uuid, o.amount ? { amount: o.amount } : {});
  const { intent } = stand.pay(s.session_id, { ach: o.ach, fee: 320 });
  return { account, inv, session: s.session_id, intent: intent.id };
}

describe('Stripe webhook: reconciliation', () => {
  it('records one Completed payment and pays the invoice once, whatever the repetition, concurrency and order of the events', async () => {
    const a = await createTenant(t);
    const { inv, session, intent } = await paidSession(a, { ach: true });
    const { cursor } = await readAll(t, a);
    const completed = stand.sessionEvent('checkout.session.completed', session);
    const succeeded = stand.sessionEvent('checkout.session.async_payment_succeeded', session);
    // The success first, then the same completion three times at once (and once more later).
    const first = await deliver(t, stand, succeeded);
    expect(first.status).toBe(200);
    const all = await Promise.all([deliver(t, stand, completed), deliver(t, stand, completed), deliver(t, stand, completed), deliver(t, stand, succeeded)]);
    expect(all.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(all.map((r) => r.body.data.outcome).sort()).toEqual(['duplicate', 'duplicate', 'duplicate', 'handled']);
    expect((await deliver(t, stand, completed)).body.data.outcome).toBe('duplicate');

    expect(await payments(inv.uuid)).toEqual([{ status: 'Completed', amount: '100.00', refunded_amount: '0.00', payment_type: 'ach', payment_method: 'bank_transfer', processing_fee: '3.20', transaction_id: intent, created_by_user_id: null }]);
    const got = (await rest(t, a).get(`/invoices/${inv.uuid}`)).body.data;
    expect(got).toMatchObject({ status: 'Paid', paid_amount: 100, balance_amount: 0 });
    const { events } = await readAll(t, a, cursor);
    expect(events.filter((e: { type: string }) => e.type === 'invoice.paid')).toHaveLength(1);
    expect(events.filter((e: { type: string }) => e.type === 'payment.created')).toHaveLength(1);
    expect(events.find((e: { type: string }) => e.type === 'payment.created').actor.type).toBe('stripe');
    expect(await recorded()).toBe(2);
  });

  it('keeps an ACH payment Pending until the bank answers, then Completed or Failed', async () => {
    const a = await createTenant(t);
    const ok = await paidSession(a, { ach: true });
    await deliver(t, stand, stand.sessionEvent('checkout.session.completed', ok.session));
    expect((await payments(ok.inv.uuid))[0].status).toBe('Pending');
    expect((await rest(t, a).get(`/invoices/${ok.inv.uuid}`)).body.data).toMatchObject({ status: 'Pending', balance_amount: 100 });
    await deliver(t, stand, stand.sessionEvent('checkout.session.async_payment_succeeded', ok.session));
    expect((await payments(ok.inv.uuid))[0].status).toBe('Completed');

    const bad = await paidSession(a, { ach: true });
    await deliver(t, stand, stand.sessionEvent('checkout.session.completed', bad.session));
    await deliver(t, stand, stand.sessionEvent('checkout.session.async_payment_failed', bad.session));
    // A late success of a failed payment changes nothing: statuses only move forward.
    await deliver(t, stand, stand.sessionEvent('checkout.session.async_payment_succeeded', bad.session));
    expect((await payments(bad.inv.uuid)).map((p) => p.status)).toEqual(['Failed']);
    expect((await rest(t, a).get(`/invoices/${bad.inv.uuid}`)).body.data).toMatchObject({ status: 'Pending', paid_amount: 0 });
  });

  it('records a card payment up to the balance when a cheque came in meanwhile, and refunds the excess through Stripe', async () => {
    const a = await createTenant(t);
    const { account, inv, session, intent } = await paidSession(a);
    expect((await rest(t, a).post('/payments', { invoice_uuid: inv.uuid, payment_type: 'check', amount: 40, payment_date: '2026-11-21' })).status).toBe(200);
    const completed = stand.sessionEvent('checkout.session.completed', session);
    await Promise.all([deliver(t, stand, completed), deliver(t, stand, completed)]);
    const online = (await payments(inv.uuid)).find((p) => p.payment_type === 'credit_card');
    expect(online).toMatchObject({ status: 'Completed', amount: '100.00', refunded_amount: '40.00', payment_method: 'visa' });
    const refunds = stand.calls.filter((c) => c.path === '/v1/refunds');
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ account, params: { payment_intent: intent, amount: '4000' } });
    expect((await rest(t, a).get(`/invoices/${inv.uuid}`)).body.data).toMatchObject({ status: 'Paid', paid_amount: 100, balance_amount: 0 });
    // Stripe then reports that refund on the charge: nothing changes.
    await deliver(t, stand, stand.chargeRefunded(intent));
    expect((await payments(inv.uuid)).find((p) => p.payment_type === 'credit_card')!.refunded_amount).toBe('40.00');
  });

  it('refuses a bad signature, an old timestamp, another company, an unknown invoice: nothing recorded', async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'Other' });
    const { inv, session } = await paidSession(a);
    await connect(t, b);
    const event = stand.sessionEvent('checkout.session.completed', session);
    const wrongKey = await deliver(t, stand, event, { secret: 'whsec_someone_else' });
    expect(wrongKey.status).toBe(400);
    const tampered = await deliver(t, stand, event, { signature: stand.signed(stand.sessionEvent('checkout.session.completed', session, { amount_total: 1 })).signature });
    expect(tampered.status).toBe(400);
    const old = await deliver(t, stand, event, { timestamp: Math.floor(Date.now() / 1000) - 600 });
    expect(old.status).toBe(400);
    expect(old.body.error.code).toBe('VALIDATION_ERROR');
    // A's account, but metadata naming company B.
    const foreign = await deliver(t, stand, stand.sessionEvent('checkout.session.completed', session, { metadata: { company_uuid: b.companyUuid, invoice_uuid: inv.uuid } }));
    expect(foreign.status).toBe(400);
    const unknown = await deliver(t, stand, stand.sessionEvent('checkout.session.completed', session, { metadata: { company_uuid: a.companyUuid, invoice_uuid: '00000000-0000-4000-8000-000000000000' } }));
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details[0].field).toBe('metadata.invoice_uuid');
    const otherAccount = await deliver(t, stand, stand.event('checkout.session.completed', { ...event.data.object }, 'acct_nobody'));
    expect(otherAccount.status).toBe(404);
    // A refund of a charge that is not one of ours is ignored; one of ours not yet recorded waits for a retry.
    const elsewhere = await deliver(t, stand, stand.event('charge.refunded', { id: 'ch_x', object: 'charge', amount: 500, amount_refunded: 500, payment_intent: 'pi_elsewhere', metadata: {} }, stand.sessions.get(session).account));
    expect([elsewhere.status, elsewhere.body.data.outcome]).toEqual([200, 'ignored']);
    const early = await deliver(t, stand, stand.event('charge.refunded', { id: 'ch_y', object: 'charge', amount: 500, amount_refunded: 500, payment_intent: 'pi_early', metadata: { company_uuid: a.companyUuid, invoice_uuid: inv.uuid } }, stand.sessions.get(session).account));
    expect(early.status).toBe(404);
    expect(await recorded()).toBe(0);
    expect(await payments(inv.uuid)).toEqual([]);
    // The genuine event still counts afterwards.
    expect((await deliver(t, stand, event)).body.data.outcome).toBe('handled');
  });

  it("refuses an event of an account that moved to another company since this process last read it, as a fresh read would", async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'Successor' });
    const first = await paidSession(a);
    // A's account is remembered by the event it handled; then it moves to B.
    expect((await deliver(t, stand, stand.sessionEvent('checkout.session.completed', first.session))).body.data.outcome).toBe('handled');
    const inv = await makeInvoice(t, a, { line_items: [{ description: 'Work', quantity: 1, unit_price: 100 }] });
    const session = (await checkout(t, a, inv.uuid)).session_id;
    stand.pay(session);
    // Another of A's sessions, made on an account A had before (Stripe does not know its intent under this one).
    const older = await paidSession(a);
    await db.query(`update payment_settings set stripe_account_id = null where company_uuid = $1`, [a.companyUuid]);
    await connect(t, b);
    await db.query(`update payment_settings set stripe_account_id = $1 where company_uuid = $2`, [first.account, b.companyUuid]);
    // While A is still remembered for the account (a refusal reads it again, and remembers B).
    const unknownThere = await deliver(t, stand, stand.event('checkout.session.completed', { ...stand.sessionEvent('checkout.session.completed', older.session).data.object }, first.account));
    expect([unknownThere.status, unknownThere.body.error?.details?.[0]?.field]).toEqual([400, 'metadata.company_uuid']);
    // A again for the account, read by an event of it (a refund not ours), then B again.
    await db.query(`update payment_settings set stripe_account_id = null where company_uuid = $1`, [b.companyUuid]);
    await db.query(`update payment_settings set stripe_account_id = $1 where company_uuid = $2`, [first.account, a.companyUuid]);
    expect((await deliver(t, stand, stand.event('charge.refunded', { id: 'ch_z', object: 'charge', amount: 1, amount_refunded: 1, payment_intent: 'pi_elsewhere', metadata: {} }, first.account))).body.data.outcome).toBe('ignored');
    await db.query(`update payment_settings set stripe_account_id = null where company_uuid = $1`, [a.companyUuid]);
    await db.query(`update payment_settings set stripe_account_id = $1 where company_uuid = $2`, [first.account, b.companyUuid]);
    const moved = await deliver(t, stand, stand.sessionEvent('checkout.session.completed', session));
    expect([moved.status, moved.body.error?.details?.[0]?.field]).toEqual([400, 'metadata.company_uuid']);
    expect(await payments(inv.uuid)).toEqual([]);
    expect(await payments(older.inv.uuid)).toEqual([]);
    expect(await recorded()).toBe(1);
  });

  it('refunds from the API and from the dashboard are each recorded once; balances and statuses follow on both surfaces', async () => {
    const a = await createTenant(t);
    const { account, inv, session, intent } = await paidSession(a);
    await deliver(t, stand, stand.sessionEvent('checkout.session.completed', session));
    const payment = (await rest(t, a).get(`/payments?invoice_uuid=${inv.uuid}`)).body.data.payments[0];

    const api = await rest(t, a).post(`/payments/${payment.uuid}/refund`, { amount: 30 });
    expect(api.status).toBe(200);
    expect(api.body.data).toMatchObject({ refunded_amount: 30, status: 'Completed' });
    expect(stand.calls.filter((c) => c.path === '/v1/refunds')).toEqual([expect.objectContaining({ account, params: expect.objectContaining({ payment_intent: intent, amount: '3000' }) })]);
    // Its charge.refunded event, delivered twice, changes nothing more.
    const echo = stand.chargeRefunded(intent);
    await deliver(t, stand, echo);
    await deliver(t, stand, echo);
    expect((await rest(t, a).get(`/invoices/${inv.uuid}`)).body.data).toMatchObject({ status: 'Pending', paid_amount: 70, balance_amount: 30 });

    // 20 more refunded in Stripe's dashboard: charge.refunded reports 50 in all.
    const dashboard = stand.chargeRefunded(intent, 2000);
    await Promise.all([deliver(t, stand, dashboard), deliver(t, stand, dashboard)]);
    const g = await gql(t, a, `query($u: UUID!) { invoice(uuid: $u) { paidAmount balanceAmount status payments { refundedAmount status } } }`, { u: inv.uuid });
    expect(g.data.invoice).toEqual({ paidAmount: 50, balanceAmount: 50, status: 'PENDING', payments: [{ refundedAmount: 50, status: 'COMPLETED' }] });

    // The rest through GraphQL: fully refunded.
    const rest2 = await gql(t, a, `mutation($u: UUID!) { refundPayment(uuid: $u) { refundedAmount status } }`, { u: payment.uuid });
    expect(rest2.data.refundPayment).toEqual({ refundedAmount: 100, status: 'REFUNDED' });
    expect((await rest(t, a).get(`/invoices/${inv.uuid}`)).body.data).toMatchObject({ status: 'Pending', paid_amount: 0, balance_amount: 100 });
    const more = await rest(t, a).post(`/payments/${payment.uuid}/refund`, { amount: 1 });
    expect(more.status).toBe(400);
    expect(stand.calls.filter((c) => c.path === '/v1/refunds')).toHaveLength(2);
  });

  it('refunds only online payments, up to what is left', async () => {
    const a = await createTenant(t);
    const { inv, session } = await paidSession(a, { total: 100, amount: 60 });
    await deliver(t, stand, stand.sessionEvent('checkout.session.completed', session));
    const cash = (await rest(t, a).post('/payments', { invoice_uuid: inv.uuid, payment_type: 'cash', amount: 10, payment_date: '2026-11-21' })).body.data;
    expect((await rest(t, a).post(`/payments/${cash.uuid}/refund`)).status).toBe(400);
    const online = (await rest(t, a).get(`/payments?invoice_uuid=${inv.uuid}&payment_type=credit_card`)).body.data.payments[0];
    const over = await rest(t, a).post(`/payments/${online.uuid}/refund`, { amount: 60.01 });
    expect(over.status).toBe(400);
    expect(over.body.error.details[0].field).toBe('amount');
    expect(stand.calls.filter((c) => c.path === '/v1/refunds')).toHaveLength(0);
  });

  it('records disputes; one closed as lost counts as a refund of its amount, once', async () => {
    const a = await createTenant(t);
    const { inv, session, intent } = await paidSession(a);
    await deliver(t, stand, stand.sessionEvent('checkout.session.completed', session));
    // A dispute of part of the charge.
    await deliver(t, stand, stand.dispute('charge.dispute.created', intent, 'needs_response', 4000));
    const opened = (await rest(t, a).get(`/payments?invoice_uuid=${inv.uuid}`)).body.data.payments[0];
    expect(opened.payment_details.dispute).toMatchObject({ status: 'needs_response', amount_cents: 4000 });
    expect(opened.status).toBe('Completed');
    const lost = stand.dispute('charge.dispute.closed', intent, 'lost', 4000);
    await deliver(t, stand, lost);
    await deliver(t, stand, lost);
    // Stripe may send the close again as another event: still counted once.
    await deliver(t, stand, stand.dispute('charge.dispute.closed', intent, 'lost', 4000));
    const after = (await rest(t, a).get(`/payments/${opened.uuid}`)).body.data;
    expect(after).toMatchObject({ status: 'Completed', refunded_amount: 40 });
    expect((await rest(t, a).get(`/invoices/${inv.uuid}`)).body.data).toMatchObject({ status: 'Pending', paid_amount: 60, balance_amount: 40 });
  });
});
