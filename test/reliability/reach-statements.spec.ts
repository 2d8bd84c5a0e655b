import request from 'supertest';
import { getNamedType, GraphQLNamedType, GraphQLObjectType, isEnumType, isNonNullType, isObjectType, isScalarType } from 'graphql';
import { buildGraphQLSchema } from '../../src/graphql/schema';
import { routes } from '../../src/rest/routes';
import type { RouteDef } from '../../src/rest/route';
import { REACH_TABLES } from '../../src/data/reach';
import { rightsOf, Resource } from '../../src/domain/scopes';
import { recordStatements, type Statement } from '../helpers/statements';
import { createTenant, Tenant, useTestApp } from '../helpers/app';
import { technicianWorld } from '../helpers/technicians';
import { scopeList } from '../../src/auth/require-scope';

// A technician's reach by construction (docs/people-and-access.md, "What a technician sees"): every
// SQL statement a technician's request runs on a table that reach holds (jobs, visits, customers,
// locations, job_photos) carries their user, as the tenant test requires the company. One request
// per REST route and GraphQL field within a technician's role, each statement recorded; the
// deliberate exceptions are named below.

const t = useTestApp();
jest.setTimeout(10 * 60_000);


/**
 * Statements on those tables that rightly carry no user: the company's time zone (its primary
 * location, a company setting), and, inside em.flush only, the unit of work's writes by primary
 * key to records the request loaded within reach and its inserts of new rows (a visit of a job
 * found within reach).
 */
const EXCEPTIONS: Array<[string, RegExp]> = [["the company's time zone: its primary location", /^select "l0"\."uuid", "l0"\."timezone" from "locations" as "l0" where "l0"\."company_uuid" = \? and "l0"\."is_primary" = \? and "l0"\."deleted_at" is null limit \?$/s]];
const FLUSH_WRITES = /^(update "\w+" set .* where "(uuid|id)" (= \?|in \()|delete from "\w+" where "(uuid|id)" (= \?|in \()|insert into "\w+" \()/s;

let recorder: ReturnType<typeof recordStatements>;
let recordOf: ReturnType<typeof recordStatements>['recordOf'];
afterAll(() => recorder?.stop());
let owner: Tenant;
let w: Awaited<ReturnType<typeof technicianWorld>>;

/** The reach tables a statement reads or writes. */
function tablesOf(sql: string): string[] {
  const out = new Set<string>();
  for (const m of sql.matchAll(/\b(?:from|join|update|into)\s+"?(\w+)"?/gi)) if ((REACH_TABLES as readonly string[]).includes(m[1])) out.add(m[1]);
  return [...out];
}

/** The aliases of the reach's own sets (src/data/reach.ts): the tables they read are the reach itself. */
const REACH_ALIASES = /^r(j|v|va|c|l)$/;

/**
 * The rows of reach tables a statement reads without the reach condition on them: each `from` or
 * `join` of such a table (by its alias) must be compared with the reach's set
 * (`<alias>."uuid" = any(array(select "r…`) or joined to the technician's rows of job_reach, except MikroORM's join of a relation's target that
 * reads nothing but its key (the reference's check under the tenant filter).
 */
function unreached(sql: string): string[] {
  const out: string[] = [];
  for (const m of sql.matchAll(/\b(from|join)\s+"?(\w+)"?(?:\s+as\s+"?(\w+)"?)?/gi)) {
    const [, how, table, alias] = m;
    if (!(REACH_TABLES as readonly string[]).includes(table) || (alias && REACH_ALIASES.test(alias))) continue;
    const column = table === 'job_photos' ? 'job_uuid' : 'uuid';
    const on = alias ? `"?${alias}"?\\."${column}"` : `(?:^|[ (])"${column}"`;
    if (new RegExp(`${on} = any\\(array\\(select "r`).test(sql)) continue;
    // A technician's job list read from their kept rows (src/data/reach.ts reachDrivesList): the job
    // joined to its row of job_reach, whose user is compared.
    if (table === 'jobs' && alias && new RegExp(`${on} = "r"\\."job_uuid"`).test(sql) && /from "job_reach" as "r" join /.test(sql) && sql.includes('"r"."user_id" = ?')) continue;
    // A job's customer, location or photos read with a job in reach, by the job's key
    // (src/data/reach.ts reachFollows): the job's condition holds them.
    const heldJobs = /from "job_reach" as "r" join "jobs" as e /.test(sql) || /from "jobs" as e\b[^]*?e\."uuid" = any\(array\(select "rj"/.test(sql);
    const byJob = { customers: `"${alias}"."uuid" = e."customer_uuid"`, locations: `"${alias}"."uuid" = e."location_uuid"`, job_photos: `"${alias}"."job_uuid" = e."uuid"` }[table];
    if (alias && heldJobs && byJob && sql.includes(byJob)) continue;
    const read = alias ? [...sql.matchAll(new RegExp(`"${alias}"\\."(\\w+)"`, 'g'))].map((c) => c[1]) : [];
    if (how.toLowerCase() === 'join' && read.every((c) => ['uuid', 'company_uuid'].includes(c))) continue;
    out.push(`${table} as ${alias ?? table}`);
  }
  return out;
}

/** The statements of `what` that read rows of reach tables outside the technician's reach. */
function offenders(what: string, statements: readonly Statement[], userId: string): string[] {
  const out: string[] = [];
  for (const s of statements) {
    if (!tablesOf(s.sql).length) continue;
    const missing = unreached(s.sql);
    const carries = s.sql.includes(userId) || JSON.stringify(s.params ?? []).includes(userId);
    if ((carries && !missing.length) || EXCEPTIONS.some(([, re]) => re.test(s.sql.trim())) || (s.flush && FLUSH_WRITES.test(s.sql.trim()))) continue;
    out.push(`${what}: ${missing.join(', ') || 'no user'}: ${s.sql.slice(0, 400)} ${JSON.stringify(s.params).slice(0, 200)}`);
  }
  return out;
}

beforeAll(async () => {
  recorder = recordStatements(t.orm);
  recordOf = recorder.recordOf;
});

beforeEach(async () => {
  owner = await createTenant(t, { name: 'Alpha Plumbing', addons: ['job_photos'] });
  w = await technicianWorld(t, owner);
  // Both jobs carry a schedule, so that a technician's GET of their job's schedule reads one.
  for (const job of [w.jobs.mine, w.jobs.other]) {
    const res = await request(t.app).put(`/api/v1/jobs/${job.uuid}/schedule`).set('Authorization', `Bearer ${owner.key}`).send({ rrule: 'FREQ=MONTHLY;BYMONTHDAY=1', starts_on: '2027-01-01', all_day: true, horizon_days: 30 });
    expect(res.status).toBe(200);
  }
  // Each record carries an external id of its side, for the by_external_id routes (docs/custom-fields.md).
  for (const which of ['mine', 'other'] as const) {
    for (const [plural, rec] of [['customers', w.customers[which]], ['locations', w.locations[which]], ['jobs', w.jobs[which]], ['visits', w.visits[which]]] as const) {
      const res = await request(t.app).put(`/api/v1/${plural}/${rec.uuid}`).set('Authorization', `Bearer ${owner.key}`).send({ external_ids: { crm: which } });
      expect(res.status).toBe(200);
    }
  }
});

const technician = rightsOf('technician', ['*']);

/** The resource a route's records are (`/jobs/:job_uuid/photos` is photos'), to pick its path's ids. */
function resourceOf(route: RouteDef): Resource {
  const parts = route.path.split('/').filter((p) => p && !p.startsWith(':'));
  return (parts[1] === 'photos' || parts[1] === 'visits' ? parts[1] : parts[0]) as Resource;
}

/** The routes a technician may call: those whose declared scopes their role holds. */
const technicians = (route: RouteDef) => scopeList(route.scope).every((scope) => technician.allows(scope));

it("REST: every statement of a technician's routes on a reach table carries the technician", async () => {
  const found: string[] = [];
  const ran: string[] = [];
  for (const route of routes) {
    const resource = resourceOf(route);
    if (!technicians(route) || route.method === 'DELETE' || route.path.endsWith('/photos') && route.method === 'POST') continue;
    // Their records, and another's: a statement without the reach would find the other's.
    for (const which of ['mine', 'other'] as const) {
      const ids: Record<string, string> = { job_uuid: w.jobs[which].uuid, photo_uuid: w.photos[which] };
      const own: Record<string, string> = { customers: w.customers[which].uuid, locations: w.locations[which].uuid, jobs: w.jobs[which].uuid, visits: w.visits[which].uuid };
      const path = route.path.replace(/:(\w+)/g, (_m, name: string) => (name === 'uuid' ? own[resource] : name === 'source' ? 'crm' : name === 'id' ? which : ids[name]));
      const body = route.path.endsWith('/complete') ? {} : route.method === 'PUT' ? { instructions: 'Ring twice' } : undefined;
      let status = 0;
      const statements = await recordOf(async () => {
        const r = request(t.app)[route.method.toLowerCase() as 'get' | 'post' | 'put'](`/api/v1${path}`).set('Authorization', `Bearer ${w.tech.key}`);
        status = (await (body === undefined ? r : r.send(body))).status;
      });
      // Their records are read (the other's are 404).
      if (route.method === 'GET') expect([path, which, status]).toEqual([path, which, which === 'mine' ? 200 : (route.plural || route.stream) && !route.path.includes(':') ? 200 : 404]);
      ran.push(`${route.method} ${path}`);
      found.push(...offenders(`${route.method} ${path}`, statements, w.tech.userId));
    }
  }
  expect(found).toEqual([]);
  // Every read and write of jobs, visits, customers, locations and photos that a technician may make.
  expect(ran.length).toBeGreaterThanOrEqual(2 * 11);
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

it("GraphQL: every statement of a technician's queries and visit writes on a reach table carries the technician", async () => {
  const schema = buildGraphQLSchema();
  const found: string[] = [];
  const ran: string[] = [];
  const types = new Set(['Job', 'JobPage', 'Visit', 'VisitPage', 'Customer', 'CustomerPage', 'Location', 'LocationPage', 'JobPhoto', 'JobPhotoPage']);
  const byType: Record<string, [string, string]> = {
    Job: [w.jobs.mine.uuid, w.jobs.other.uuid],
    Visit: [w.visits.mine.uuid, w.visits.other.uuid],
    Customer: [w.customers.mine.uuid, w.customers.other.uuid],
    Location: [w.locations.mine.uuid, w.locations.other.uuid],
    JobPhoto: [w.photos.mine, w.photos.other],
  };
  for (const field of Object.values(schema.getQueryType()!.getFields())) {
    const named = getNamedType(field.type);
    if (!types.has(named.name)) continue;
    const required = field.args.filter((x) => isNonNullType(x.type));
    if (required.some((x) => getNamedType(x.type).name !== 'UUID')) continue;
    for (const which of [0, 1]) {
      const variables = Object.fromEntries(required.map((x) => [x.name, (x.name === 'jobUuid' ? byType.Job : byType[named.name.replace(/Page$/, '')])[which]]));
      const defs = required.map((x) => `$${x.name}: ${x.type.toString()}`).join(', ');
      const args = required.length ? `(${required.map((x) => `${x.name}: $${x.name}`).join(', ')})` : '';
      const text = `query${defs ? `(${defs})` : ''} { ${field.name}${args} ${selectionOf(named, 2)} }`;
      const statements = await recordOf(() => request(t.app).post('/graphql').set('Authorization', `Bearer ${w.tech.key}`).send({ query: text, variables }));
      ran.push(field.name);
      found.push(...offenders(`query ${field.name}`, statements, w.tech.userId));
    }
  }
  // The writes a technician makes on their visits, with what the answer reads.
  for (const uuid of [w.visits.mine.uuid, w.visits.other.uuid]) {
    for (const text of [
      'mutation($u: UUID!) { updateVisit(uuid: $u, input: { instructions: "Ring twice" }) { uuid job { uuid customer { uuid } } } }',
      'mutation($u: UUID!) { completeVisit(uuid: $u) { uuid job { uuid visits { uuid } } } }',
    ]) {
      let errors: unknown;
      const statements = await recordOf(async () => {
        errors = (await request(t.app).post('/graphql').set('Authorization', `Bearer ${w.tech.key}`).send({ query: text, variables: { u: uuid } })).body.errors;
      });
      // Their visit is written; the other's is not found.
      expect(errors === undefined).toBe(uuid === w.visits.mine.uuid);
      found.push(...offenders(text.slice(0, 40), statements, w.tech.userId));
    }
  }
  expect(found).toEqual([]);
  expect(new Set(ran)).toEqual(new Set(['job', 'jobs', 'visit', 'visits', 'customer', 'customers', 'location', 'locations', 'jobPhotos', 'jobPhoto']));
});
