import { createTenant, gql, rest, useTestApp } from '../../helpers/app';
import { keyFor } from '../../helpers/people';

const t = useTestApp();

describe('users over the API', () => {
  it('creates, lists, updates and deactivates users (REST); a deactivated user’s key stops at once', async () => {
    const owner = await createTenant(t);
    const created = await rest(t, owner).post('/users', { first_name: 'Olive', last_name: 'Office', email: 'Olive@Acme.example', role: 'office', phone: '555-010-0000' });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ first_name: 'Olive', email: 'olive@acme.example', role: 'office', active: true });
    const id = created.body.data.id;
    expect((await rest(t, owner).get(`/users/${id}`)).body.data.role).toBe('office');
    expect((await rest(t, owner).get('/users')).body.data.users.map((u: { role: string }) => u.role).sort()).toEqual(['office', 'owner']);
    // Email unique per company.
    const again = await rest(t, owner).post('/users', { first_name: 'O', last_name: 'Two', email: 'olive@acme.example' });
    expect(again.status).toBe(400);
    expect(again.body.error.details[0].field).toBe('email');

    const olive = await rest(t, owner).post('/api_keys', { user_id: id, name: 'olive' });
    expect(olive.status).toBe(200);
    const oliveKey = olive.body.data.secret;
    expect((await rest(t, oliveKey).get('/customers')).status).toBe(200);
    const put = await rest(t, owner).put(`/users/${id}`, { role: 'technician' });
    expect(put.body.data.role).toBe('technician');
    const del = await rest(t, owner).delete(`/users/${id}`);
    expect(del.status).toBe(200);
    expect((await rest(t, owner).get(`/users/${id}`)).body.data.active).toBe(false);
    expect((await rest(t, oliveKey).get('/jobs')).status).toBe(401);
    // Reactivated: the key works again.
    expect((await rest(t, owner).put(`/users/${id}`, { active: true })).status).toBe(200);
    expect((await rest(t, oliveKey).get('/jobs')).status).toBe(200);
  });

  it('keeps one active owner; an admin may not change or make an owner; office staff may not manage users', async () => {
    const owner = await createTenant(t);
    const demote = await rest(t, owner).put(`/users/${owner.userId}`, { role: 'admin' });
    expect(demote.status).toBe(400);
    expect(demote.body.error.details[0].field).toBe('role');
    expect((await rest(t, owner).delete(`/users/${owner.userId}`)).status).toBe(400);

    const admin = await keyFor(t, owner, { role: 'admin' });
    const makeOwner = await rest(t, admin).post('/users', { first_name: 'A', last_name: 'B', email: 'ab@acme.example', role: 'owner' });
    expect(makeOwner.status).toBe(403);
    expect(makeOwner.body.error.code).toBe('PERMISSION_DENIED');
    expect((await rest(t, admin).put(`/users/${owner.userId}`, { first_name: 'X' })).status).toBe(403);
    expect((await rest(t, admin).post('/users', { first_name: 'T', last_name: 'C', email: 'tc@acme.example', role: 'technician' })).status).toBe(200);

    // A second owner: now the first may step down.
    const second = await rest(t, owner).post('/users', { first_name: 'S', last_name: 'O', email: 'so@acme.example', role: 'owner' });
    const secondKey = (await rest(t, owner).post('/api_keys', { user_id: second.body.data.id })).body.data.secret;
    const office = await keyFor(t, owner, { role: 'office' });
    expect((await rest(t, owner).put(`/users/${owner.userId}`, { role: 'admin' })).status).toBe(200);
    // The first is an admin from the next request on: it may no longer change an owner.
    expect((await rest(t, owner).put(`/users/${second.body.data.id}`, { role: 'admin' })).status).toBe(403);
    expect((await rest(t, secondKey).put(`/users/${second.body.data.id}`, { role: 'admin' })).status).toBe(400);

    const refused = await rest(t, office).post('/users', { first_name: 'N', last_name: 'O', email: 'no@acme.example' });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toEqual({ code: 'PERMISSION_DENIED', message: expect.any(String), details: [{ field: 'scope', message: 'needs users:write' }] });
  });

  it('works on GraphQL: me, users, createUser, updateUser, deactivateUser', async () => {
    const owner = await createTenant(t);
    const me = await gql(t, owner, '{ me { user { id role } key { id scopes } } }');
    expect(me.data.me).toEqual({ user: { id: owner.userId, role: 'OWNER' }, key: { id: expect.any(String), scopes: ['*'] } });
    const made = await gql(t, owner, 'mutation($i: UserCreateInput!) { createUser(input: $i) { id role active } }', { i: { firstName: 'T', lastName: 'T', email: 't@acme.example', role: 'TECHNICIAN' } });
    expect(made.data.createUser).toMatchObject({ role: 'TECHNICIAN', active: true });
    const id = made.data.createUser.id;
    const upd = await gql(t, owner, 'mutation($id: UUID!) { updateUser(id: $id, input: { phone: "555-010-0001" }) { phone } }', { id });
    expect(upd.data.updateUser.phone).toBeTruthy();
    const off = await gql(t, owner, 'mutation($id: UUID!) { deactivateUser(id: $id) { active } }', { id });
    expect(off.data.deactivateUser.active).toBe(false);
    const list = await gql(t, owner, '{ users { items { id active } } }');
    expect(list.data.users.items).toHaveLength(2);
    // A technician asks who they are without any scope.
    const tech = await keyFor(t, owner, { role: 'technician' });
    expect((await gql(t, tech, '{ me { user { role } } }')).data.me.user.role).toBe('TECHNICIAN');
  });
});

describe('keys over the API', () => {
  it('lists, creates (secret once), gets and revokes keys; last_used_at to the minute', async () => {
    const owner = await createTenant(t);
    const made = await rest(t, owner).post('/api_keys', { name: 'zapier', scopes: ['customers:read'], allowed_ips: ['127.0.0.1', '::1', '::ffff:127.0.0.1'] });
    expect(made.status).toBe(200);
    const { secret, id } = made.body.data;
    expect(secret).toMatch(/^fsk_/);
    expect(made.body.data).toMatchObject({ name: 'zapier', prefix: secret.slice(0, 8), user_id: owner.userId, scopes: ['customers:read'], last_used_at: null, revoked_at: null });
    expect((await rest(t, secret).get('/customers')).status).toBe(200);
    const got = await rest(t, owner).get(`/api_keys/${id}`);
    expect(got.body.data.secret).toBeUndefined();
    const used = new Date(got.body.data.last_used_at);
    expect(used.getUTCSeconds()).toBe(0);
    expect(Date.now() - used.getTime()).toBeLessThan(2 * 60_000);
    expect((await rest(t, owner).get('/api_keys')).body.data.api_keys.map((k: { id: string }) => k.id)).toContain(id);
    expect((await rest(t, owner).delete(`/api_keys/${id}`)).status).toBe(200);
    expect((await rest(t, secret).get('/customers')).status).toBe(401);
    expect((await rest(t, owner).get(`/api_keys/${id}`)).body.data.revoked_at).not.toBeNull();
  });

  it('never mints more rights than the minting key has', async () => {
    const owner = await createTenant(t);
    // An office key cannot create keys at all, so not an owner's either.
    const office = await keyFor(t, owner, { role: 'office' });
    const byOffice = await rest(t, office).post('/api_keys', { user_id: owner.userId });
    expect(byOffice.status).toBe(403);
    expect(byOffice.body.error.details).toEqual([{ field: 'scope', message: 'needs api_keys:write' }]);
    // An admin's key cannot create a key for an owner.
    const admin = await keyFor(t, owner, { role: 'admin' });
    const forOwner = await rest(t, admin).post('/api_keys', { user_id: owner.userId });
    expect(forOwner.status).toBe(400);
    expect(forOwner.body.error.details[0].field).toBe('user_id');
    // A customers:read key cannot create a customers:write key (with api_keys:write it may mint, within its own rights).
    const reader = await keyFor(t, owner, { scopes: ['customers:read', 'api_keys:write'] });
    const wider = await rest(t, reader).post('/api_keys', { scopes: ['customers:write'] });
    expect(wider.status).toBe(400);
    expect(wider.body.error.details[0]).toEqual({ field: 'scopes', message: expect.stringContaining('customers:write') });
    expect((await rest(t, reader).post('/api_keys', { scopes: ['*'] })).status).toBe(400);
    expect((await rest(t, reader).post('/api_keys', { scopes: ['customers:read'] })).status).toBe(200);
    const plain = await keyFor(t, owner, { scopes: ['customers:read'] });
    expect((await rest(t, plain).post('/api_keys', { scopes: ['customers:write'] })).status).toBe(403);
    // GraphQL: the same rules.
    const g = await gql(t, reader, 'mutation { createApiKey(input: { scopes: ["customers:write"] }) { secret } }');
    expect(g.errors?.[0].extensions.code).toBe('VALIDATION_ERROR');
  });

  it('works on GraphQL: apiKeys, createApiKey → {key, secret}, revokeApiKey', async () => {
    const owner = await createTenant(t);
    const made = await gql(t, owner, 'mutation { createApiKey(input: { name: "ci", scopes: ["jobs:read"] }) { key { id name scopes keyPrefix userId } secret } }');
    const { key, secret } = made.data.createApiKey;
    expect(key).toMatchObject({ name: 'ci', scopes: ["jobs:read"], keyPrefix: secret.slice(0, 8), userId: owner.userId });
    expect((await gql(t, owner, '{ apiKeys { items { id } pagination { total } } }')).data.apiKeys.pagination.total).toBe(2);
    expect((await gql(t, secret, '{ jobs { items { uuid } } }')).data.jobs.items).toEqual([]);
    const revoked = await gql(t, owner, 'mutation($id: UUID!) { revokeApiKey(id: $id) { revokedAt } }', { id: key.id });
    expect(revoked.data.revokeApiKey.revokedAt).toBeTruthy();
    expect((await rest(t, secret).get('/jobs')).status).toBe(401);
  });
});

describe('GraphQL relations and fragments', () => {
  it('need the read of every resource they reach, through named fragments and node(id) too', async () => {
    const owner = await createTenant(t);
    const invoicesOnly = await keyFor(t, owner, { scopes: ['invoices:read'] });
    const customer = (await rest(t, owner).post('/customers', { first_name: 'Ada', last_name: 'L' })).body.data;
    const denied = (r: { errors?: Array<{ extensions: { code: string; details?: unknown } }> }) => [r.errors?.[0].extensions.code, r.errors?.[0].extensions.details];
    expect(denied(await gql(t, invoicesOnly, '{ invoices { items { ...F } } } fragment F on Invoice { customer { firstName } }'))).toEqual(['PERMISSION_DENIED', [{ field: 'scope', message: 'needs customers:read' }]]);
    expect((await gql(t, invoicesOnly, '{ invoices { items { ...F } } } fragment F on Invoice { invoiceNumber }')).errors).toBeUndefined();
    const id = (await gql(t, owner, '{ customers { items { id } } }')).data.customers.items[0].id;
    expect(denied(await gql(t, invoicesOnly, 'query($id: ID!) { node(id: $id) { ... on Customer { firstName } } }', { id }))[0]).toBe('PERMISSION_DENIED');
    expect(denied(await gql(t, invoicesOnly, 'query($id: ID!) { node(id: $id) { id } }', { id }))[0]).toBe('PERMISSION_DENIED');
    expect((await gql(t, owner, 'query($id: ID!) { node(id: $id) { ... on Customer { uuid } } }', { id })).data.node.uuid).toBe(customer.uuid);
  });
});
