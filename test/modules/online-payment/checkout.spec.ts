import request from 'supertest';
import { createTenant, gql, rest, useTestApp } from '../../helpers/app';
import { makeInvoice } from '../../helpers/billing';
import { checkout, connect, useStandIn } from '../../helpers/online-payments';
import { keyFor } from '../../helpers/people';

const stand = useStandIn();
const t = useTestApp(() => stand.env());

describe('online payments: settings and checkout', () => {
  it('keeps payment settings per company on both surfaces; fields not sent keep their values', async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'Other' });
    expect((await rest(t, a).get('/companies/me/payment_settings')).body.data).toEqual({ stripe_account_id: null, accept_card: true, accept_ach: false, deposit_percent: 0, pass_fees: false });
    const put = await rest(t, a).put('/companies/me/payment_settings', { stripe_account_id: 'acct_1A', accept_ach: true, deposit_percent: 30 });
    expect(put.status).toBe(200);
    expect(put.body.data).toEqual({ stripe_account_id: 'acct_1A', accept_card: true, accept_ach: true, deposit_percent: 30, pass_fees: false });
    const g = await gql(t, a, `mutation { updatePaymentSettings(input: { passFees: true }) { stripeAccountId acceptCard acceptAch depositPercent passFees } }`);
    expect(g.data.updatePaymentSettings).toEqual({ stripeAccountId: 'acct_1A', acceptCard: true, acceptAch: true, depositPercent: 30, passFees: true });
    expect((await gql(t, b, `{ paymentSettings { stripeAccountId } }`)).data.paymentSettings.stripeAccountId).toBeNull();
    const bad = await rest(t, a).put('/companies/me/payment_settings', { stripe_account_id: 'nope', deposit_percent: 101 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['deposit_percent', 'stripe_account_id']);
  });

  it('onboards through a Stripe Account Link, making the connected account first', async () => {
    const a = await createTenant(t);
    const res = await rest(t, a).post('/companies/me/payment_settings/onboarding_link');
    expect(res.status).toBe(200);
    const account = stand.calls.find((c) => c.path === '/v1/accounts')!;
    const link = stand.calls.find((c) => c.path === '/v1/account_links')!;
    const settings = (await rest(t, a).get('/companies/me/payment_settings')).body.data;
    expect(settings.stripe_account_id).toMatch(/^acct_/);
    expect(link.params).toMatchObject({ account: settings.stripe_account_id, type: 'account_onboarding' });
    expect(account.params.metadata).toEqual({ company_uuid: a.companyUuid });
    expect(res.body.data.url).toBe(`${stand.base}/setup/${settings.stripe_account_id}`);
  });

  it('opens a Checkout Session for the balance or part of it, in the company account, on both surfaces', async () => {
    const a = await createTenant(t);
    const account = await connect(t, a, { accept_ach: true });
    const inv = await makeInvoice(t, a, { line_items: [{ description: 'Work', quantity: 1, unit_price: 250.5 }] });
    const full = await checkout(t, a, inv.uuid);
    const call = stand.calls.find((c) => c.path === '/v1/checkout/sessions')!;
    expect(call.account).toBe(account);
    expect(call.params).toMatchObject({
      mode: 'payment',
      client_reference_id: inv.uuid,
      metadata: { company_uuid: a.companyUuid, invoice_uuid: inv.uuid },
      payment_intent_data: { metadata: { company_uuid: a.companyUuid, invoice_uuid: inv.uuid } },
      line_items: { 0: { quantity: '1', price_data: { currency: 'usd', unit_amount: '25050' } } },
      allowed_payment_method_types: { 0: 'card', 1: 'us_bank_account' },
    });
    // Back to the invoice's customer page.
    expect(call.params.cancel_url).toMatch(/\/p\/[A-Za-z0-9_-]{43}$/);
    expect(call.params.success_url).toBe(`${call.params.cancel_url}?paid=1`);
    expect(full).toEqual({ url: `${stand.base}/pay/${full.session_id}`, session_id: expect.stringMatching(/^cs_test_/), expires_at: expect.any(String), amount: 250.5, fee_amount: 0 });

    const part = await gql(t, a, `mutation($u: UUID!) { createInvoiceCheckout(invoiceUuid: $u, input: { amount: 50 }) { url sessionId expiresAt } }`, { u: inv.uuid });
    expect(part.errors).toBeUndefined();
    expect(stand.sessions.get(part.data.createInvoiceCheckout.sessionId).amount_total).toBe(5000);
  });

  it('refuses amounts out of range, drafts, paid and foreign invoices', async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'Other' });
    await connect(t, a);
    const inv = await makeInvoice(t, a);
    for (const amount of [0.99, 100.01]) {
      const res = await rest(t, a).post(`/invoices/${inv.uuid}/checkout`, { amount });
      expect(res.status).toBe(400);
      expect(res.body.error.details[0].field).toBe('amount');
    }
    const draft = await makeInvoice(t, a, { status: 'Draft' });
    expect((await rest(t, a).post(`/invoices/${draft.uuid}/checkout`)).status).toBe(400);
    await rest(t, a).post('/payments', { invoice_uuid: inv.uuid, payment_type: 'cash', amount: 100, payment_date: '2026-11-21' });
    expect((await rest(t, a).post(`/invoices/${inv.uuid}/checkout`)).status).toBe(400);
    await connect(t, b);
    expect((await rest(t, b).post(`/invoices/${draft.uuid}/checkout`)).status).toBe(404);
    expect(stand.calls.filter((c) => c.path === '/v1/checkout/sessions')).toHaveLength(0);
  });

  it("puts a Pay button on the invoice's customer page that opens Checkout for the balance", async () => {
    const a = await createTenant(t);
    const inv = await makeInvoice(t, a);
    const link = (await rest(t, a).post(`/invoices/${inv.uuid}/share_link`)).body.data.url as string;
    const path = new URL(link).pathname;
    // No connected account yet: no button.
    expect((await request(t.app).get(path)).text).not.toContain('Pay online');
    const account = await connect(t, a);
    await rest(t, a).post('/payments', { invoice_uuid: inv.uuid, payment_type: 'check', amount: 25.5, payment_date: '2026-11-21' });
    const page = await request(t.app).get(path);
    expect(page.text).toContain(`<form method="post" action="${path}/pay">`);
    expect(page.text).toContain('Pay $74.50');
    expect(page.headers['content-security-policy']).toContain("form-action 'self' https://checkout.stripe.com");
    const pay = await request(t.app).post(`${path}/pay`);
    expect(pay.status).toBe(303);
    const [call] = stand.calls.filter((c) => c.path === '/v1/checkout/sessions');
    expect(call).toMatchObject({ account, params: { client_reference_id: inv.uuid, line_items: { 0: { price_data: { unit_amount: '7450' } } } } });
    expect(new URL(call.params.cancel_url).pathname).toBe(path);
    expect(pay.headers.location).toBe(`${stand.base}/pay/${[...stand.sessions.keys()][0]}`);
    // Paid in full: no button.
    await rest(t, a).post('/payments', { invoice_uuid: inv.uuid, payment_type: 'cash', amount: 74.5, payment_date: '2026-11-21' });
    expect((await request(t.app).get(path)).text).not.toContain('Pay online');
    expect((await request(t.app).post(`${path}/pay`)).status).toBe(400);
  });

  it('lets owners and admins change the settings, office staff open checkouts, technicians neither', async () => {
    const a = await createTenant(t);
    await connect(t, a);
    const inv = await makeInvoice(t, a);
    const office = await keyFor(t, a, { role: 'office' });
    const tech = await keyFor(t, a, { role: 'technician' });
    const admin = await keyFor(t, a, { role: 'admin' });
    expect((await rest(t, office).get('/companies/me/payment_settings')).status).toBe(200);
    const denied = await rest(t, office).put('/companies/me/payment_settings', { deposit_percent: 10 });
    expect([denied.status, denied.body.error.code]).toEqual([403, 'PERMISSION_DENIED']);
    expect((await rest(t, admin).put('/companies/me/payment_settings', { deposit_percent: 10 })).status).toBe(200);
    expect((await rest(t, office).post(`/invoices/${inv.uuid}/checkout`)).status).toBe(200);
    expect((await rest(t, tech).post(`/invoices/${inv.uuid}/checkout`)).status).toBe(403);
    const g = await gql(t, tech, `mutation($u: UUID!) { createInvoiceCheckout(invoiceUuid: $u) { url } }`, { u: inv.uuid });
    expect(g.errors![0].extensions.code).toBe('PERMISSION_DENIED');
    const scoped = await keyFor(t, a, { role: 'owner', scopes: ['payments:read', 'invoices:read'] });
    expect((await rest(t, scoped).post(`/invoices/${inv.uuid}/checkout`)).status).toBe(403);
    expect(stand.calls.filter((c) => c.path === '/v1/checkout/sessions')).toHaveLength(1);
  });

  it('answers 409 PAYMENTS_NOT_CONFIGURED while the company has no connected account', async () => {
    const a = await createTenant(t);
    const inv = await makeInvoice(t, a);
    const res = await rest(t, a).post(`/invoices/${inv.uuid}/checkout`);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('PAYMENTS_NOT_CONFIGURED');
  });
});
