import 'reflect-metadata';
import { Client } from 'pg';
import request from 'supertest';
import type { Express } from 'express';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { initOrm, Orm } from '../../src/db/orm';
import { createCompany, createUser } from '../../src/modules/company/company.admin';
import { checkRecorded, recording } from './openapi-check';

export interface TestApp {
  app: Express;
  orm: Orm;
  /** Connection URL of this worker's database. */
  url: string;
}

let databaseUrl: Promise<string> | undefined;

/** This worker's database: a fresh clone of the migrated template (no migrations re-run). */
export function workerDatabase(): Promise<string> {
  databaseUrl ??= (async () => {
    const server = process.env.FSC_TEST_SERVER_URL!;
    const run = process.env.FSC_TEST_RUN!;
    const name = `${run}_w${process.env.JEST_WORKER_ID ?? '1'}`;
    const admin = new Client({ connectionString: server });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name} template ${run}_tpl`);
    await admin.end();
    const url = new URL(server);
    url.pathname = `/${name}`;
    return url.toString();
  })();
  return databaseUrl;
}

/** Truncates every table but the migrations' own. */
export async function resetDatabase(orm: Orm): Promise<void> {
  const conn = orm.em.getConnection();
  const rows = await conn.execute<{ tablename: string }[]>(
    `select tablename from pg_tables where schemaname = 'public' and tablename <> 'mikro_orm_migrations'`,
  );
  if (rows.length) await conn.execute(`truncate ${rows.map((r) => `"${r.tablename}"`).join(', ')} cascade`);
}

/**
 * Registers the hooks of a spec file: one app on this worker's database, emptied before each test.
 * Use the returned object's fields inside tests (they are set in beforeAll).
 */
export function useTestApp(env: Record<string, string> = {}): TestApp {
  const t = {} as TestApp;
  let close: () => Promise<void>;
  // Every /api/v1 response of the spec file, held against the OpenAPI document after it.
  const responses: Parameters<typeof recording>[1] = [];
  beforeAll(async () => {
    t.url = await workerDatabase();
    t.orm = await initOrm(t.url, 5);
    const built = await createApp({ orm: t.orm, config: loadConfig({ ...process.env, DATABASE_URL: t.url, ...env }) });
    t.app = recording(built.app, responses);
    close = built.close;
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
