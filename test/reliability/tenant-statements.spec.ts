import request from 'supertest';
import { getNamedType, GraphQLNamedType, GraphQLObjectType, isInputObjectType, isNonNullType, isObjectType, isScalarType, isEnumType } from 'graphql';
import { restFieldsOf } from '../../src/schema/fields';
import { buildGraphQLSchema } from '../../src/graphql/schema';
import { routes } from '../../src/rest/routes';
import type { RouteDef } from '../../src/rest/route';
import { recordStatements, type Statement } from '../helpers/statements';
import { createTenant, Tenant, useTestApp } from '../helpers/app';
import { makeEverything } from '../helpers/billing';
import { SWEEP_SQL } from '../../src/db/write-sweep';

// Tenancy by construction (docs/architecture.md, Tenancy): every SQL statement a request runs on a
// table of company rows carries the company, as a parameter or in its text. One request per REST
// route (every row of src/rest/routes.ts) and per GraphQL root field, each statement recorded; the
// deliberate exceptions are named below.

const t = useTestApp();
jest.setTimeout(10 * 60_000);

type Ids = Record<string, string>;

/**
 * Statements that rightly name no company: the key lookup that finds the company (by the key's
 * hash), the write-position sweep (all companies' marks, after commits), and, inside em.flush
 * only, the unit of work's writes by primary key to records the
 * request loaded through the company's scope.
 */
const EXCEPTIONS: Array<[string, RegExp]> = [
  ['authentication: the API key by its hash', /^select .* from "api_keys" as "a0" .*where "a0"\."key_hash" = \?/s],
  // After a commit, in the background: every company's committed write marks at once (docs/scaling.md).
  ['the write-position sweep of src/db/write-sweep.ts', new RegExp(`^${SWEEP_SQL.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`)],
];
const FLUSH_WRITES = /^(update "\w+" set .* where "(uuid|id)" (= \?|in \()|delete from "\w+" where "(uuid|id)" (= \?|in \())/s;

let companyTables: Set<string>;
let a: { tenant: Tenant; ids: Ids };
let recorder: ReturnType<typeof recordStatements>;
let recordOf: ReturnType<typeof recordStatements>['recordOf'];
afterAll(() => recorder?.stop());

const uuidOf = (v: unknown) => ((v as { uuid?: string }).uuid ?? (v as { id: string }).id) as string;

function resourceOf(name: string, owner: string): string {
  const base = name.replace(/(_uuid|Uuid|_id|Id)$/, '').replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  if (base === 'assigned_to_user' || base === 'created_by_user') return 'user';
  if (base !== 'uuid' && base !== 'id') return base;
  return owner.replace(/^(create|update|delete|restore|upload|preview)/, '').replace(/^_/, '').replace(/s$/, '').replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`).replace(/^_/, '');
}

function fill(path: string, ids: Ids, owner = path): string {
  return path.replace(/:(\w+)/g, (_m, name: string, offset: number) => ids[resourceOf(name, owner.slice(1, offset - 1).split('/').pop()!)] ?? ids.customer);
}

/** The company tables a statement reads or writes (quoted or bare after from/join/update/into). */
function tablesOf(sql: string): string[] {
  const out = new Set<string>();
  for (const m of sql.matchAll(/\b(?:from|join|update|into)\s+"?(\w+)"?/gi)) if (companyTables.has(m[1])) out.add(m[1]);
  return [...out];
}

/** The statements of `what` on company tables that carry no company. */
function offenders(what: string, statements: readonly Statement[], company: string): string[] {
  const out: string[] = [];
  for (const s of statements) {
    const tables = tablesOf(s.sql);
    if (!tables.length) continue;
    const carries = s.sql.includes(company) || JSON.stringify(s.params ?? []).includes(company);
    if (carries || EXCEPTIONS.some(([, re]) => re.test(s.sql.trim())) || (s.flush && FLUSH_WRITES.test(s.sql.trim()))) continue;
    out.push(`${what}: ${s.sql.slice(0, 400)} ${JSON.stringify(s.params).slice(0, 200)}`);
  }
  return out;
}

beforeAll(async () => {
  const rows = await t.orm.em.getConnection().execute<{ table_name: string }[]>(
    `select distinct table_name from information_schema.columns where table_schema = 'public' and column_name = 'company_uuid'`,
  );
  companyTables = new Set(rows.map((r) => r.table_name));
  recorder = recordStatements(t.orm);
  recordOf = recorder.recordOf;
});

beforeEach(async () => {
  const tenant = await createTenant(t, { name: 'Alpha Plumbing', addons: ['job_photos', 'custom_numbering'] });
  const all = await makeEverything(t, tenant);
  // Another company's records beside A's: a statement without the company would find them.
  const other = await createTenant(t, { name: 'Beta Electric', addons: ['job_photos', 'custom_numbering'] });
  await makeEverything(t, other);
  a = { tenant, ids: { ...Object.fromEntries(Object.entries(all).map(([k, v]) => [k, uuidOf(v)])), company: tenant.companyUuid } };
});

/** A valid body for a route: the record its GET shows, cut to the input's fields. */
async function baseBody(route: RouteDef): Promise<Record<string, unknown>> {
  const getPath = route.method === 'PUT' ? route.path : `${route.path.replace(/\/preview$/, '')}/:uuid`;
  const res = await request(t.app).get(`/api/v1${fill(getPath, a.ids)}`).set('Authorization', `Bearer ${a.tenant.key}`);
  const record = res.status === 200 ? (res.body.data as Record<string, unknown>) : {};
  const out: Record<string, unknown> = {};
  for (const f of restFieldsOf(route.body!)) if (f.io === 'in' && f.restName in record) out[f.restName] = record[f.restName];
  return out;
}

it('REST: every statement of every route on a company table carries the company', async () => {
  const found: string[] = [];
  let requests = 0;
  // Reads first, then writes, deletes last: every route finds its records.
  const order = (r: RouteDef) => (r.method === 'GET' ? 0 : r.method === 'DELETE' ? 2 : 1);
  for (const route of [...routes].sort((x, y) => order(x) - order(y))) {
    const body = route.body ? await baseBody(route) : undefined;
    const statements = await recordOf(async () => {
      const r = request(t.app)[route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete'](`/api/v1${fill(route.path, a.ids)}`).set('Authorization', `Bearer ${a.tenant.key}`);
      await (body === undefined ? r : r.send(body));
    });
    requests++;
    found.push(...offenders(`${route.method} ${route.path}`, statements, a.tenant.companyUuid));
  }
  expect(found).toEqual([]);
  expect(requests).toBe(routes.length);
});

/** A selection of every field of a type that takes no required argument, objects `depth` levels deep. */
function selectionOf(type: GraphQLNamedType, depth: number): string {
  if (!isObjectType(type)) return '';
  const fields = Object.values((type as GraphQLObjectType).getFields()).filter((f) => !f.args.some((x) => isNonNullType(x.type)));
  const parts: string[] = [];
  for (const f of fields) {
    const named = getNamedType(f.type);
    if (isScalarType(named) || isEnumType(named)) parts.push(f.name);
    else if (depth > 0 && isObjectType(named)) parts.push(`${f.name} ${selectionOf(named, depth - 1)}`);
  }
  return parts.length ? `{ __typename ${parts.join(' ')} }` : '{ __typename }';
}

it('GraphQL: every statement of every root field on a company table carries the company', async () => {
  const schema = buildGraphQLSchema();
  const bodyClasses = new Map(routes.filter((r) => r.body).map((r) => [r.body!.name, r]));
  const found: string[] = [];
  let operations = 0;
  const kinds = [['query', schema.getQueryType()!], ['mutation', schema.getMutationType()!]] as const;
  for (const [kind, root] of kinds) {
    for (const field of Object.values(root.getFields())) {
      if (field.args.some((x) => getNamedType(x.type).name === 'Upload')) continue;
      const variables: Record<string, unknown> = {};
      let skip = false;
      for (const arg of field.args) {
        const named = getNamedType(arg.type);
        if (isInputObjectType(named)) {
          const route = bodyClasses.get(named.name);
          const rest = route ? await baseBody(route) : {};
          const input: Record<string, unknown> = {};
          for (const f of route ? restFieldsOf(route.body!) : []) {
            if (f.io !== 'in' || !(f.restName in rest) || !(f.prop in named.getFields()) || f.kind === 'object') continue;
            const v = rest[f.restName];
            const enumName = (x: unknown) => Object.entries(f.enum ?? {}).find(([, value]) => value === x)?.[0] ?? x;
            input[f.prop] = f.kind === 'enum' ? (Array.isArray(v) ? v.map(enumName) : enumName(v)) : v;
          }
          variables[arg.name] = input;
        } else if (isScalarType(named) && named.name === 'UUID') variables[arg.name] = a.ids[resourceOf(arg.name, field.name)] ?? a.ids.customer;
        else if (isNonNullType(arg.type)) skip = true;
      }
      if (skip) continue;
      const defs = field.args.map((x) => `$${x.name}: ${x.type.toString()}`).join(', ');
      const args = field.args.length ? `(${field.args.map((x) => `${x.name}: $${x.name}`).join(', ')})` : '';
      const named = getNamedType(field.type);
      const text = `${kind}${defs ? `(${defs})` : ''} { ${field.name}${args} ${selectionOf(named, kind === 'query' ? 2 : 1)} }`;
      const statements = await recordOf(() => request(t.app).post('/graphql').set('Authorization', `Bearer ${a.tenant.key}`).send({ query: text, variables }));
      operations++;
      found.push(...offenders(`${kind} ${field.name}`, statements, a.tenant.companyUuid));
    }
  }
  expect(found).toEqual([]);
  expect(operations).toBeGreaterThan(40);
});
