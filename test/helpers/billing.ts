import { rest, Tenant, TestApp } from './app';

// Small factories for invoice and payment specs: defaults plus overrides, through the REST API.

export async function makeCustomer(t: TestApp, tenant: Tenant, o: object = {}) {
  const res = await rest(t, tenant).post('/customers', { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', phone: '217-555-0101', ...o });
  if (res.status !== 200) throw new Error(`customer: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

export async function makeJob(t: TestApp, tenant: Tenant, o: Record<string, unknown> = {}) {
  const customerUuid = (o.customer_uuid as string | undefined) ?? (await makeCustomer(t, tenant)).uuid;
  const res = await rest(t, tenant).post('/jobs', { title: 'Fix boiler', estimated_amount: 500, ...o, customer_uuid: customerUuid });
  if (res.status !== 200) throw new Error(`job: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** An invoice on a new job (or the given one), with one $100 line unless told otherwise. */
export async function makeInvoice(t: TestApp, tenant: Tenant, o: Record<string, unknown> = {}) {
  const job = o.job_uuid ? (await rest(t, tenant).get(`/jobs/${o.job_uuid}`)).body.data : await makeJob(t, tenant);
  const res = await rest(t, tenant).post('/invoices', {
    job_uuid: job.uuid,
    customer_uuid: job.customer_uuid,
    due_date: '2099-12-31',
    line_items: [{ description: 'Work', quantity: 1, unit_price: 100 }],
    ...o,
  });
  if (res.status !== 200) throw new Error(`invoice: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

export async function pay(t: TestApp, tenant: Tenant, invoiceUuid: string, amount: number, o: object = {}) {
  return rest(t, tenant).post('/payments', { invoice_uuid: invoiceUuid, payment_type: 'cash', amount, payment_date: '2026-11-21', ...o });
}

export const fields = (res: { body: { error?: { details?: Array<{ field: string }> } } }) => (res.body.error?.details ?? []).map((d) => d.field);

/** One record of every resource of a company, through the REST API: the ids a route or field can take. */
export async function makeEverything(t: TestApp, tenant: Tenant) {
  const r = rest(t, tenant);
  const ok = async (res: { status: number; body: any }, what: string) => {
    if (res.status !== 200) throw new Error(`${what}: ${JSON.stringify(res.body)}`);
    return res.body.data;
  };
  const customer = await makeCustomer(t, tenant);
  const location = await ok(await r.post('/locations', { name: 'Main', address1: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' }), 'location');
  const template = await ok(await r.post('/templates', { name: 'Drain clean', pricing_type: 'flat', base_price: 150, addons: [{ name: 'Camera', price: 99.5 }] }), 'template');
  const estimate = await ok(await r.post('/estimates', { customer_uuid: customer.uuid, template_uuid: template.uuid }), 'estimate');
  const job = await makeJob(t, tenant, { customer_uuid: customer.uuid });
  const invoice = await makeInvoice(t, tenant, { job_uuid: job.uuid });
  const payment = await ok(await pay(t, tenant, invoice.uuid, 10), 'payment');
  const users = (await r.get('/users')).body.data.users as Array<{ id: string }>;
  // Recurring work (docs/recurring-work.md): the job's schedule and a service agreement, far in the future.
  const schedule = await ok(await r.put(`/jobs/${job.uuid}/schedule`, { rrule: 'FREQ=WEEKLY', starts_on: '2031-01-06', all_day: true, horizon_days: 7 }), 'schedule');
  const recurring_invoice = await ok(
    await r.post('/recurring_invoices', { customer_uuid: customer.uuid, job_uuid: job.uuid, rrule: 'FREQ=MONTHLY', starts_on: '2031-01-01', line_items: [{ description: 'Plan', unit_price: 25 }] }),
    'recurring invoice',
  );
  return { customer, location, template, estimate, job, invoice, payment, user: users[0], schedule, recurring_invoice };
}
