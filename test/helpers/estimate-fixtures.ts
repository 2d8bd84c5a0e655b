import { rest, Tenant, TestApp } from './app';

// Small factories for the estimate, template and numbering specs: defaults plus overrides.

export async function makeCustomer(t: TestApp, tenant: Tenant, o: object = {}) {
  const res = await rest(t, tenant).post('/customers', { first_name: 'Ada', last_name: 'Lovelace', ...o });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.data;
}

export async function makeTemplate(t: TestApp, tenant: Tenant, o: object = {}) {
  const res = await rest(t, tenant).post('/templates', {
    name: 'Water heater install',
    pricing_type: 'flat',
    base_price: 1000,
    addons: [
      { id: 'haul', name: 'Haul away', price: 75 },
      { id: 'permit', name: 'Permit', price: 49.99 },
    ],
    tax_rate: 8.25,
    ...o,
  });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.data;
}

export const tiered = { name: 'AC tune-up', pricing_type: 'tiered', base_price: null, tiers: { good: 89, better: 129.5, best: 199 }, addons: [], tax_rate: 0 };

export async function makeJob(t: TestApp, tenant: Tenant, customerUuid: string, o: object = {}) {
  const res = await rest(t, tenant).post('/jobs', { customer_uuid: customerUuid, title: 'Replace heater', ...o });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.data;
}

export async function makeLocation(t: TestApp, tenant: Tenant, o: object = {}) {
  const res = await rest(t, tenant).post('/locations', { name: 'Main', address1: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701', ...o });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.data;
}

export async function makeEstimate(t: TestApp, tenant: Tenant, o: object = {}) {
  const customer = await makeCustomer(t, tenant);
  const template = await makeTemplate(t, tenant);
  const res = await rest(t, tenant).post('/estimates', { customer_uuid: customer.uuid, template_uuid: template.uuid, ...o });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return { estimate: res.body.data, customer, template };
}
