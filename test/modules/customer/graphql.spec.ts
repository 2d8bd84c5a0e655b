import { createTenant, gql, rest, useTestApp } from '../../helpers/app';

const t = useTestApp();

const CREATE = `mutation($input: CustomerCreateInput!) { createCustomer(input: $input) { uuid firstName lastName phone email customerType isVip onMyWayNotifyVia createdAt deletedAt } }`;

describe('GraphQL customers and locations', () => {
  it('creates, reads, lists, updates and deletes a customer with the same rules as REST', async () => {
    const a = await createTenant(t);
    const created = await gql(t, a, CREATE, { input: { firstName: ' Ada ', lastName: 'L', phone: '217.555.0101', email: 'A@B.CO', customerType: 'COMMERCIAL', onMyWayNotifyVia: 'SMS' } });
    expect(created.errors).toBeUndefined();
    const c = created.data.createCustomer;
    expect(c).toMatchObject({ firstName: 'Ada', phone: '217-555-0101', email: 'a@b.co', customerType: 'COMMERCIAL', isVip: false, onMyWayNotifyVia: 'SMS', deletedAt: null });
    const viaRest = (await rest(t, a).get(`/customers/${c.uuid}`)).body.data;
    expect(viaRest).toMatchObject({ customer_type: 'Commercial', on_my_way_notify_via: 'sms' });

    const list = await gql(t, a, `{ customers(filter: COMMERCIAL, search: "ada", limit: 500) { items { uuid } pagination { page limit total totalPages } } }`);
    expect(list.data.customers).toEqual({ items: [{ uuid: c.uuid }], pagination: { page: 1, limit: 100, total: 1, totalPages: 1 } });

    const upd = await gql(t, a, `mutation($u: UUID!) { updateCustomer(uuid: $u, input: { email: null, notes: "" }) { email notes firstName } }`, { u: c.uuid });
    expect(upd.data.updateCustomer).toEqual({ email: null, notes: null, firstName: 'Ada' });

    const bad = await gql(t, a, `mutation($u: UUID!) { updateCustomer(uuid: $u, input: { firstName: null }) { uuid } }`, { u: c.uuid });
    expect(bad.errors![0].extensions.code).toBe('VALIDATION_ERROR');
    expect(bad.errors![0].extensions.details![0].field).toBe('firstName');

    const del = await gql(t, a, `mutation($u: UUID!) { deleteCustomer(uuid: $u) { message } }`, { u: c.uuid });
    expect(typeof del.data.deleteCustomer.message).toBe('string');
    const gone = await gql(t, a, `query($u: UUID!) { customer(uuid: $u) { uuid } }`, { u: c.uuid });
    expect(gone.errors![0].extensions.code).toBe('NOT_FOUND');
    const withDeleted = await gql(t, a, `{ customers(includeDeleted: true) { items { uuid deletedAt } } }`);
    expect(withDeleted.data.customers.items[0].deletedAt).not.toBeNull();
  });

  it('refuses invalid input naming the field', async () => {
    const a = await createTenant(t);
    const res = await gql(t, a, CREATE, { input: { firstName: 'A', lastName: 'B', phone: '12' } });
    expect(res.errors![0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'phone' }] });
    const typeErr = await gql(t, a, CREATE, { input: { firstName: 'A', lastName: 'B', isVip: 'yes' } });
    expect(typeErr.errors![0].extensions.code).toBe('VALIDATION_ERROR');
  });

  it('resolves primaryServiceLocation and keeps companies apart', async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'Other' });
    const loc = await gql(t, a, `mutation { createLocation(input: { name: "Shop", address1: "1 St", city: "X", state: "ny", zip: "10001", isPrimary: true }) { uuid state isActive isPrimary timezone } }`);
    expect(loc.data.createLocation).toMatchObject({ state: 'NY', isActive: true, isPrimary: true, timezone: 'America/New_York' });
    const luuid = loc.data.createLocation.uuid;
    const c = await gql(t, a, CREATE.replace('deletedAt }', 'deletedAt primaryServiceLocation { uuid name } }'), { input: { firstName: 'A', lastName: 'B', primaryServiceLocationUuid: luuid } });
    expect(c.data.createCustomer.primaryServiceLocation).toEqual({ uuid: luuid, name: 'Shop' });

    const foreign = await gql(t, b, CREATE, { input: { firstName: 'A', lastName: 'B', primaryServiceLocationUuid: luuid } });
    expect(foreign.errors![0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'primaryServiceLocationUuid' }] });
    const peek = await gql(t, b, `query($u: UUID!) { customer(uuid: $u) { uuid } }`, { u: c.data.createCustomer.uuid });
    expect(peek.errors![0].extensions.code).toBe('NOT_FOUND');
    const del = await gql(t, a, `mutation($u: UUID!) { deleteLocation(uuid: $u) { message } }`, { u: luuid });
    expect(del.errors![0].extensions.code).toBe('VALIDATION_ERROR');
  });

  it('serves the company, users and user', async () => {
    const a = await createTenant(t);
    const res = await gql(t, a, `{ company { uuid name email } users { items { id firstName lastName } pagination { total } } }`);
    expect(res.data.company).toMatchObject({ uuid: a.companyUuid, name: 'Acme Plumbing' });
    expect(res.data.users.items).toEqual([{ id: a.userId, firstName: 'Account', lastName: 'Owner' }]);
    const one = await gql(t, a, `query($id: UUID!) { user(id: $id) { id } }`, { id: a.userId });
    expect(one.data.user.id).toBe(a.userId);
    const b = await createTenant(t, { name: 'B' });
    expect((await gql(t, b, `query($id: UUID!) { user(id: $id) { id } }`, { id: a.userId })).errors![0].extensions.code).toBe('NOT_FOUND');
    const restUsers = await rest(t, a).get('/users');
    expect(restUsers.body.data.users[0]).toMatchObject({ id: a.userId, first_name: 'Account', last_name: 'Owner' });
    expect((await rest(t, b).get(`/users/${a.userId}`)).status).toBe(404);
    expect((await rest(t, a).get('/companies/me')).body.data).toEqual({
      uuid: a.companyUuid, name: 'Acme Plumbing', email: 'office@acme.example', phone: null, address_line_1: null, address_line_2: null, city: null, state: null, postal_code: null, country: null,
      settings: { prevent_double_booking: true },
    });
  });
});
