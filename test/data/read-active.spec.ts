import { hashApiKey } from '../../src/auth/api-key';
import { contextFor } from '../../src/auth/authenticate';
import { findActive, readActive } from '../../src/data/crud';
import { ApiKey } from '../../src/modules/api-key/api-key.entity';
import { Customer } from '../../src/modules/customer/customer.entity';
import { toRest } from '../../src/rest/case-map';
import { Company } from '../../src/modules/company/company.entity';
import { createTenant, gql, rest, Tenant, useTestApp } from '../helpers/app';

// readActive (the one-record read of GET /customers/{uuid}) gives what findActive, the ORM path,
// gives: the same fields of the same record, and the same NOT_FOUND; readCompany (the company
// query, GET /companies/me) what the managed company gives.
const t = useTestApp();

async function ctxOf(tenant: Tenant) {
  const em = t.orm.em.fork({ clear: true });
  const key = await em.findOne(ApiKey, { keyHash: hashApiKey(tenant.key) }, { populate: ['company', 'user'], filters: false });
  return contextFor(em, key!, 'test');
}

async function outcome(read: () => Promise<Customer>) {
  try {
    return { record: toRest(Customer, await read()) };
  } catch (e) {
    return { error: (e as { code?: string; message?: string }).code + ' ' + (e as Error).message };
  }
}

it('gives the same record or the same refusal as findActive', async () => {
  const a = await createTenant(t);
  const b = await createTenant(t);
  const location = await rest(t, a).post('/locations').send({ name: 'Depot', address1: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' });
  expect(location.status).toBe(200);
  const full = await rest(t, a).post('/customers').send({
    first_name: ' Ada ', last_name: 'Lovelace', company_name: 'Engines Ltd', email: 'ADA@Example.com', phone: '(217) 555-0100', customer_type: 'Commercial', is_vip: true,
    physical_address1: '1 Loop Rd', physical_city: 'Springfield', physical_state: 'IL', physical_zip: '62701', billing_address1: 'PO Box 9', billing_city: 'Peoria',
    billing_state: 'IL', billing_zip: '61602', notes: 'gate code 42', primary_service_location_uuid: location.body.data.uuid,
  });
  expect(full.status).toBe(200);
  const plain = await rest(t, a).post('/customers').send({ first_name: 'Bo', last_name: 'Plain' });
  const deleted = await rest(t, a).post('/customers').send({ first_name: 'Gone', last_name: 'Away' });
  expect((await rest(t, a).delete(`/customers/${deleted.body.data.uuid}`)).status).toBe(200);
  const others = await rest(t, b).post('/customers').send({ first_name: 'Other', last_name: 'Company' });

  const ids = [full.body.data.uuid, full.body.data.uuid.toUpperCase(), plain.body.data.uuid, deleted.body.data.uuid, others.body.data.uuid, 'not-a-uuid', '00000000-0000-4000-8000-000000000000'];
  for (const id of ids) {
    const lean = await outcome(async () => readActive(await ctxOf(a), Customer, id, 'Customer'));
    const orm = await outcome(async () => findActive(await ctxOf(a), Customer, id, 'Customer'));
    expect(lean).toEqual(orm);
  }
  // And the REST answer is that record.
  const got = await rest(t, a).get(`/customers/${full.body.data.uuid}`);
  expect(got.body.data).toEqual((await outcome(async () => findActive(await ctxOf(a), Customer, full.body.data.uuid, 'Customer'))).record);
  expect(got.body.data.primary_service_location_uuid).toBe(location.body.data.uuid);
});

it('the company query and GET /companies/me answer from the key row as from the managed company', async () => {
  const a = await createTenant(t, { name: 'Snapshot Heating' });
  await t.orm.em.fork().getConnection().execute(`update companies set phone = '217-555-0199', city = 'Peoria', address_line1 = '9 Oak Ave', prevent_double_booking = true where uuid = ?`, [a.companyUuid]);
  const fields = 'uuid id name email phone addressLine1 addressLine2 city state postalCode country settings { preventDoubleBooking }';
  const query = await gql(t, a, `{ company { ${fields} } }`);
  expect(query.errors).toBeUndefined();
  // A mutation answers with the managed company (made by the mutation's plugin); no change here.
  const managed = await gql(t, a, `mutation { updateCompanySettings(input: {}) { ${fields} } }`);
  expect(managed.errors).toBeUndefined();
  expect(query.data.company).toEqual(managed.data.updateCompanySettings);
  expect(query.data.company).toMatchObject({ name: 'Snapshot Heating', phone: '217-555-0199', city: 'Peoria', settings: { preventDoubleBooking: true } });
  const me = await rest(t, a).get('/companies/me');
  const em = t.orm.em.fork();
  expect(me.body.data).toEqual(toRest(Company, await em.findOneOrFail(Company, { uuid: a.companyUuid }, { filters: false })));
});
