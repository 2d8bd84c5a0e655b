import request from 'supertest';
import { GraphQLInputObjectType, GraphQLNamedType, getNamedType, isInputObjectType, isNonNullType, isObjectType, isScalarType } from 'graphql';
import { FieldMeta, restFieldsOf } from '../../src/schema/fields';
import { buildGraphQLSchema } from '../../src/graphql/schema';
import { routes } from '../../src/rest/routes';
import type { RouteDef } from '../../src/rest/route';
import { createTenant, Tenant, useTestApp } from '../helpers/app';
import { makeEverything } from '../helpers/billing';

// Tenant isolation matrix, generated from the route table and the schema: every route and root
// field that takes an id, and every input field that references a record, is called by company A
// with company B's ids. Never a 2xx with B's record, never one of B's ids or names in the answer.
const t = useTestApp();
jest.setTimeout(10 * 60_000);

type Ids = Record<string, string>;
const FOREIGN_NAME = 'Zebulonius';
const uuidOf = (v: unknown) => ((v as { uuid?: string }).uuid ?? (v as { id: string }).id) as string;

async function company(name: string): Promise<{ tenant: Tenant; ids: Ids }> {
  const tenant = await createTenant(t, { name, addons: ['job_photos', 'custom_numbering'] });
  const all = await makeEverything(t, tenant);
  const ids = Object.fromEntries(Object.entries(all).map(([k, v]) => [k, uuidOf(v)]));
  return { tenant, ids: { ...ids, company: tenant.companyUuid } };
}

/** The resource an id names, from a parameter or field name and the route or field it belongs to. */
function resourceOf(name: string, owner: string): string {
  const base = name.replace(/(_uuid|Uuid|_id|Id)$/, '').replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  if (base === 'assigned_to_user' || base === 'created_by_user') return 'user';
  if (base !== 'uuid' && base !== 'id') return base;
  return owner.replace(/^(create|update|delete|restore|upload|preview)/, '').replace(/^_/, '').replace(/s$/, '').replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`).replace(/^_/, '');
}

function leak(text: string, foreign: Ids): string | undefined {
  return [...Object.values(foreign), FOREIGN_NAME].find((s) => text.includes(s));
}

let a: { tenant: Tenant; ids: Ids };
let b: { tenant: Tenant; ids: Ids };
const refused: string[] = [];

function check(what: string, status: number, body: unknown, allowEmpty = false) {
  const text = JSON.stringify(body);
  const leaked = leak(text, b.ids);
  if (leaked) throw new Error(`${what}: answer holds company B's ${leaked}: ${text.slice(0, 300)}`);
  if (status >= 200 && status < 300 && !allowEmpty) throw new Error(`${what}: ${status} ${text.slice(0, 300)}`);
  refused.push(what);
}

const restCall = (route: RouteDef, path: string, body?: unknown, query = '') => {
  const r = request(t.app)[route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete'](`/api/v1${path}${query}`).set('Authorization', `Bearer ${a.tenant.key}`);
  return body === undefined ? r : r.send(body as object);
};

function fill(path: string, ids: Ids, owner = path): string {
  return path.replace(/:(\w+)/g, (_m, name: string, offset: number) => ids[resourceOf(name, owner.slice(1, offset - 1).split('/').pop()!)] ?? ids.customer);
}

/** A valid body for a route of A: the record its GET shows, cut to the input's fields. */
async function baseBody(route: RouteDef): Promise<Record<string, unknown>> {
  const getPath = route.method === 'PUT' ? route.path : `${route.path.replace(/\/preview$/, '')}/:uuid`;
  const res = await request(t.app).get(`/api/v1${fill(getPath, a.ids)}`).set('Authorization', `Bearer ${a.tenant.key}`);
  const record = res.status === 200 ? (res.body.data as Record<string, unknown>) : {};
  const out: Record<string, unknown> = {};
  for (const f of restFieldsOf(route.body!)) if (f.io === 'in' && f.restName in record) out[f.restName] = record[f.restName];
  return out;
}

/** Input fields that reference a record of a resource (a uuid field of no resource, e.g. a pricing set id kept as data, is not one). */
const idFields = (cls: Function, owner: string): FieldMeta[] => restFieldsOf(cls).filter((f) => f.io === 'in' && f.kind === 'uuid' && resourceOf(f.restName, owner) in a.ids);

beforeEach(async () => {
  a = await company('Alpha Plumbing');
  b = await company('Beta Electric');
  await request(t.app).put(`/api/v1/customers/${b.ids.customer}`).set('Authorization', `Bearer ${b.tenant.key}`).send({ first_name: FOREIGN_NAME });
  refused.length = 0;
});

it('REST: every id in a path, a body or a query names nothing of another company', async () => {
  for (const route of routes) {
    const body = route.body ? await baseBody(route) : undefined;
    if (route.path.includes(':')) {
      const res = await restCall(route, fill(route.path, b.ids), body);
      check(`${route.method} ${route.path} with B's ids`, res.status, res.body);
    }
    if (route.body) {
      for (const f of idFields(route.body, route.path)) {
        const res = await restCall(route, fill(route.path, a.ids), { ...body, [f.restName]: b.ids[resourceOf(f.restName, route.path)] ?? b.ids.customer });
        check(`${route.method} ${route.path} ${f.restName}=B`, res.status, res.body);
      }
    }
    if (route.query && route.method === 'GET') {
      for (const f of idFields(route.query, route.path)) {
        const res = await restCall(route, fill(route.path, a.ids), undefined, `?${f.restName}=${b.ids[resourceOf(f.restName, route.path)] ?? b.ids.customer}`);
        // A filter naming another company's record finds nothing (or is refused).
        check(`${route.method} ${route.path}?${f.restName}=B`, res.status, res.body, true);
        // A list's export (a CSV file by default): its header and no record.
        if (res.status === 200 && route.stream) expect(res.text.trim().split('\n')).toHaveLength(1);
        else if (res.status === 200) expect(res.body.data.pagination.total).toBe(0);
      }
    }
  }
  expect(refused.length).toBeGreaterThan(60);
});

it('GraphQL: every id argument and referencing input field names nothing of another company', async () => {
  const schema = buildGraphQLSchema();
  const bodyClasses = new Map(routes.filter((r) => r.body).map((r) => [r.body!.name, r]));
  /** A's valid input for an input type, as GraphQL variables (enum values by their GraphQL names). */
  const inputFor = async (type: GraphQLInputObjectType): Promise<Record<string, unknown>> => {
    const route = bodyClasses.get(type.name);
    if (!route) return {};
    const rest = await baseBody(route);
    const out: Record<string, unknown> = {};
    for (const f of restFieldsOf(route.body!)) {
      if (f.io !== 'in' || !(f.restName in rest) || !(f.prop in type.getFields())) continue;
      const v = rest[f.restName];
      const enumName = (x: unknown) => Object.entries(f.enum ?? {}).find(([, value]) => value === x)?.[0] ?? x;
      if (f.kind === 'object') continue; // nested lists stay out: the reference fields are top-level
      out[f.prop] = f.kind === 'enum' ? (Array.isArray(v) ? v.map(enumName) : enumName(v)) : v;
    }
    return out;
  };
  const selection = (type: GraphQLNamedType) => (isObjectType(type) ? ` { __typename${'uuid' in type.getFields() ? ' uuid' : ''} }` : '');
  for (const [kind, root] of [['query', schema.getQueryType()!], ['mutation', schema.getMutationType()!]] as const) {
    for (const field of Object.values(root.getFields())) {
      if (field.args.some((x) => getNamedType(x.type).name === 'Upload')) continue;
      const defs = field.args.map((x) => `$${x.name}: ${x.type.toString()}`).join(', ');
      const text = `${kind}${defs ? `(${defs})` : ''} { ${field.name}${field.args.length ? `(${field.args.map((x) => `${x.name}: $${x.name}`).join(', ')})` : ''}${selection(getNamedType(field.type))} }`;
      const base: Record<string, unknown> = {};
      let probes = 0;
      let skip = false;
      for (const arg of field.args) {
        const named = getNamedType(arg.type);
        if (isInputObjectType(named)) base[arg.name] = await inputFor(named);
        else if (isScalarType(named) && named.name === 'UUID') {
          base[arg.name] = a.ids[resourceOf(arg.name, field.name)] ?? a.ids.customer;
        } else if (isNonNullType(arg.type)) skip = true;
      }
      if (skip) continue;
      const send = async (variables: Record<string, unknown>, what: string) => {
        const res = await request(t.app).post('/graphql').set('Authorization', `Bearer ${a.tenant.key}`).send({ query: text, variables });
        const ok = !res.body.errors?.length && res.body.data?.[field.name] != null;
        check(`${field.name} ${what}`, ok ? 200 : 400, res.body, kind === 'query' && !field.args.some((x) => x.name === 'uuid' || x.name === 'id'));
        probes++;
      };
      for (const arg of field.args) {
        const named = getNamedType(arg.type);
        if (isScalarType(named) && named.name === 'UUID') {
          await send({ ...base, [arg.name]: b.ids[resourceOf(arg.name, field.name)] ?? b.ids.customer }, `${arg.name}=B`);
        } else if (isInputObjectType(named)) {
          for (const [name, f] of Object.entries(named.getFields())) {
            if (getNamedType(f.type).name !== 'UUID' || !(resourceOf(name, field.name) in a.ids)) continue;
            await send({ ...base, [arg.name]: { ...(base[arg.name] as object), [name]: b.ids[resourceOf(name, field.name)] ?? b.ids.customer } }, `${arg.name}.${name}=B`);
          }
        }
      }
      void probes;
    }
  }
  expect(refused.length).toBeGreaterThan(40);
});
