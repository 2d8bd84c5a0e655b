import type { Role } from '../../src/domain/scopes';
import { rest, TestApp, Tenant } from './app';

let n = 0;

/** A user of `role` made through the API with the tenant's (owner's) key, and a key of theirs with `scopes`. */
export async function keyFor(t: TestApp, tenant: Tenant, o: { role?: Role; scopes?: string[] } = {}): Promise<Tenant> {
  let userId = tenant.userId;
  if (o.role && o.role !== 'owner') {
    const u = await rest(t, tenant).post('/users', { first_name: 'Pat', last_name: `${o.role} ${++n}`, email: `pat${n}.${Date.now()}@acme.example`, role: o.role });
    if (u.status !== 200) throw new Error(`user: ${JSON.stringify(u.body)}`);
    userId = u.body.data.id;
  }
  const k = await rest(t, tenant).post('/api_keys', { user_id: userId, name: `${o.role ?? 'owner'} key`, ...(o.scopes ? { scopes: o.scopes } : {}) });
  if (k.status !== 200) throw new Error(`key: ${JSON.stringify(k.body)}`);
  return { key: k.body.data.secret, companyUuid: tenant.companyUuid, userId };
}
