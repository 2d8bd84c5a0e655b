import { createTenant, useTestApp } from '../helpers/app';
import { ServerProcess, startServer } from '../helpers/server-process';

// Two server processes on one database, each keeping keys in its cache (src/auth/key-cache.ts):
// deactivating a user, changing their role or revoking a key through the API of one process takes
// effect on the very next request to the other, on both surfaces.
const t = useTestApp();
let a: ServerProcess;
let b: ServerProcess;

beforeAll(async () => {
  [a, b] = await Promise.all([startServer({ DATABASE_URL: t.url }), startServer({ DATABASE_URL: t.url })]);
});

afterAll(async () => {
  for (const s of [a, b]) {
    s?.kill('SIGTERM');
    await s?.exited;
  }
});

async function call(s: ServerProcess, key: string, method: string, path: string, body?: object) {
  const res = await fetch(`http://127.0.0.1:${s.port}${path}`, { method, headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: body && JSON.stringify(body) });
  const json = (await res.json()) as { data?: any; error?: { code: string }; errors?: Array<{ extensions: { code: string } }> };
  return { status: res.status, code: json.error?.code ?? json.errors?.[0]?.extensions.code ?? null, data: json.data };
}

/** A REST read and a GraphQL read of users (users:read: office and above) in process `s`. */
const both = async (s: ServerProcess, key: string) => [await call(s, key, 'GET', '/api/v1/users'), await call(s, key, 'POST', '/graphql', { query: '{ users { items { id } } }' })].map((r) => r.code ?? r.status);

it('deactivating a user and revoking a key through one process refuse the next request in the other', async () => {
  const owner = await createTenant(t);
  const user = await call(a, owner.key, 'POST', '/api/v1/users', { first_name: 'Olive', last_name: 'Office', email: 'olive@acme.example', role: 'office' });
  expect(user.status).toBe(200);
  const key = await call(a, owner.key, 'POST', '/api/v1/api_keys', { user_id: user.data.id });
  const secret = key.data.secret as string;
  // Both processes know (and keep) the key.
  for (const s of [a, b]) expect(await both(s, secret)).toEqual([200, 200]);
  for (const s of [a, b]) expect(await both(s, secret)).toEqual([200, 200]);

  // A role change through A: B refuses the next request by the new role.
  expect((await call(a, owner.key, 'PUT', `/api/v1/users/${user.data.id}`, { role: 'technician' })).status).toBe(200);
  expect(await both(b, secret)).toEqual(['PERMISSION_DENIED', 'PERMISSION_DENIED']);
  expect((await call(b, owner.key, 'PUT', `/api/v1/users/${user.data.id}`, { role: 'office' })).status).toBe(200);
  expect(await both(a, secret)).toEqual([200, 200]);

  // Deactivated through B: A refuses the next request; reactivated through A: B lets it in again.
  expect((await call(b, owner.key, 'DELETE', `/api/v1/users/${user.data.id}`)).status).toBe(200);
  expect(await both(a, secret)).toEqual(['UNAUTHORIZED', 'UNAUTHORIZED']);
  expect(await both(b, secret)).toEqual(['UNAUTHORIZED', 'UNAUTHORIZED']);
  expect((await call(a, owner.key, 'PUT', `/api/v1/users/${user.data.id}`, { active: true })).status).toBe(200);
  expect(await both(b, secret)).toEqual([200, 200]);

  // Revoked through GraphQL on A: B refuses the next request.
  const revoke = await call(a, owner.key, 'POST', '/graphql', { query: 'mutation($id: UUID!) { revokeApiKey(id: $id) { revokedAt } }', variables: { id: key.data.id } });
  expect(revoke.data.revokeApiKey.revokedAt).toBeTruthy();
  expect(await both(b, secret)).toEqual(['UNAUTHORIZED', 'UNAUTHORIZED']);
  expect(await both(a, secret)).toEqual(['UNAUTHORIZED', 'UNAUTHORIZED']);
  // The owner's own key is untouched.
  expect(await both(b, owner.key)).toEqual([200, 200]);
});
