import request from 'supertest';
import { createTenant, gql, rest, useTestApp } from '../../helpers/app';
import { makeInvoice } from '../../helpers/billing';
import { WEBHOOK } from '../../helpers/online-payments';

// No STRIPE_SECRET_KEY: online payments are off everywhere.
const t = useTestApp({ STRIPE_SECRET_KEY: '', STRIPE_WEBHOOK_SECRET: '' });

describe('online payments without configuration', () => {
  it('answers 409 PAYMENTS_NOT_CONFIGURED on every route and field, and the webhook records nothing', async () => {
    const a = await createTenant(t);
    const inv = await makeInvoice(t, a);
    const pay = await rest(t, a).post('/payments', { invoice_uuid: inv.uuid, payment_type: 'cash', amount: 10, payment_date: '2026-11-21' });
    const calls = [
      rest(t, a).get('/companies/me/payment_settings'),
      rest(t, a).put('/companies/me/payment_settings', { accept_ach: true }),
      rest(t, a).post('/companies/me/payment_settings/onboarding_link'),
      rest(t, a).post(`/invoices/${inv.uuid}/checkout`),
      rest(t, a).post(`/payments/${pay.body.data.uuid}/refund`),
      request(t.app).post(WEBHOOK).set('Content-Type', 'application/json').send('{}'),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('PAYMENTS_NOT_CONFIGURED');
    }
    const g = await gql(t, a, `mutation($u: UUID!) { createInvoiceCheckout(invoiceUuid: $u) { url } }`, { u: inv.uuid });
    expect(g.errors![0].extensions.code).toBe('PAYMENTS_NOT_CONFIGURED');
  });
});
