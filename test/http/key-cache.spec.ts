import { Client } from 'pg';
import { ACCESS_TABLES, KeyCache } from '../../src/auth/key-cache';
import { ApiKey } from '../../src/modules/api-key/api-key.entity';
import { Company } from '../../src/modules/company/company.entity';
import { User } from '../../src/modules/user/user.entity';
import { hashApiKey } from '../../src/auth/api-key';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { createTenant, rest, useTestApp } from '../helpers/app';

// The API key cache (src/auth/key-cache.ts) on its own: what it keeps, what empties it, and that
// it is not trusted while it does not listen. test/http/key-cache-processes.spec.ts runs it in two
// server processes.
const t = useTestApp();

let sql: Client;
beforeAll(async () => {
  sql = new Client({ connectionString: t.url });
  await sql.connect();
});
afterAll(async () => {
  await sql?.end();
});

const until = async (cond: () => boolean | Promise<boolean>) => {
  while (!(await cond())) await new Promise((r) => setTimeout(r, 10));
};

/** A cache over this test's database and a counting loader of one key's row. */
async function cacheOf(tenantKey: string, options: ConstructorParameters<typeof KeyCache>[1] = {}) {
  const cache = new KeyCache(t.url, { applicationName: `fsc-key-cache-test-${process.pid}`, ...options });
  await cache.start();
  const hash = hashApiKey(tenantKey);
  let loads = 0;
  const load = async () => {
    loads++;
    const { rows } = await sql.query(`select k.id, k.revoked_at, c.addons from api_keys k join companies c on c.uuid = k.company_uuid where k.key_hash = $1 and k.revoked_at is null`, [hash]);
    return rows[0] as Record<string, unknown> | undefined;
  };
  return { cache, find: () => cache.find(hash, load), loads: () => loads };
}

it('the tables whose changes notify are the tables the key lookup reads (migration 0020 and ACCESS_TABLES agree)', async () => {
  const { rows } = await sql.query(
    `select distinct c.relname from pg_trigger tg join pg_class c on c.oid = tg.tgrelid join pg_proc p on p.oid = tg.tgfoid where p.proname = 'access_changed' and not tg.tgisinternal order by 1`,
  );
  const read = [ApiKey, Company, User].map((e) => t.orm.getMetadata().get(e.name).tableName).sort();
  expect(rows.map((r) => r.relname)).toEqual(read);
  expect([...ACCESS_TABLES].sort()).toEqual(read);
  // Update, delete and truncate of each table notify.
  const events = await sql.query(
    `select c.relname, tg.tgtype from pg_trigger tg join pg_class c on c.oid = tg.tgrelid join pg_proc p on p.oid = tg.tgfoid where p.proname = 'access_changed'`,
  );
  for (const table of read) {
    const mask = events.rows.filter((r) => r.relname === table).reduce((m, r) => m | r.tgtype, 0);
    // pg_trigger.tgtype bits: 8 delete, 16 update, 32 truncate.
    expect(mask & (8 | 16 | 32)).toBe(8 | 16 | 32);
  }
});

it('keeps a key once read, and every change of a key, company or user empties it', async () => {
  const a = await createTenant(t);
  const c = await cacheOf(a.key);
  try {
    expect(c.cache.active).toBe(true);
    await c.find();
    await c.find();
    expect(c.loads()).toBe(1);
    for (const change of [
      `update companies set name = name || '.' where uuid = '${a.companyUuid}'`,
      `update users set first_name = first_name where company_uuid = '${a.companyUuid}'`,
      `update api_keys set allowed_ips = null where company_uuid = '${a.companyUuid}'`,
      // A change of another company's rows empties it too (the cache is emptied whole).
      `update companies set name = name where uuid <> '${a.companyUuid}'`,
    ]) {
      const before = c.loads();
      await sql.query(change);
      // The next find after the commit reads again: no waiting for the notification here, the fence does it.
      await c.find();
      expect(c.loads()).toBe(before + 1);
      await c.find();
      expect(c.loads()).toBe(before + 1);
    }
    // A rolled-back change notifies nothing.
    await sql.query('begin');
    await sql.query(`update companies set name = 'x' where uuid = '${a.companyUuid}'`);
    await sql.query('rollback');
    const before = c.loads();
    await c.find();
    expect(c.loads()).toBe(before);
    // Revoked: not found, and not kept.
    await sql.query(`update api_keys set revoked_at = now() where company_uuid = '${a.companyUuid}'`);
    expect(await c.find()).toBeUndefined();
    expect(await c.find()).toBeUndefined();
    expect(c.loads()).toBe(before + 2);
  } finally {
    await c.cache.stop();
  }
});

it('the fence is a bare Sync of the listening session, and a change committed just before a find is always seen', async () => {
  const a = await createTenant(t);
  const c = await cacheOf(a.key);
  try {
    await c.find();
    const listener = (c.cache as unknown as { client: Client }).client;
    // The session's last statement and when it began (a statement fence would move query_start,
    // even one of the same text as the statement the session connected with).
    const lastStatement = async () => (await sql.query(`select query, query_start::text as began from pg_stat_activity where pid = $1`, [c.cache.listenerPid])).rows[0];
    const before = await lastStatement();
    for (let i = 0; i < 50; i++) {
      const loads = c.loads();
      await sql.query(`update companies set name = name where uuid = '${a.companyUuid}'`);
      await c.find();
      expect(c.loads()).toBe(loads + 1);
    }
    // No statement was run for the fences: the session's last statement is still the one it
    // connected with, and it prepared none.
    expect(before.query).toBe('select pg_backend_pid() as pid');
    expect(await lastStatement()).toEqual(before);
    expect((await listener.query('select name from pg_prepared_statements')).rows).toEqual([]);
  } finally {
    await c.cache.stop();
  }
  // DB_PREPARED_STATEMENTS=false (a pooler): the fence is FENCE's text, whose answer names the session.
  const plain = await cacheOf(a.key, { fence: 'statement' });
  try {
    await plain.find();
    await sql.query(`update companies set name = name where uuid = '${a.companyUuid}'`);
    const before = plain.loads();
    await plain.find();
    expect(plain.loads()).toBe(before + 1);
    await plain.find();
    expect(plain.loads()).toBe(before + 1);
    const listener = (plain.cache as unknown as { client: Client }).client;
    expect((await listener.query('select name from pg_prepared_statements')).rows).toEqual([]);
    // An answer from another backend than the listening one: not trusted, and the connection is dropped.
    (plain.cache as unknown as { listenPid: number }).listenPid = -1;
    await plain.find();
    expect(plain.loads()).toBe(before + 2);
    expect(plain.cache.active).toBe(false);
  } finally {
    await plain.cache.stop();
  }
});

it('a fence left unanswered counts as a lost connection, whichever form it has', async () => {
  const a = await createTenant(t);
  for (const fence of ['sync', 'statement'] as const) {
    const c = await cacheOf(a.key, { fence, fenceTimeoutMs: 200, reconnectMs: 60_000 });
    try {
      await c.find();
      expect(c.loads()).toBe(1);
      // The answer never reaches this process.
      (c.cache as unknown as { client: { connection: { stream: { pause(): void } } } }).client.connection.stream.pause();
      await c.find();
      expect(c.loads()).toBe(2);
      expect(c.cache.active).toBe(false);
    } finally {
      await c.cache.stop();
    }
  }
});

it('a row read while a change commits is not kept', async () => {
  const a = await createTenant(t);
  const cache = new KeyCache(t.url, { applicationName: `fsc-key-cache-test-${process.pid}` });
  await cache.start();
  try {
    const hash = hashApiKey(a.key);
    let loads = 0;
    const racing = async () => {
      loads++;
      const { rows } = await sql.query(`select id from api_keys where key_hash = $1`, [hash]);
      // The row is read; a change commits and its notification arrives before the row is stored.
      const seen = cache.invalidations;
      await sql.query(`update api_keys set usage_limit = 5, usage_period = 'hour' where key_hash = $1`, [hash]);
      await until(() => cache.invalidations > seen);
      return rows[0];
    };
    await cache.find(hash, racing);
    await cache.find(hash, racing);
    expect(loads).toBe(2);
  } finally {
    await cache.stop();
  }
});

it('while its connection is lost the cache is not used, and it listens again after', async () => {
  const a = await createTenant(t);
  const c = await cacheOf(a.key, { reconnectMs: 60_000 });
  try {
    await c.find();
    await c.find();
    expect(c.loads()).toBe(1);
    await sql.query(`select pg_terminate_backend($1)`, [c.cache.listenerPid]);
    await until(() => !c.cache.active);
    // Not listening: every find reads the row, and a change made meanwhile is seen at once.
    await c.find();
    await c.find();
    expect(c.loads()).toBe(3);
    await sql.query(`update api_keys set revoked_at = now() where company_uuid = '${a.companyUuid}'`);
    expect(await c.find()).toBeUndefined();
  } finally {
    await c.cache.stop();
  }

  const b = await createTenant(t);
  const d = await cacheOf(b.key, { reconnectMs: 20 });
  try {
    await d.find();
    const pid = d.cache.listenerPid;
    await sql.query(`select pg_terminate_backend($1)`, [pid]);
    await until(() => d.cache.active && d.cache.listenerPid !== pid);
    // Listening again: nothing kept from before the loss; kept again from now on.
    const before = d.loads();
    await d.find();
    await d.find();
    expect(d.loads()).toBe(before + 1);
    await sql.query(`update companies set addons = '{}' where uuid = '${b.companyUuid}'`);
    expect((await d.find())?.addons).toEqual([]);
  } finally {
    await d.cache.stop();
  }
});

it('the app answers from the cache with the same context as a lookup, and refuses a revoked key at once', async () => {
  const a = await createTenant(t);
  const first = await rest(t, a).get('/companies/me');
  const second = await rest(t, a).get('/companies/me');
  expect(second.status).toBe(200);
  expect(second.body).toEqual(first.body);
  await sql.query(`update api_keys set revoked_at = now() where company_uuid = '${a.companyUuid}'`);
  const refused = await rest(t, a).get('/companies/me');
  expect(refused.status).toBe(401);
  expect(refused.body.error.code).toBe('UNAUTHORIZED');
});

it('the app fences with a bare Sync, and with the statement under DB_PREPARED_STATEMENTS=false', async () => {
  const a = await createTenant(t);
  for (const [prepared, statementRuns] of [['true', false], ['false', true]] as const) {
    const built = await createApp({ orm: t.orm, config: loadConfig({ ...process.env, DATABASE_URL: t.url, DB_PREPARED_STATEMENTS: prepared }) });
    try {
      const began = async () => (await sql.query(`select query_start::text as began from pg_stat_activity where pid = $1`, [built.keys!.listenerPid])).rows[0].began;
      const get = () => rest({ ...t, app: built.app }, a).get('/companies/me');
      expect((await get()).status).toBe(200);
      const before = await began();
      // The key is kept now: this request waits for a fence only.
      expect((await get()).status).toBe(200);
      expect((await began()) !== before).toBe(statementRuns);
    } finally {
      await built.close();
    }
  }
});
