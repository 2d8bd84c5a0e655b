import { leanList } from '../../src/data/list';
import { forgetStarts } from '../../src/data/remembered-starts';
import { forgetTotals } from '../../src/data/remembered-totals';
import { Customer } from '../../src/modules/customer/customer.entity';
import { createTenant, gql, rest, Tenant, useTestApp } from '../helpers/app';

// Remembered page starts (src/data/remembered-starts.ts): a deep page (from row 1000 on) of a list
// in the default order starts at a row remembered under the same change count. The equivalence
// test of the optimisation: every deep page, on both surfaces, is the page the plain path gives
// (OFFSET over the same order), after every kind of change; the remembered start is really what a
// repeated page, and the page after it, read; and nothing is remembered from a transaction that
// has written.

const t = useTestApp();

const sql = <T = any>(text: string, params: unknown[] = []) => t.orm.em.getConnection().execute<T[]>(text, params);

/** `n` customers named Deep, three to each created_at (ties ordered by uuid), the newest first in time order. */
async function seed(tenant: Tenant, n: number, vip = false): Promise<void> {
  await sql(
    `insert into customers (uuid, company_uuid, first_name, last_name, is_vip, created_at, updated_at)
     select gen_random_uuid(), ?, 'Row' || i, 'Deep', ?, timestamptz '2026-01-01' + (i / 3) * interval '1 ms', timestamptz '2026-01-01' + (i / 3) * interval '1 ms'
     from generate_series(1, ?) as i`,
    [tenant.companyUuid, vip, n],
  );
}

/** The plain path: the page's uuids and the total, by OFFSET. */
async function plain(tenant: Tenant, limit: number, page: number, extra = 'and deleted_at is null'): Promise<{ total: number; uuids: string[] }> {
  const rows = await sql<{ uuid: string }>(`select uuid from customers where company_uuid = ? ${extra} order by created_at desc, uuid desc`, [tenant.companyUuid]);
  return { total: rows.length, uuids: rows.slice((page - 1) * limit, page * limit).map((r) => r.uuid) };
}

// Pages from row 1000 on (and one just before), repeated and in sequence, with page sizes that cross each other.
const PAGES: Array<[limit: number, page: number]> = [[50, 21], [50, 21], [50, 22], [50, 23], [7, 143], [7, 144], [7, 145], [7, 145], [100, 11], [100, 12], [50, 26]];

/** Each page on both surfaces against the plain path. `query`: REST query and GraphQL arguments of a filter. */
async function pagesAgree(tenant: Tenant, filter: { rest: string; graphql: string; extra?: string } = { rest: '', graphql: '' }): Promise<void> {
  for (const [limit, page] of PAGES) {
    const want = await plain(tenant, limit, page, filter.extra);
    const res = await rest(t, tenant).get(`/customers?limit=${limit}&page=${page}${filter.rest}`);
    expect(res.status).toBe(200);
    const g = await gql(t, tenant, `query($l: Int, $p: Int) { customers(limit: $l, page: $p${filter.graphql}) { items { uuid } pagination { total } } }`, { l: limit, p: page });
    expect(g.errors).toBeUndefined();
    expect({ limit, page, rest: res.body.data.customers.map((c: any) => c.uuid), total: res.body.data.pagination.total, graphql: g.data.customers.items.map((c: any) => c.uuid), gTotal: g.data.customers.pagination.total }).toEqual({
      limit,
      page,
      rest: want.uuids,
      total: want.total,
      graphql: want.uuids,
      gTotal: want.total,
    });
  }
}

describe('remembered page starts', () => {
  beforeEach(() => {
    forgetStarts();
    forgetTotals();
  });

  it('give the plain page after every kind of change, in each company apart, on both surfaces', async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'Other Co' });
    await seed(a, 1250);
    await seed(b, 1100);
    await pagesAgree(a);
    await pagesAgree(a); // remembered
    const deep = async (offset: number) => (await sql<{ uuid: string }>(`select uuid from customers where company_uuid = ? and deleted_at is null order by created_at desc, uuid desc offset ? limit 1`, [a.companyUuid, offset]))[0].uuid;
    // Each change between two rounds: a create (at the top), an update, a soft delete and a restore
    // of rows before the pages and at their starts, a hard delete, a move to another company, a copy.
    await rest(t, a).post('/customers', { first_name: 'New', last_name: 'Top' });
    await pagesAgree(a);
    const at1000 = await deep(1000);
    await rest(t, a).put(`/customers/${at1000}`, { first_name: 'Renamed' });
    await pagesAgree(a);
    await rest(t, a).delete(`/customers/${await deep(500)}`);
    await pagesAgree(a);
    await rest(t, a).delete(`/customers/${at1000}`);
    await pagesAgree(a);
    await rest(t, a).post(`/customers/${at1000}/restore`);
    await pagesAgree(a);
    await sql(`update customers set created_at = created_at + interval '1 hour' where uuid = ?`, [await deep(1049)]);
    await pagesAgree(a);
    await sql(`delete from customers where uuid = ?`, [await deep(10)]);
    await pagesAgree(a);
    await sql(`update customers set company_uuid = ? where uuid = ?`, [b.companyUuid, await deep(1100)]);
    await pagesAgree(a);
    await pagesAgree(b);
    await rest(t, b).post('/customers', { first_name: 'Only', last_name: 'B' });
    await pagesAgree(a);
    await pagesAgree(b);
    // With the deleted rows (include_deleted), and filtered lists (a search, a filter): totals and starts remembered per list.
    await pagesAgree(a, { rest: '&include_deleted=true', graphql: ', includeDeleted: true', extra: '' });
    await pagesAgree(a, { rest: '&search=deep', graphql: ', search: "deep"', extra: `and deleted_at is null and last_name = 'Deep'` });
    await rest(t, a).delete(`/customers/${await deep(3)}`);
    await pagesAgree(a, { rest: '&search=deep', graphql: ', search: "deep"', extra: `and deleted_at is null and last_name = 'Deep'` });
    await pagesAgree(a, { rest: '&include_deleted=true', graphql: ', includeDeleted: true', extra: '' });
  });

  it('are what a repeated page, and the page after it, read while the change count stays (a change made behind the triggers shows only in the offset)', async () => {
    const a = await createTenant(t);
    await seed(a, 1200);
    const page = async (p: number) => (await rest(t, a).get(`/customers?limit=50&page=${p}`)).body.data.customers.map((c: any) => c.uuid) as string[];
    const first = await page(21);
    // A row before the page removed behind the triggers: the change count stays, the offset moves.
    await sql(`alter table customers disable trigger customers_count_delete`);
    try {
      await sql(`delete from customers where uuid = (select uuid from customers where company_uuid = ? order by created_at desc, uuid desc limit 1)`, [a.companyUuid]);
    } finally {
      await sql(`alter table customers enable trigger customers_count_delete`);
    }
    const byOffset = await plain(a, 50, 21);
    expect(byOffset.uuids).not.toEqual(first);
    // Remembered: the same page starts where it started, and the next one one row past its last.
    expect(await page(21)).toEqual(first);
    const second = await page(22);
    const all = await plain(a, 1200, 1);
    expect(second).toEqual(all.uuids.slice(all.uuids.indexOf(first[49]) + 1, all.uuids.indexOf(first[49]) + 51));
    expect(second).not.toEqual((await plain(a, 50, 22)).uuids);
    // A counted change of the company: the offset again.
    await rest(t, a).post('/customers', { first_name: 'Zed', last_name: 'Zulu' });
    expect(await page(22)).toEqual((await plain(a, 50, 22)).uuids);
  });

  it('are not remembered from a transaction that has written (its own changes are in its snapshot)', async () => {
    const a = await createTenant(t);
    await seed(a, 1200);
    const where = 'e.company_uuid = ? and e.deleted_at is null';
    const list = async (em = t.orm.em.fork()) => (await leanList(em, Customer, a.companyUuid, where, [a.companyUuid], 50, 1000, { kept: 'live' })).items.map((c) => c.uuid);
    // In a transaction: a customer of its own at the top (change count +1), the page read, committed.
    let inTx: string[] = [];
    await t.orm.em.fork().transactional(async (em) => {
      await em.getConnection().execute(`insert into customers (uuid, company_uuid, first_name, last_name, created_at, updated_at) values (gen_random_uuid(), ?, 'Tx', 'Top', now(), now())`, [a.companyUuid], 'run', em.getTransactionContext());
      inTx = await list(em);
    });
    expect(inTx).toEqual((await plain(a, 50, 21)).uuids);
    // The committed change count is the one the transaction saw; a row removed behind the triggers
    // must show: the page is read by its offset, nothing was remembered.
    await sql(`alter table customers disable trigger customers_count_delete`);
    try {
      await sql(`delete from customers where uuid = (select uuid from customers where company_uuid = ? order by created_at desc, uuid desc limit 1 offset 5)`, [a.companyUuid]);
    } finally {
      await sql(`alter table customers enable trigger customers_count_delete`);
    }
    expect(await list()).toEqual((await plain(a, 50, 21)).uuids);
  });
});
