import { Client } from 'pg';
import { KEPT_TABLES, keptCountOf } from '../../src/data/kept-counts';
import { createTenant, gql, rest, Tenant, useTestApp } from '../helpers/app';

// Kept counts of customers, locations and templates (migration 0016, src/data/kept-counts.ts):
// split into slots, kept for live rows and for all rows (include_deleted). The numbered
// documents' side: test/data/document-counts.spec.ts.

const t = useTestApp();

const sql = <T = any>(text: string, params: unknown[] = []) => t.orm.em.getConnection().execute<T[]>(text, params);

/** Per company: the kept counts (sum over slots) and counting the rows, live and all, of `table`. */
async function keptAndCounted(table: string) {
  const kept = await sql(
    `select company_uuid, sum(live)::int as live, sum(all_rows)::int as all from kept_counts where table_name = ? group by 1 having sum(all_rows) <> 0 order by 1`,
    [table],
  );
  const counted = await sql(`select company_uuid, (count(*) filter (where deleted_at is null))::int as live, count(*)::int as all from ${table} group by 1 order by 1`);
  return { kept, counted };
}

async function countsAgree(): Promise<void> {
  for (const table of KEPT_TABLES) {
    const { kept, counted } = await keptAndCounted(table);
    expect({ table, rows: kept }).toEqual({ table, rows: counted });
  }
}

const LISTS = ['customers', 'locations', 'templates'] as const;

/**
 * The totals of each list, unfiltered (the kept count) and with a filter that every row passes
 * (updated_since long ago: counted by the list's own conditions), live and with deleted records,
 * on both surfaces.
 */
async function listTotals(tenant: Tenant) {
  const out: Record<string, number> = {};
  const since = 'updated_since=2000-01-01T00:00:00Z';
  for (const list of LISTS) {
    const total = async (q: string) => {
      const res = await rest(t, tenant).get(`/${list}?${q}`);
      expect(res.status).toBe(200);
      return res.body.data.pagination.total as number;
    };
    out[`${list} kept`] = await total('');
    out[`${list} counted`] = await total(since);
    out[`${list} all kept`] = await total('include_deleted=true');
    out[`${list} all counted`] = await total(`include_deleted=true&${since}`);
  }
  const g = await gql(
    t,
    tenant,
    `{ customers { pagination { total } } c2: customers(includeDeleted: true) { pagination { total } }
       locations { pagination { total } } l2: locations(includeDeleted: true) { pagination { total } }
       templates { pagination { total } } t2: templates(includeDeleted: true) { pagination { total } } }`,
  );
  expect(g.errors).toBeUndefined();
  out['customers graphql'] = g.data.customers.pagination.total;
  out['customers all graphql'] = g.data.c2.pagination.total;
  out['locations graphql'] = g.data.locations.pagination.total;
  out['locations all graphql'] = g.data.l2.pagination.total;
  out['templates graphql'] = g.data.templates.pagination.total;
  out['templates all graphql'] = g.data.t2.pagination.total;
  return out;
}

/** What every total of listTotals must be: the company's rows counted in SQL. */
async function expectedTotals(tenant: Tenant) {
  const out: Record<string, number> = {};
  for (const list of LISTS) {
    const [r] = await sql(`select (count(*) filter (where deleted_at is null))::int as live, count(*)::int as all from ${list} where company_uuid = ?`, [tenant.companyUuid]);
    Object.assign(out, { [`${list} kept`]: r.live, [`${list} counted`]: r.live, [`${list} all kept`]: r.all, [`${list} all counted`]: r.all });
    Object.assign(out, { [`${list} graphql`]: r.live, [`${list} all graphql`]: r.all });
  }
  return out;
}

const addTemplates = (tenant: Tenant, n: number) =>
  sql(
    `insert into templates (uuid, company_uuid, name, pricing_type, base_price) select gen_random_uuid(), ?, 'T' || i, 'flat', 10 from generate_series(1, ?::int) i`,
    [tenant.companyUuid, n],
  );

describe('kept counts of customers, locations and templates', () => {
  it('are kept for exactly the tables the code reads them for, with the same rule of a live row', async () => {
    const triggers = await sql(`select distinct c.relname as t from pg_trigger g join pg_class c on c.oid = g.tgrelid where g.tgname like '%\\_count\\_insert' order by 1`);
    expect(triggers.map((r) => r.t)).toEqual([...KEPT_TABLES].sort());
    // The TypeScript side of the rule: which unfiltered list reads which count.
    expect(keptCountOf(true, false, false)).toBe('live');
    expect(keptCountOf(true, true, false)).toBe('all');
    expect(keptCountOf(true, false, true)).toBeNull();
    expect(keptCountOf(false, false, false)).toBeNull();
    // The SQL side: the triggers count a row as live exactly when deleted_at is null, the
    // condition listPage writes for a list without include_deleted.
    const [fn] = await sql(`select prosrc from pg_proc where proname = 'kept_counts_inserted'`);
    expect(fn.prosrc).toContain('(deleted_at is null)::int');
  });

  it('give the same totals as counting the rows, on both surfaces, live and with deleted records', async () => {
    const a = await createTenant(t, { name: 'A' });
    const b = await createTenant(t, { name: 'B' });
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await rest(t, a).post('/customers', { first_name: 'C', last_name: String(i) })).body.data.uuid);
    await rest(t, b).post('/customers', { first_name: 'B', last_name: 'One' });
    const loc = await rest(t, a).post('/locations', { name: 'Depot', address1: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' });
    expect(loc.status).toBe(200);
    await addTemplates(a, 3);
    await addTemplates(b, 2);
    const expectAll = async () => {
      await countsAgree();
      for (const tenant of [a, b]) expect(await listTotals(tenant)).toEqual(await expectedTotals(tenant));
    };
    await expectAll();
    expect((await listTotals(a))['customers all kept']).toBe(5);

    // Deletes and restores through the API, both surfaces.
    expect((await rest(t, a).delete(`/customers/${made[0]}`)).status).toBe(200);
    expect((await rest(t, a).delete(`/customers/${made[1]}`)).status).toBe(200);
    expect((await gql(t, a, `mutation($u: UUID!) { deleteCustomer(uuid: $u) { message } }`, { u: made[2] })).errors).toBeUndefined();
    expect((await rest(t, a).post(`/customers/${made[1]}/restore`)).status).toBe(200);
    expect((await rest(t, a).delete(`/locations/${loc.body.data.uuid}`)).status).toBe(200);
    await expectAll();
    expect(await listTotals(a)).toMatchObject({ 'customers kept': 3, 'customers all kept': 5 });

    // Changes made in SQL, several rows per statement: soft delete, restore, hard delete, a copy, a move to another company.
    await sql(`update templates set deleted_at = now() where company_uuid = ?`, [a.companyUuid]);
    await sql(`update customers set deleted_at = null where company_uuid = ?`, [a.companyUuid]);
    await sql(`delete from templates where company_uuid = ? and name = 'T1'`, [a.companyUuid]);
    // (The search columns are generated: migration 0023.)
    const copied = 'company_uuid, first_name, last_name, company_name, email, phone, customer_type, is_vip, deleted_at, created_at, updated_at';
    await sql(`insert into customers (uuid, ${copied}) select gen_random_uuid(), ${copied} from customers c where c.company_uuid = ?`, [a.companyUuid]);
    await sql(`update templates set company_uuid = ? where company_uuid = ?`, [a.companyUuid, b.companyUuid]);
    await expectAll();
    expect(await listTotals(a)).toMatchObject({ 'customers kept': 10, 'templates kept': 2, 'templates all kept': 4 });
    expect(await listTotals(b)).toMatchObject({ 'templates kept': 0, 'templates all kept': 0 });

    // A rolled-back change leaves the counts as they were; TRUNCATE clears a table's counts.
    await t.orm.em.fork().transactional(async (em) => {
      await em.getConnection().execute(`delete from customers where company_uuid = ?`, [a.companyUuid], 'run', em.getTransactionContext());
      throw new Error('roll back');
    }).catch((e) => expect(String(e)).toContain('roll back'));
    await expectAll();
    await sql(`truncate templates cascade`);
    await expectAll();
  });

  it('are what the unfiltered lists read (a count changed by hand shows), live and all apart; filtered lists count', async () => {
    const a = await createTenant(t);
    const c = (await rest(t, a).post('/customers', { first_name: 'Ada', last_name: 'Lovelace' })).body.data;
    await rest(t, a).post('/customers', { first_name: 'Bob', last_name: 'Builder' });
    await rest(t, a).delete(`/customers/${c.uuid}`);
    await sql(`update kept_counts set live = live + 40, all_rows = all_rows + 70 where company_uuid = ? and table_name = 'customers' and slot = (select min(slot) from kept_counts where company_uuid = ? and table_name = 'customers')`, [a.companyUuid, a.companyUuid]);
    const totals = await listTotals(a);
    expect(totals).toMatchObject({ 'customers kept': 41, 'customers all kept': 72, 'customers graphql': 41, 'customers all graphql': 72, 'customers counted': 1, 'customers all counted': 2 });
    // A sorted list has no filter: the kept count; a search or a filter counts rows.
    expect((await rest(t, a).get('/customers?sort=last_name')).body.data.pagination.total).toBe(41);
    expect((await rest(t, a).get('/customers?search=bob')).body.data.pagination.total).toBe(1);
    expect((await rest(t, a).get('/customers?filter=residential')).body.data.pagination.total).toBe(1);
  });

  it('equal counting after concurrent creates, deletes and restores from several connections', async () => {
    const a = await createTenant(t, { name: 'A' });
    const b = await createTenant(t, { name: 'B' });
    const first = await Promise.all(Array.from({ length: 12 }, (_, i) => rest(t, a).post('/customers', { first_name: 'C', last_name: String(i) })));
    const ids = first.map((r) => r.body.data.uuid as string);
    // Eight connections of their own, each in transactions of several statements, alongside the
    // API's requests (its own pool): creates, soft deletes, restores and hard deletes of both companies.
    const clients = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const c = new Client({ connectionString: t.url });
        await c.connect();
        return c;
      }),
    );
    const insert = `insert into customers (uuid, company_uuid, first_name, last_name, customer_type, created_at, updated_at)
      select gen_random_uuid(), $1, 'Bulk', 'Row ' || i, 'Residential', now(), now() from generate_series(1, $2::int) i`;
    try {
      const work = clients.map(async (c, n) => {
        for (let round = 0; round < 5; round++) {
          await c.query('begin');
          try {
            await c.query(insert, [n % 2 ? a.companyUuid : b.companyUuid, 1 + ((n + round) % 3)]);
            await c.query(`update customers set deleted_at = now() where uuid = (select uuid from customers where company_uuid = $1 and deleted_at is null order by random() limit 1)`, [a.companyUuid]);
            if (round % 2) await c.query(`update customers set deleted_at = null where uuid = (select uuid from customers where company_uuid = $1 and deleted_at is not null order by random() limit 1)`, [a.companyUuid]);
            if (round === 3) await c.query(`delete from customers where uuid = (select uuid from customers where company_uuid = $1 and first_name = 'Bulk' order by random() limit 1)`, [b.companyUuid]);
            await c.query('commit');
          } catch (e) {
            // These transactions lock random customers in random orders, so PostgreSQL may end one
            // of them as a deadlock victim; its changes roll back, and the counts must still agree.
            if ((e as { code?: string }).code !== '40P01') throw e;
            await c.query('rollback');
          }
        }
      });
      const api = [
        ...Array.from({ length: 12 }, (_, i) => rest(t, a).post('/customers', { first_name: 'D', last_name: String(i) })),
        ...ids.slice(0, 6).map((id) => rest(t, a).delete(`/customers/${id}`)),
        ...ids.slice(0, 3).map((id) => rest(t, a).delete(`/customers/${id}`).then(() => rest(t, a).post(`/customers/${id}/restore`))),
      ];
      const results = await Promise.all([...api, ...work]);
      // A delete or restore of a record another statement changed meanwhile may be refused; nothing fails.
      expect(results.filter((r: any) => r && r.status >= 500)).toEqual([]);
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
    await countsAgree();
    for (const tenant of [a, b]) expect(await listTotals(tenant)).toEqual(await expectedTotals(tenant));
  });

  it('let a create go on while another transaction holds a slot of the same count (no waiting, another slot)', async () => {
    const a = await createTenant(t);
    await rest(t, a).post('/customers', { first_name: 'First', last_name: 'One' });
    const holder = new Client({ connectionString: t.url });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query(`insert into customers (uuid, company_uuid, first_name, last_name, customer_type, created_at, updated_at) values (gen_random_uuid(), $1, 'Held', 'Open', 'Residential', now(), now())`, [a.companyUuid]);
      // The holder's transaction is open and holds the count's only slot: these finish before it
      // ends (if a create waited for the holder, they would never finish), each in a slot of its own.
      const created = await Promise.all([1, 2, 3].map((i) => rest(t, a).post('/customers', { first_name: 'Next', last_name: String(i) })));
      expect(created.map((r) => r.status)).toEqual([200, 200, 200]);
      // Not yet seen by anyone else; seen by the holder itself.
      expect((await rest(t, a).get('/customers')).body.data.pagination.total).toBe(4);
      const [own] = (await holder.query(`select sum(live)::int as n from kept_counts where company_uuid = $1 and table_name = 'customers'`, [a.companyUuid])).rows;
      expect(own.n).toBe(5);
      await holder.query('commit');
    } finally {
      await holder.end();
    }
    await countsAgree();
    expect((await rest(t, a).get('/customers')).body.data.pagination.total).toBe(5);
    const [{ n }] = await sql(`select count(*)::int as n from kept_counts where company_uuid = ? and table_name = 'customers'`, [a.companyUuid]);
    expect(n).toBeGreaterThan(1);
  });
});
