import { admin as cliAdmin } from '../helpers/cli';
import { gql, rest, useTestApp } from '../helpers/app';

const t = useTestApp();

const admin = (...args: string[]) => cliAdmin(t, ...args);

describe('admin CLI', () => {
  it('creates a company, users and keys; revokes keys; sets add-ons; lists keys without secrets', async () => {
    const made = await admin('create-company', '--name', 'Bolt Electric', '--email', 'Office@Bolt.example', '--addons', 'job_photos');
    expect(made.code).toBe(0);
    expect(made.out).toMatchObject({ company: { uuid: expect.any(String) }, user: { id: expect.any(String) }, api_key: expect.stringMatching(/^fsk_[0-9A-Za-z]{40}$/) });
    const company = made.out.company.uuid;
    expect((await rest(t, made.out.api_key).get('/companies/me')).body.data).toMatchObject({ uuid: company, email: 'office@bolt.example' });

    const user = await admin('create-user', '--company', company, '--first-name', 'Tess', '--last-name', 'Tech', '--email', 'tess@bolt.example');
    expect(user.out.user.id).toEqual(expect.any(String));
    const key = await admin('create-key', '--company', company, '--user', user.out.user.id);
    expect(key.out).toMatchObject({ api_key: expect.stringMatching(/^fsk_/), key: { id: expect.any(String) } });
    // The key acts as its user.
    const users = (await gql(t, key.out.api_key, '{ users { items { id } } }')).data.users.items;
    expect(users).toHaveLength(2);

    const listed = await admin('list-keys', '--company', company);
    expect(listed.out.keys).toHaveLength(2);
    expect(JSON.stringify(listed.out)).not.toContain(made.out.api_key);
    expect(JSON.stringify(listed.out)).not.toContain(key.out.api_key.slice(10));

    const revoked = await admin('revoke-key', '--key', key.out.key.id);
    expect(revoked.out.key.revoked_at).toEqual(expect.any(String));
    expect((await rest(t, key.out.api_key).get('/customers')).status).toBe(401);

    expect((await admin('set-addons', '--company', company, '--addons', '')).out.company.addons).toEqual([]);
    expect((await admin('set-addons', '--company', company, '--addons', 'custom_numbering,job_photos')).out.company.addons).toEqual(['custom_numbering', 'job_photos']);
  });

  it('gives users roles and keys names and scopes; the first user is the owner', async () => {
    const made = await admin('create-company', '--name', 'Role Electric', '--email', 'office@role.example');
    const company = made.out.company.uuid;
    expect((await gql(t, made.out.api_key, '{ me { user { role } } }')).data.me.user.role).toBe('OWNER');
    const tech = await admin('create-user', '--company', company, '--first-name', 'Tia', '--last-name', 'Tech', '--role', 'technician');
    expect(tech.out.user.role).toBe('technician');
    expect((await admin('create-user', '--company', company, '--first-name', 'O', '--last-name', 'O')).out.user.role).toBe('office');
    expect((await admin('create-user', '--company', company, '--first-name', 'B', '--last-name', 'B', '--role', 'boss')).code).toBe(1);
    const key = await admin('create-key', '--company', company, '--user', tech.out.user.id, '--name', 'van tablet', '--scopes', 'jobs:read,visits:write');
    expect(key.out.key).toMatchObject({ name: 'van tablet', scopes: ['jobs:read', 'visits:write'] });
    expect((await rest(t, key.out.api_key).get('/jobs')).status).toBe(200);
    expect((await rest(t, key.out.api_key).get('/customers')).body.error.code).toBe('PERMISSION_DENIED');
    expect((await admin('create-key', '--company', company, '--scopes', 'jobs:delete')).code).toBe(1);
  });

  it('fails with one JSON error object and exit code 1', async () => {
    const unknownAddon = await admin('create-company', '--name', 'X', '--email', 'x@x.example', '--addons', 'teleport');
    expect(unknownAddon).toEqual({ code: 1, out: { error: { code: 'VALIDATION_ERROR', message: expect.stringContaining('teleport') } } });
    const missing = await admin('create-user', '--company', '00000000-0000-4000-8000-000000000000', '--first-name', 'A', '--last-name', 'B');
    expect(missing).toEqual({ code: 1, out: { error: { code: 'NOT_FOUND', message: expect.any(String) } } });
    expect((await admin('frobnicate')).code).toBe(1);
    expect((await admin('create-company', '--name')).out.error.code).toBe('VALIDATION_ERROR');
  });
});
