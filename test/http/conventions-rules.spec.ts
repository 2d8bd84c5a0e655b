import request from 'supertest';
import { createTenant, gql, rest, Tenant, TestApp, useTestApp } from '../helpers/app';
import { admin } from '../helpers/cli';

// Conventions found wanting in an audit against docs/conventions.md, §3, §12 and §13, on both surfaces.

const t = useTestApp();

async function customer(t: TestApp, a: Tenant) {
  return (await rest(t, a).post('/customers', { first_name: 'Ada', last_name: 'Lovelace' })).body.data;
}

const CREATE_CUSTOMER = `mutation($i: CustomerCreateInput!) { createCustomer(input: $i) { uuid } }`;

describe('NUL characters in JSON object fields', () => {
  it('are refused with 400 naming the field, never a 500, on both surfaces', async () => {
    const a = await createTenant(t);
    // Named by the path that holds it (a key by the object that holds it).
    const cases: Array<[object, string, string]> = [
      [{ note: 'a\u0000b' }, 'internal_flags.note', 'must not contain NUL characters'],
      [{ ['k\u0000']: 1 }, 'internal_flags', 'must not have a key with NUL characters'],
      [{ deep: [{ x: ['\u0000'] }] }, 'internal_flags.deep[0].x[0]', 'must not contain NUL characters'],
    ];
    for (const [flags, field, message] of cases) {
      const res = await rest(t, a).post('/customers', { first_name: 'A', last_name: 'B', internal_flags: flags });
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([{ field, message: `${field} ${message}` }]);
    }
    const c = await customer(t, a);
    const put = await rest(t, a).put(`/customers/${c.uuid}`, { internal_flags: { a: '\u0000' } });
    expect(put.status).toBe(400);
    expect(put.body.error.details[0].field).toBe('internal_flags.a');
    const loc = await rest(t, a).post('/locations', { name: 'N', address1: '1 A St', city: 'X', state: 'TX', zip: '75001', service_types_offered: ['a\u0000'] });
    expect(loc.status).toBe(400);
    expect(loc.body.error.details[0].field).toBe('service_types_offered[0]');

    const g = await gql(t, a, CREATE_CUSTOMER, { i: { firstName: 'A', lastName: 'B', internalFlags: { a: 'x\u0000' } } });
    expect(g.errors?.[0].extensions).toEqual({ code: 'VALIDATION_ERROR', details: [{ field: 'internalFlags.a', message: 'internalFlags.a must not contain NUL characters' }] });
    expect((await rest(t, a).get('/customers')).body.data.pagination.total).toBe(1);
  });
});

describe('GraphQL input values of the wrong shape', () => {
  it('variables that do not fit their types: 400 VALIDATION_ERROR naming the GraphQL field', async () => {
    const a = await createTenant(t);
    const cases: Array<[object, string, string]> = [
      [{ i: { firstName: 'A', lastName: 'B', isVip: 'yes' } }, 'isVip', 'isVip is invalid'],
      [{ i: { firstName: 'A', lastName: 'B', bogus: 1 } }, 'bogus', 'bogus is not a known field'],
      [{ i: { firstName: 'A' } }, 'lastName', 'lastName is required'],
      [{ i: { firstName: 'A', lastName: 'B', customerType: 'Residential' } }, 'customerType', 'customerType is invalid'],
      [{}, 'input', 'input is required'],
    ];
    for (const [vars, field, message] of cases) {
      const res = await request(t.app).post('/graphql').set('Authorization', `Bearer ${a.key}`).send({ query: CREATE_CUSTOMER, variables: vars });
      expect(res.status).toBe(400);
      const e = res.body.errors[0];
      expect(e.extensions.code).toBe('VALIDATION_ERROR');
      expect(e.extensions.details).toHaveLength(1);
      expect(e.extensions.details[0].field).toBe(field);
      expect(e.extensions.details[0].message.startsWith(message)).toBe(true);
      expect(e.message).toBe(e.extensions.details[0].message);
    }
    // A scalar variable is named by the argument it is passed to; list items by their index.
    const bad = await gql(t, a, `query($u: UUID!) { job(uuid: $u) { uuid } }`, { u: 'not-a-uuid' });
    expect(bad.errors?.[0].extensions.details?.[0].field).toBe('uuid');
    const nested = await gql(t, a, `query($p: InvoicePreviewInput!) { previewInvoice(input: $p) { preview { subtotal } } }`, {
      p: { lineItems: [{ unitPrice: 1 }, { unitPrice: 'x' }] },
    });
    expect(nested.errors?.[0].extensions.details?.[0].field).toBe('lineItems[1].unitPrice');
    expect((await rest(t, a).get('/customers')).body.data.pagination.total).toBe(0);
  });

  it('values written in the document: 400 VALIDATION_ERROR naming the field too', async () => {
    const a = await createTenant(t);
    const cases: Array<[string, string]> = [
      [`mutation { createCustomer(input: {firstName: "A", lastName: "B", isVip: "yes"}) { uuid } }`, 'isVip'],
      [`mutation { createCustomer(input: {firstName: "A", lastName: "B", customerType: Residential}) { uuid } }`, 'customerType'],
      [`mutation { createCustomer(input: {firstName: "A"}) { uuid } }`, 'lastName'],
      [`mutation { createCustomer { uuid } }`, 'input'],
      [`{ job(uuid: "nope") { uuid } }`, 'uuid'],
      [`{ jobs(customerUuid: "nope") { items { uuid } } }`, 'customerUuid'],
    ];
    for (const [query, field] of cases) {
      const res = await request(t.app).post('/graphql').set('Authorization', `Bearer ${a.key}`).send({ query });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].extensions.code).toBe('VALIDATION_ERROR');
      expect(res.body.errors[0].extensions.details?.[0].field).toBe(field);
    }
  });
});

describe('403 on GraphQL', () => {
  it('an add-on refusal answers GraphQL with HTTP 403 as well as ADDON_REQUIRED', async () => {
    const a = await createTenant(t, { addons: [] });
    const res = await request(t.app)
      .post('/graphql')
      .set('Authorization', `Bearer ${a.key}`)
      .send({ query: `mutation { updateNumbering(input: {invoice: {prefix: "X-"}}) { invoice { prefix } } }` });
    expect(res.status).toBe(403);
    expect(res.body.errors[0].extensions).toEqual({ code: 'ADDON_REQUIRED' });
    // A refusal of another kind keeps GraphQL's usual 200.
    const missing = await gql(t, a, `{ job(uuid: "00000000-0000-4000-8000-000000000000") { uuid } }`);
    expect(missing.errors?.[0].extensions.code).toBe('NOT_FOUND');
  });
});

describe('jobs', () => {
  it('an empty search is no search, as on customers, on both surfaces', async () => {
    const a = await createTenant(t);
    const c = await customer(t, a);
    await rest(t, a).post('/jobs', { customer_uuid: c.uuid, title: 'Fix the sink' });
    for (const path of ['/jobs?search=', '/customers?search=']) {
      const res = await rest(t, a).get(path);
      expect(res.status).toBe(200);
      expect(res.body.data.pagination.total).toBe(1);
    }
    const g = await gql(t, a, `{ jobs(search: "") { pagination { total } } }`);
    expect(g.data.jobs.pagination.total).toBe(1);
  });

  it('the time-order error names the GraphQL field and no REST names on GraphQL', async () => {
    const a = await createTenant(t);
    const c = await customer(t, a);
    const g = await gql(t, a, `mutation($i: JobCreateInput!) { createJob(input: $i) { uuid } }`, {
      i: { customerUuid: c.uuid, title: 'X', scheduledTimeStart: '10:00', scheduledTimeEnd: '09:59' },
    });
    const d = g.errors?.[0].extensions.details?.[0];
    expect(d?.field).toBe('scheduledTimeEnd');
    expect(d?.message).not.toMatch(/scheduled_time/);
    const r = await rest(t, a).post('/jobs', { customer_uuid: c.uuid, title: 'X', scheduled_time_start: '10:00', scheduled_time_end: '09:59' });
    expect(r.body.error.details[0].field).toBe('scheduled_time_end');
    expect(r.body.error.details[0].message).toMatch(/^scheduled_time_end /);
    expect(r.body.error.details[0].message).not.toMatch(/scheduledTime/);
  });
});

describe('admin CLI ids', () => {
  it('an id that is not a UUID is a NOT_FOUND or VALIDATION_ERROR object, never a database error', async () => {
    const a = await createTenant(t);
    const revoke = await admin(t, 'revoke-key', '--key', 'nope');
    expect(revoke).toEqual({ code: 1, out: { error: { code: 'NOT_FOUND', message: 'API key not found' } } });
    const key = await admin(t, 'create-key', '--company', a.companyUuid, '--user', 'nope');
    expect(key).toEqual({ code: 1, out: { error: { code: 'VALIDATION_ERROR', message: expect.stringMatching(/^user /) } } });
    const company = await admin(t, 'list-keys', '--company', 'a'.repeat(36));
    expect(company).toEqual({ code: 1, out: { error: { code: 'NOT_FOUND', message: 'Company not found' } } });
  });
});

describe('REST field names in errors of PUT and DELETE', () => {
  it('deleting the primary location: 400 naming is_primary (REST) and isPrimary (GraphQL)', async () => {
    const a = await createTenant(t);
    const loc = (await rest(t, a).post('/locations', { name: 'Shop', address1: '1 Main St', city: 'X', state: 'TX', zip: '75001', is_primary: true })).body.data;
    const res = await rest(t, a).delete(`/locations/${loc.uuid}`);
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ field: 'is_primary', message: expect.stringMatching(/^is_primary /) }]);
    const g = await gql(t, a, `mutation($u: UUID!) { deleteLocation(uuid: $u) { message } }`, { u: loc.uuid });
    expect(g.errors?.[0].extensions.details?.[0].field).toBe('isPrimary');
  });
});

describe('one primary location under concurrency', () => {
  it('concurrent creates and updates that make locations primary leave exactly one primary, and all succeed', async () => {
    const a = await createTenant(t);
    const body = (i: number) => ({ name: `L${i}`, address1: '1 Main St', city: 'X', state: 'TX', zip: '75001', is_primary: true });
    const made = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => rest(t, a).post('/locations', body(i))));
    expect(made.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const again = await Promise.all(made.map((r) => rest(t, a).put(`/locations/${r.body.data.uuid}`, { is_primary: true })));
    expect(again.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const list = (await rest(t, a).get('/locations')).body.data.locations;
    expect(list.filter((l: { is_primary: boolean }) => l.is_primary)).toHaveLength(1);
  });
});

describe('GraphQL Job relations', () => {
  it('Job.assignedUser names the same user as Job.assignedTo (REST: assigned_user), null when none', async () => {
    const a = await createTenant(t);
    const c = await customer(t, a);
    const j = (await rest(t, a).post('/jobs', { customer_uuid: c.uuid, title: 'X', assigned_to_user_id: a.userId })).body.data;
    const none = (await rest(t, a).post('/jobs', { customer_uuid: c.uuid, title: 'Y' })).body.data;
    const q = `query($u: UUID!) { job(uuid: $u) { assignedTo { id } assignedUser { id firstName lastName } } }`;
    const g = await gql(t, a, q, { u: j.uuid });
    expect(g.data.job.assignedUser).toEqual({ id: a.userId, firstName: j.assigned_user.first_name, lastName: j.assigned_user.last_name });
    expect(g.data.job.assignedTo).toEqual({ id: a.userId });
    expect((await gql(t, a, q, { u: none.uuid })).data.job).toEqual({ assignedTo: null, assignedUser: null });
  });
});

describe('customer type filter', () => {
  it('takes one value or a comma-separated list (any matches), case-insensitively; GraphQL takes one or a list', async () => {
    const a = await createTenant(t);
    await rest(t, a).post('/customers', { first_name: 'R', last_name: 'One' });
    await rest(t, a).post('/customers', { first_name: 'C', last_name: 'Two', customer_type: 'Commercial' });
    await rest(t, a).post('/customers', { first_name: 'V', last_name: 'Three', is_vip: true });
    const names = async (q: string) => ((await rest(t, a).get(`/customers?${q}`)).body.data.customers as Array<{ first_name: string }>).map((c) => c.first_name).sort();
    expect(await names('filter=vip')).toEqual(['V']);
    expect(await names('filter=commercial,VIP')).toEqual(['C', 'V']);
    expect(await names('filter=residential')).toEqual(['R', 'V']);
    expect(await names('filter=all,vip')).toEqual(['C', 'R', 'V']);
    expect((await rest(t, a).get('/customers?filter=vip,gold')).status).toBe(400);
    const one = await gql(t, a, `{ customers(filter: VIP) { items { firstName } } }`);
    expect(one.data.customers.items).toEqual([{ firstName: 'V' }]);
    const two = await gql(t, a, `{ customers(filter: [COMMERCIAL, VIP]) { pagination { total } } }`);
    expect(two.data.customers.pagination.total).toBe(2);
  });
});
