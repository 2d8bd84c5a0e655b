import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import request from 'supertest';
import type { Express } from 'express';
import { createApp, type App } from '../../src/app';
import { loadConfig } from '../../src/config';
import { initOrm, Orm } from '../../src/db/orm';
import { createCompany, createUser } from '../../src/modules/company/company.admin';
import { checkRecorded, recording } from './openapi-check';

export interface TestApp {
  app: Express;
  orm: Orm;
  /** Connection URL of this worker's database. */
  url: string;
  /** What createApp returned (its live feed reader, attach for WebSocket upgrades). */
  built: App;
}

let databaseUrl: Promise<string> | undefined;

/**
 * This suite's database (its module registry's): a fresh clone of the migrated template (no migrations re-run), under
 * a name of its own. Nothing is dropped here: the global teardown drops the run's databases all at
 * once (a DROP DATABASE waits for a checkpoint, seconds on a server that syncs to disk).
 */
export function workerDatabase(): Promise<string> {
  databaseUrl ??= (async () => {
    const server = process.env.FSC_TEST_SERVER_URL!;
    const run = process.env.FSC_TEST_RUN!;
    const name = `${run}_w${process.env.JEST_WORKER_ID ?? '1'}_${randomBytes(4).toString('hex')}`;
    const admin = new Client({ connectionString: server });
    await admin.connect();
    await admin.query(`create database ${name} template ${run}_tpl`);
    // A database of the run's own, dropped at its end: its commits need not wait for the disk (on
    // the server of DATABASE_URL, whose settings are not ours, this database's setting only; the
    // run's embedded cluster has it already, test/setup/global-setup.ts).
    await admin.query(`alter database ${name} set synchronous_commit = off`);
    await admin.end();
    const url = new URL(server);
    url.pathname = `/${name}`;
    return url.toString();
  })();
  return databaseUrl;
}

let tables: string[] | undefined;

/**
 * Empties every table but the migrations' own, as `truncate … cascade` of them all would, at a
 * fraction of its cost: only the tables that hold rows, by `delete` with triggers off
 * (`session_replication_role = replica`: no row triggers, no foreign-key checks, as TRUNCATE fires
 * none). A truncate makes new files for every table and index and waits for them at commit (half a
 * second per test on a server with fsync); a test leaves rows in a handful of small tables.
 * A role that may not set session_replication_role (not a superuser) truncates those tables.
 */
export async function resetDatabase(orm: Orm): Promise<void> {
  const conn = orm.em.getConnection();
  tables ??= (
    await conn.execute<{ tablename: string }[]>(`select tablename from pg_tables where schemaname = 'public' and tablename <> 'mikro_orm_migrations' order by tablename`)
  ).map((r) => r.tablename);
  if (!tables.length) return;
  const filled = (await conn.execute<{ t: string }[]>(tables.map((t) => `select '${t}' as t where exists (select 1 from "${t}")`).join(' union all '))).map((r) => `"${r.t}"`);
  if (!filled.length) return;
  // The app's background work (the write-position sweep after each commit and every second, a
  // worker's task) may hold rows of these tables in another order: a deadlock is tried again.
  for (let attempt = 1; ; attempt++) {
    try {
      await conn.getKnex().transaction(async (trx) => {
        await trx.raw('set local session_replication_role = replica');
        await trx.raw(filled.map((t) => `delete from ${t}`).join('; '));
      });
      return;
    } catch (err) {
      if ((err as { code?: string }).code === '40P01' && attempt < 10) continue;
      if (!/permission denied/i.test(String((err as Error).message))) throw err;
      await conn.execute(`truncate ${filled.join(', ')} cascade`);
      return;
    }
  }
}

/**
 * Registers the hooks of a spec file: one app on this worker's database, emptied before each test.
 * Use the returned object's fields inside tests (they are set in beforeAll).
 */
export function useTestApp(env: Record<string, string> | (() => Record<string, string>) = {}): TestApp {
  const t = {} as TestApp;
  let close: () => Promise<void>;
  // Every /api/v1 response of the spec file, held against the OpenAPI document after it.
  const responses: Parameters<typeof recording>[1] = [];
  beforeAll(async () => {
    const step = slowStepReport();
    try {
      t.url = await step('the database', workerDatabase());
      t.orm = await step('initOrm', initOrm(t.url, 5));
      const config = loadConfig({ ...process.env, DATABASE_URL: t.url, ...(typeof env === 'function' ? env() : env) });
      const built = await step('createApp', createApp({ orm: t.orm, config }));
      t.app = recording(built.app, responses);
      t.built = built;
      close = built.close;
    } finally {
      step.done();
    }
  });
  afterAll(() => checkRecorded(responses));
  beforeEach(async () => {
    await resetDatabase(t.orm);
  });
  afterAll(async () => {
    await close?.();
    await t.orm?.close(true);
  });
  return t;
}

/**
 * Names the step of an app's start that takes longer than SLOW_STEP_MS, with what the database's
 * connections are doing then (pg_stat_activity), on stderr: a start that runs into the hook's
 * timeout says where it waited.
 */
const SLOW_STEP_MS = 15_000;
function slowStepReport() {
  let current = '';
  const step = <T>(name: string, p: Promise<T>): Promise<T> => {
    current = name;
    return p;
  };
  const timer = setTimeout(() => void reportSlowStep(current), SLOW_STEP_MS);
  timer.unref();
  return Object.assign(step, { done: () => clearTimeout(timer) });
}

async function reportSlowStep(step: string): Promise<void> {
  const admin = new Client({ connectionString: process.env.FSC_TEST_SERVER_URL, connectionTimeoutMillis: 5_000 });
  let activity = '';
  try {
    await admin.connect();
    const { rows } = await admin.query(
      `select pid, datname, state, wait_event_type, wait_event, now() - query_start as running, left(query, 120) as query from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid() order by query_start`,
    );
    activity = rows.map((r) => JSON.stringify(r)).join('\n');
  } catch (err) {
    activity = `(pg_stat_activity not read: ${(err as Error).message})`;
  } finally {
    await admin.end().catch(() => undefined);
  }
  process.stderr.write(`useTestApp: ${step} has taken over ${SLOW_STEP_MS / 1000} s; the server's connections:\n${activity}\n`);
}

export interface Tenant {
  key: string;
  companyUuid: string;
  userId: string;
}

/** A company with its first user and an API key. */
export async function createTenant(t: TestApp, o: { name?: string; addons?: string[] } = {}): Promise<Tenant> {
  const em = t.orm.em.fork();
  const { company, user, apiKey } = await createCompany(em, { name: o.name ?? 'Acme Plumbing', email: 'office@acme.example', addons: o.addons });
  return { key: apiKey, companyUuid: company.uuid, userId: user.id };
}

export async function addUser(t: TestApp, tenant: Tenant, firstName = 'Tess', lastName = 'Tech') {
  return createUser(t.orm.em.fork(), { companyUuid: tenant.companyUuid, firstName, lastName });
}

/** REST calls with a tenant's key. */
export function rest(t: TestApp, tenant: Tenant | string) {
  const key = typeof tenant === 'string' ? tenant : tenant.key;
  const auth = (r: request.Test) => r.set('Authorization', `Bearer ${key}`);
  return {
    get: (path: string) => auth(request(t.app).get(`/api/v1${path}`)),
    post: (path: string, body?: object) => auth(request(t.app).post(`/api/v1${path}`)).send(body ?? {}),
    put: (path: string, body?: object) => auth(request(t.app).put(`/api/v1${path}`)).send(body ?? {}),
    delete: (path: string) => auth(request(t.app).delete(`/api/v1${path}`)),
  };
}

/** A GraphQL operation with a tenant's key; resolves to the response body. */
export async function gql(t: TestApp, tenant: Tenant | string, query: string, variables?: object, headers: Record<string, string> = {}) {
  const key = typeof tenant === 'string' ? tenant : tenant.key;
  const res = await request(t.app).post('/graphql').set('Authorization', `Bearer ${key}`).set(headers).send({ query, variables });
  return res.body as { data?: any; errors?: Array<{ message: string; extensions: { code: string; details?: Array<{ field: string; message: string }> } }> };
}

/**
 * Registers the hooks of a plain `pg` client on this worker's database (connected in beforeAll,
 * ended in afterAll), for tests that read or write rows beside the API. The returned object is the
 * client, usable inside tests.
 */
export function useDbClient(): Client {
  let client: Client | undefined;
  beforeAll(async () => {
    client = new Client({ connectionString: await workerDatabase() });
    await client.connect();
  });
  afterAll(() => client?.end());
  return new Proxy({} as Client, {
    get(_target, name) {
      if (!client) throw new Error('useDbClient: the client is connected in beforeAll; use it inside tests');
      const value = Reflect.get(client, name, client) as unknown;
      return typeof value === 'function' ? value.bind(client) : value;
    },
  });
}
