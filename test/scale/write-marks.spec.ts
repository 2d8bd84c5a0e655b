import { MARK_KEY_USED_SQL } from '../../src/auth/last-used';
import { lsnValue, TARGET_SQL } from '../../src/db/replicas';
import { SWEEP_SQL } from '../../src/db/write-sweep';
import { createTenant, rest, useTestApp } from '../helpers/app';

// The write marks of migration 0035 and their sweep (docs/scaling.md, "Reads on replicas"): what a
// replica must have replayed before it may answer a company's read.
const t = useTestApp();
const sql = (q: string, params: unknown[] = []) => t.orm.em.getConnection().execute<any[]>(q, params);
const target = async (company: string) => lsnValue((await sql(TARGET_SQL, [company, company]))[0].lsn);
const makeCustomers = (company: string) => sql(`insert into customers (uuid, company_uuid, first_name, last_name) values (gen_random_uuid(), ?, 'One', 'More')`, [company]);
const current = async () => lsnValue((await sql('select pg_current_wal_insert_lsn()::text as lsn'))[0].lsn);

it('every table with company_uuid, and companies, marks the companies its transactions write', async () => {
  const untracked = await sql(
    `select c.table_name from information_schema.columns c join information_schema.tables t using (table_schema, table_name)
     where c.table_schema = 'public' and c.column_name = 'company_uuid' and t.table_type = 'BASE TABLE'
       and c.table_name not in ('company_write_marks', 'company_wal')
       and not exists (select 1 from pg_trigger g where g.tgrelid = (quote_ident(c.table_name))::regclass and g.tgname = 'company_wal_' || c.table_name)`,
  );
  expect(untracked).toEqual([]);
  expect(await sql(`select 1 from pg_trigger where tgname = 'company_wal_companies'`)).toHaveLength(1);
});

it('the server sweeps: a write through the API is recorded with its position', async () => {
  const a = await createTenant(t);
  const res = await rest(t, a).post('/customers', { first_name: 'Swept', last_name: 'Soon' });
  expect(res.status).toBe(200);
  const deadline = Date.now() + 30_000;
  while ((await sql(`select 1 from company_write_marks where company_uuid = ?`, [a.companyUuid])).length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  expect(await sql(`select 1 from company_write_marks where company_uuid = ?`, [a.companyUuid])).toEqual([]);
  expect(await sql(`select 1 from company_wal where company_uuid = ?`, [a.companyUuid])).toHaveLength(1);
});

it('a write is marked until swept; marked, the target is the current WAL position; swept, the recorded one, which covers the write', async () => {
  const a = await createTenant(t);
  const b = await createTenant(t, { name: 'Other Plumbing' });
  // The app's own sweeps stopped (this is the file's last test), so that the marks stay until this test sweeps.
  await t.built.sweeper.stop();
  await sql(SWEEP_SQL);
  const recordedA = await target(a.companyUuid);
  const recordedB = await target(b.companyUuid);
  // One transaction, 50 rows of one company: one mark.
  await sql(`insert into customers (uuid, company_uuid, first_name, last_name) select gen_random_uuid(), ?, 'C' || i, 'L' from generate_series(1, 50) as i`, [a.companyUuid]);
  expect(await sql(`select company_uuid from company_write_marks`)).toEqual([{ company_uuid: a.companyUuid }]);
  // Two more transactions of a, one of b: a mark each, swept together below.
  await makeCustomers(a.companyUuid);
  await makeCustomers(a.companyUuid);
  await makeCustomers(b.companyUuid);
  expect(await sql(`select company_uuid, count(*)::int as n from company_write_marks group by 1 order by 2`)).toEqual([
    { company_uuid: b.companyUuid, n: 1 },
    { company_uuid: a.companyUuid, n: 3 },
  ]);
  const written = await current();
  // Marked: the position at the read, at least the write's.
  expect(await target(a.companyUuid)).toBeGreaterThanOrEqual(written);
  await sql(SWEEP_SQL);
  expect(await sql(`select * from company_write_marks`)).toEqual([]);
  const swept = await target(a.companyUuid);
  expect(swept).toBeGreaterThanOrEqual(written);
  expect(swept).toBeGreaterThan(recordedA);
  expect(await target(b.companyUuid)).toBeGreaterThan(recordedB);
  // Nothing of b's since: b's target stays while a writes.
  const bNow = await target(b.companyUuid);
  await makeCustomers(a.companyUuid);
  expect(await target(b.companyUuid)).toBe(bNow);
  // A key marked used (last_used_at, migration 0038) is no write of the company; a key renamed is.
  const [key] = await sql(`select id from api_keys where company_uuid = ?`, [b.companyUuid]);
  await sql(`update api_keys set last_used_at = null where id = ?`, [key.id]);
  await sql(SWEEP_SQL);
  const bBefore = await target(b.companyUuid);
  await sql(MARK_KEY_USED_SQL, [key.id, b.companyUuid]);
  expect(await sql(`select last_used_at from api_keys where id = ? and last_used_at is not null`, [key.id])).toHaveLength(1);
  expect(await sql(`select 1 from company_write_marks where company_uuid = ?`, [b.companyUuid])).toEqual([]);
  expect(await target(b.companyUuid)).toBe(bBefore);
  await sql(`update api_keys set name = 'Renamed' where id = ?`, [key.id]);
  expect(await sql(`select 1 from company_write_marks where company_uuid = ?`, [b.companyUuid])).toHaveLength(1);
});
