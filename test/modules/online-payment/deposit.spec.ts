import request from 'supertest';
import { createTenant, rest, useTestApp } from '../../helpers/app';
import { makeCustomer } from '../../helpers/billing';
import { makeTemplate } from '../../helpers/estimate-fixtures';
import { connect, deliver, useStandIn } from '../../helpers/online-payments';
import { passedFeeCents } from '../../../src/modules/online-payment/fees';

const stand = useStandIn();
const t = useTestApp(() => stand.env());

async function sharedEstimate(a: Awaited<ReturnType<typeof createTenant>>) {
  const customer = await makeCustomer(t, a);
  // A total whose 30% is not a whole number of cents (rounded half up).
  const template = await makeTemplate(t, a, { name: 'Water heater', pricing_type: 'flat', base_price: 111.11, tax_rate: 7.25, addons: [{ id: 'haul', name: 'Haul away', price: 33.35 }] });
  const res = await rest(t, a).post('/estimates', { customer_uuid: customer.uuid, template_uuid: template.uuid, quantity: 3, selected_addons: ['haul'] });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  const est = res.body.data;
  const link = (await rest(t, a).post(`/estimates/${est.uuid}/share_link`)).body.data.url as string;
  return { est, path: new URL(link).pathname };
}

describe('deposits', () => {
  it.each([false, true])('accepting on the page asks the deposit, paying it is recorded, and invoicing the job deducts it to the cent (pass_fees %s)', async (passFees) => {
    const a = await createTenant(t);
    await connect(t, a, { deposit_percent: 30, pass_fees: passFees });
    const { est, path } = await sharedEstimate(a);
    expect(est.total_amount).toBeGreaterThan(0);
    const accept = await request(t.app).post(`${path}/accept`).type('form').send({ signer_name: 'Ada Lovelace' });
    expect(accept.status).toBe(303);
    // Straight to Stripe for the deposit.
    const [session] = [...stand.sessions.values()];
    expect(accept.headers.location).toBe(session.url);
    const deposits = (await rest(t, a).get(`/invoices`)).body.data.invoices;
    expect(deposits).toHaveLength(1);
    const deposit = (await rest(t, a).get(`/invoices/${deposits[0].uuid}`)).body.data;
    const expected = Math.round(est.total_amount * 30) / 100;
    expect(deposit).toMatchObject({ invoice_type: 'Partial', estimate_uuid: est.uuid, job_uuid: null, total_amount: expected, status: 'Pending' });
    // With pass_fees the customer pays the card fee on top; the deposit invoice gets its own amount.
    const fee = passFees ? passedFeeCents(Math.round(expected * 100), { card: true, ach: false }) : 0;
    expect(session.amount_total).toBe(Math.round(expected * 100) + fee);
    expect(new URL(session.cancel_url).pathname).toBe(path);
    expect((await rest(t, a).get(`/estimates/${est.uuid}`)).body.data.status).toBe('Accepted');

    stand.pay(session.id);
    expect((await deliver(t, stand, stand.sessionEvent('checkout.session.completed', session.id))).status).toBe(200);
    expect((await rest(t, a).get(`/invoices/${deposit.uuid}`)).body.data).toMatchObject({ status: 'Paid', paid_amount: expected });

    const job = (await rest(t, a).post(`/estimates/${est.uuid}/convert_to_job`)).body.data.job;
    const final = await rest(t, a).post(`/jobs/${job.uuid}/invoice`);
    expect(final.status).toBe(200);
    const lines = final.body.data.line_items as Array<{ description: string; line_total: number }>;
    expect(lines[lines.length - 1]).toMatchObject({ description: `Deposit received (${deposit.invoice_number})`, line_total: -expected });
    expect(Math.round(final.body.data.total_amount * 100)).toBe(Math.round(est.total_amount * 100) - Math.round(expected * 100));
  });

  it('asks no deposit when deposit_percent is 0, and an unpaid deposit is not deducted', async () => {
    const a = await createTenant(t);
    await connect(t, a);
    const { path } = await sharedEstimate(a);
    const accept = await request(t.app).post(`${path}/accept`).type('form').send({ signer_name: 'Ada' });
    expect(accept.headers.location).toBe(`${path}?done=accepted`);
    expect((await rest(t, a).get(`/invoices`)).body.data.invoices).toHaveLength(0);

    await rest(t, a).put('/companies/me/payment_settings', { deposit_percent: 50 });
    const second = await sharedEstimate(a);
    await request(t.app).post(`${second.path}/accept`).type('form').send({ signer_name: 'Ada' });
    const job = (await rest(t, a).post(`/estimates/${second.est.uuid}/convert_to_job`)).body.data.job;
    const final = (await rest(t, a).post(`/jobs/${job.uuid}/invoice`)).body.data;
    expect(final.total_amount).toBe(second.est.total_amount);
  });
});
