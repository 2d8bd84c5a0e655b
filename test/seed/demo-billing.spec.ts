import { rest, useTestApp } from '../helpers/app';
import { seedDemoIfEmpty } from '../../src/seed/demo';

const t = useTestApp();

describe('demo seed: billing', () => {
  it('makes an invoice for the demo job with a deposit paid, through the services', async () => {
    const seeded = await seedDemoIfEmpty(t.orm);
    expect(seeded).not.toBeNull();
    const key = seeded!.apiKey;
    const [invoice] = (await rest(t, key).get('/invoices')).body.data.invoices;
    expect(invoice).toMatchObject({ invoice_number: 'INV-0001', subtotal: 1970, tax_amount: 123.13, total_amount: 2093.13, paid_amount: 500, balance_amount: 1593.13, status: 'Pending' });
    const [payment] = (await rest(t, key).get(`/payments?invoice_uuid=${invoice.uuid}`)).body.data.payments;
    expect(payment).toMatchObject({ amount: 500, payment_type: 'credit_card', status: 'Completed' });
    expect((await rest(t, key).get(`/jobs/${invoice.job_uuid}`)).body.data.status).toBe('Invoiced');
  });
});
