import request from 'supertest';
import { getNamedType, isInputObjectType, isNonNullType, isObjectType, isScalarType } from 'graphql';
import { buildGraphQLSchema } from '../../src/graphql/schema';
import { declaredScopes } from '../../src/graphql/access';
import { routes } from '../../src/rest/routes';
import { RESOURCES, rightsOf, Rights, type Resource, type Role, type Scope } from '../../src/domain/scopes';
import { scopeList } from '../../src/auth/require-scope';
import { createTenant, rest, Tenant, useTestApp } from '../helpers/app';
import { makeEverything } from '../helpers/billing';
import { keyFor } from '../helpers/people';

// The role and scope matrix (docs/people-and-access.md), generated from the route table and the
// schema: every route and root field is called with a key of each role and with an owner's key
// scoped to one other resource. Refused exactly when the caller's rights lack the declared scope
// (403 PERMISSION_DENIED naming it); and no answer, refused or not, holds a record of a resource the
// caller may not read (each resource has a witness: a value only a record of it shows).
const t = useTestApp({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' });
jest.setTimeout(10 * 60_000);

interface Caller {
  name: string;
  key: string;
  rights: Rights;
}

const problems: string[] = [];
let owner: Tenant;
let ids: Record<string, string>;
const witness: Partial<Record<Resource, string>> = {};
const callers: Record<string, Caller> = {};
/** Owner keys scoped to one resource each (write). */
const scoped: Partial<Record<Resource, Caller>> = {};

// The database is emptied before each test (useTestApp): each test makes its company.
beforeEach(async () => {
  problems.length = 0;
  exact.clear();
  owner = await createTenant(t, { addons: ['job_photos', 'custom_numbering'] });
  const all = await makeEverything(t, owner);
  const r = rest(t, owner);
  const ok = async (res: { status: number; body: any }, what: string) => {
    if (res.status !== 200) throw new Error(`${what}: ${JSON.stringify(res.body)}`);
    return res.body.data;
  };
  // Witnesses: values only a record of the resource shows.
  await ok(await r.put(`/customers/${all.customer.uuid}`, { first_name: 'Wcustomers' }), 'customer');
  await ok(await r.put(`/locations/${all.location.uuid}`, { name: 'Wlocations' }), 'location');
  await ok(await r.put(`/templates/${all.template.uuid}`, { description: 'Wtemplates' }), 'template');
  await ok(await r.put(`/jobs/${all.job.uuid}`, { title: 'Wjobs' }), 'job');
  const visit = await ok(await r.post(`/jobs/${all.job.uuid}/visits`, { title: 'Wvisits' }), 'visit');
  const spare = await ok(await r.post('/users', { first_name: 'Wusers', last_name: 'Spare', email: 'spare@acme.example', role: 'office' }), 'user');
  const spareKey = await ok(await r.post('/api_keys', { name: 'Wapi_keys', user_id: spare.id }), 'key');
  const endpoint = await ok(await r.post('/webhook_endpoints', { url: 'http://127.0.0.1:9/hook', description: 'Wwebhooks' }), 'endpoint');
  Object.assign(witness, { customers: 'Wcustomers', locations: 'Wlocations', templates: 'Wtemplates', jobs: 'Wjobs', visits: 'Wvisits', users: 'Wusers', api_keys: 'Wapi_keys', webhooks: 'Wwebhooks', estimates: all.estimate.estimate_number, invoices: all.invoice.invoice_number, payments: all.payment.uuid });
  const events = (await r.get('/events?limit=1')).body.data.events;
  ids = {
    customers: all.customer.uuid, locations: all.location.uuid, templates: all.template.uuid, estimates: all.estimate.uuid, jobs: all.job.uuid,
    invoices: all.invoice.uuid, payments: all.payment.uuid, visits: visit.uuid, users: spare.id, api_keys: spareKey.id,
    webhook_endpoints: endpoint.uuid, webhook_deliveries: endpoint.uuid, events: events[0].id, photos: '00000000-0000-4000-8000-000000000000',
  };
  for (const role of ['owner', 'admin', 'office', 'technician'] as Role[]) {
    const k = role === 'owner' ? owner : await keyFor(t, owner, { role });
    callers[role] = { name: role, key: k.key, rights: rightsOf(role, ['*']) };
  }
  for (const resource of RESOURCES) {
    const k = await keyFor(t, owner, { scopes: [`${resource}:write`] });
    scoped[resource] = { name: `${resource}:write key`, key: k.key, rights: rightsOf('owner', [`${resource}:write`]) };
  }
});

/** An owner's key with exactly the declared scopes: let in, and shown nothing else. */
const exact = new Map<string, Caller>();
async function exactly(scopes: readonly Scope[]): Promise<Caller> {
  const id = scopes.join(' ');
  if (!exact.has(id)) exact.set(id, { name: `${id} key`, key: (await keyFor(t, owner, { scopes: [...scopes] })).key, rights: rightsOf('owner', scopes) });
  return exact.get(id)!;
}

/** A key scoped to a resource the declaration does not name (nor imply). */
function otherThan(scopes: readonly Scope[]): Caller {
  const named = scopes.map((s) => s.split(':')[0]);
  const other = RESOURCES.find((r) => !named.includes(r) && !(r === 'jobs' && named.includes('visits')))!;
  return scoped[other]!;
}

function fill(path: string): string {
  const first = path.split('/')[1];
  return path.replace(/:(\w+)/g, (_m, name: string) => (name === 'job_uuid' ? ids.jobs : name === 'photo_uuid' ? ids.photos : ids[first === 'companies' ? 'customers' : first] ?? ids.customers));
}

/** Checks one answer: refused exactly when the rights lack a scope, and no witness of an unreadable resource in it. */
function judge(what: string, caller: Caller, needs: readonly Scope[], status: number, code: string | undefined, details: unknown, body: unknown) {
  const missing = needs.find((s) => !caller.rights.allows(s));
  if (missing) {
    if (status !== 403 || code !== 'PERMISSION_DENIED') problems.push(`${what} by ${caller.name}: expected 403 PERMISSION_DENIED (needs ${missing}), got ${status} ${code}`);
    else if (JSON.stringify(details) !== JSON.stringify([{ field: 'scope', message: `needs ${missing}` }])) problems.push(`${what} by ${caller.name}: details ${JSON.stringify(details)}`);
  } else if (code === 'PERMISSION_DENIED' || status === 401 || status >= 500) problems.push(`${what} by ${caller.name}: expected access, got ${status} ${code}`);
  const text = JSON.stringify(body);
  for (const [resource, value] of Object.entries(witness)) {
    if (!caller.rights.allows(`${resource as Resource}:read`) && text.includes(value!)) problems.push(`${what} by ${caller.name}: shows a record of ${resource} (${value})`);
  }
}

it('REST: every route × each role and a key scoped to another resource', async () => {
  // The witnesses are live: a job's answer shows its customer's summary to whoever may read customers.
  expect(JSON.stringify((await rest(t, owner).get(`/jobs/${ids.jobs}`)).body)).toContain(witness.customers);
  // Writes last, deletions at the very end: the records stay for the reads.
  const order = (m: string) => ({ GET: 0, POST: 1, PUT: 2, DELETE: 3 })[m]!;
  for (const route of [...routes].sort((x, y) => order(x.method) - order(y.method))) {
    const needs = scopeList(route.scope);
    for (const caller of [callers.technician, callers.office, otherThan(needs), await exactly(needs), callers.admin, callers.owner]) {
      const path = fill(route.path);
      const req = request(t.app)[route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete'](`/api/v1${path}`).set('Authorization', `Bearer ${caller.key}`);
      const res = route.body ? await req.send({}) : await req;
      judge(`${route.method} ${route.path}`, caller, needs, res.status, res.body?.error?.code, res.body?.error?.details, res.body);
    }
  }
  expect(problems).toEqual([]);
});

it('GraphQL: every root field × each role and a key scoped to another resource; relations need their resource', async () => {
  const schema = buildGraphQLSchema();
  for (const [kind, root] of [['query', schema.getQueryType()!], ['mutation', schema.getMutationType()!]] as const) {
    for (const field of Object.values(root.getFields())) {
      const defs = field.args.filter((x) => isNonNullType(x.type)).map((x) => `$${x.name}: ${x.type.toString()}`).join(', ');
      const named = getNamedType(field.type);
      const selection = isObjectType(named) ? ' { __typename }' : '';
      const args = field.args.filter((x) => isNonNullType(x.type));
      const text = `${kind}${defs ? `(${defs})` : ''} { ${field.name}${args.length ? `(${args.map((x) => `${x.name}: $${x.name}`).join(', ')})` : ''}${selection} }`;
      const variables: Record<string, unknown> = {};
      for (const arg of args) {
        const type = getNamedType(arg.type);
        variables[arg.name] = isInputObjectType(type) ? {} : isScalarType(type) && type.name === 'UUID' ? ids.customers : 'x';
      }
      const needs = declaredScopes(field)!;
      for (const caller of [callers.technician, callers.office, otherThan(needs), ...(needs.length ? [await exactly(needs)] : []), callers.admin, callers.owner]) {
        const res = await request(t.app).post('/graphql').set('Authorization', `Bearer ${caller.key}`).send({ query: text, variables });
        const error = res.body.errors?.[0];
        judge(`${field.name}`, caller, needs, error?.extensions?.code === 'PERMISSION_DENIED' ? 403 : res.status, error?.extensions?.code, error?.extensions?.details, res.body);
      }
    }
  }
  // A relation needs its resource's read: an invoices:write key may not follow an invoice to its customer.
  const nested = '{ invoices { items { invoiceNumber customer { firstName } } } }';
  for (const caller of [scoped.invoices!, callers.office, callers.technician]) {
    const res = await request(t.app).post('/graphql').set('Authorization', `Bearer ${caller.key}`).send({ query: nested });
    const error = res.body.errors?.[0];
    judge('invoices { customer }', caller, ['invoices:read', 'customers:read'], error?.extensions?.code === 'PERMISSION_DENIED' ? 403 : res.status, error?.extensions?.code, error?.extensions?.details, res.body);
  }
  expect(problems).toEqual([]);
});
