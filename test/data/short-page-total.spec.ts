import { leanColumn, listSql } from '../../src/data/list';
import { Customer } from '../../src/modules/customer/customer.entity';
import { Template } from '../../src/modules/template/template.entity';
import { createTenant, gql, rest, Tenant, useTestApp } from '../helpers/app';

// A total that is not kept (a filtered list, src/data/list.ts statementText) is taken from the
// page when the page ends the list: fewer rows than the limit, and some rows or the first page;
// a remembered total (a customer search) still comes first. The equivalence test of that
// optimisation: every page, short, full, empty past the end, first or deep (read by its keys
// first), gives on both surfaces the total and the rows of the plain path (a count and an ordered
// read); and the count really is not run for a page that ends the list, and is run for the others.

const t = useTestApp();
const sql = <T = any>(text: string, params: unknown[] = []) => t.orm.em.getConnection().execute<T[]>(text, params);

// `updated_since` is a filter: a template list with it counts its rows (docs/conventions.md).
const SINCE = '2000-01-01T00:00:00Z';
const ROWS = 1107;

async function plain(tenant: Tenant, limit: number, offset: number) {
  const rows = await sql<{ uuid: string }>(`select uuid from templates where company_uuid = ? and deleted_at is null and updated_at >= ? order by created_at desc, uuid desc`, [tenant.companyUuid, SINCE]);
  return { total: rows.length, uuids: rows.slice(offset, offset + limit).map((r) => r.uuid) };
}

it('gives every page, short, full, empty, first or deep, the total and rows of the plain path on both surfaces', async () => {
  const a = await createTenant(t);
  const b = await createTenant(t);
  await sql(
    `insert into templates (uuid, company_uuid, name, pricing_type, base_price, created_at, updated_at)
     select gen_random_uuid(), ?, 'T' || i, 'flat', 10, now() - (i % 400) * interval '1 second', now() from generate_series(1, ?::int) i`,
    [a.companyUuid, ROWS],
  );
  await sql(`insert into templates (uuid, company_uuid, name, pricing_type, base_price) select gen_random_uuid(), ?, 'B' || i, 'flat', 10 from generate_series(1, 30) i`, [b.companyUuid]);
  // A deleted one is out of the list and of its total.
  await sql(`update templates set deleted_at = now() where uuid = (select uuid from templates where company_uuid = ? order by uuid limit 1)`, [a.companyUuid]);
  const live = ROWS - 1;
  const pages: Array<[limit: number, page: number]> = [
    [50, 1], // full, more after
    [100, 12], // deep (offset 1100), short: the last 6
    [50, 23], // deep, short
    [50, 24], // deep, empty past the end
    [2, 553], // deep, full, exactly the last page
    [2, 554], // empty right after the end
    [1, 1106], // the very last row
    [100, 1], // full
    [100, 40], // empty far past the end
  ];
  for (const [limit, page] of pages) {
    const offset = (page - 1) * limit;
    const want = await plain(a, limit, offset);
    expect(want.total).toBe(live);
    const label = `limit ${limit} page ${page}`;
    const res = await rest(t, a).get(`/templates?updated_since=${SINCE}&limit=${limit}&page=${page}`);
    expect([label, res.status]).toEqual([label, 200]);
    expect([label, res.body.data.pagination.total, res.body.data.templates.map((x: any) => x.uuid)]).toEqual([label, want.total, want.uuids]);
    const g = await gql(t, a, `query($s: DateTime) { templates(updatedSince: $s, limit: ${limit}, page: ${page}) { items { uuid } pagination { total } } }`, { s: SINCE });
    expect([label, g.errors]).toEqual([label, undefined]);
    expect([label, g.data.templates.pagination.total, g.data.templates.items.map((x: any) => x.uuid)]).toEqual([label, want.total, want.uuids]);
  }
  // A company with fewer rows than a page: the first page ends the list.
  const rb = await rest(t, b).get(`/templates?updated_since=${SINCE}&limit=50`);
  expect([rb.body.data.pagination.total, rb.body.data.templates.length]).toEqual([30, 30]);
  // No rows at all: the first page's total is 0.
  const rc = await rest(t, a).get(`/templates?updated_since=2999-01-01T00:00:00Z&limit=50`);
  expect([rc.body.data.pagination.total, rc.body.data.templates]).toEqual([0, []]);
});

it('runs the count only for a page that does not end the list', async () => {
  const a = await createTenant(t);
  await sql(`insert into templates (uuid, company_uuid, name, pricing_type, base_price) select gen_random_uuid(), ?, 'T' || i, 'flat', 10 from generate_series(1, 12) i`, [a.companyUuid]);
  const em = t.orm.em.fork();
  const col = (p: string) => `e.${leanColumn(em, Template, p)}`;
  const where = `${col('company')} = ? and ${col('deletedAt')} is null and (${col('updatedAt')} >= ?)`;
  const text = listSql(em, Template, where);
  // The limit, the offset twice; the count's conditions; the page's conditions, limit and offset.
  const values = (limit: number, offset: number) => [limit, offset, offset, a.companyUuid, SINCE, a.companyUuid, SINCE, limit, offset];
  expect(text.split('?').length - 1).toBe(values(0, 0).length);
  const plan = async (limit: number, offset: number) => {
    const rows = await sql<{ 'QUERY PLAN': string }>(`explain (analyze, costs off, timing off, summary off) ${text}`, values(limit, offset));
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  };
  const total = async (limit: number, offset: number) => Number((await sql<{ total: string }>(text, values(limit, offset)))[0].total);
  // The count's aggregate is the one under InitPlan 1 (the CASE's other branch).
  const counted = (p: string) => !/InitPlan 1[^\n]*\n\s*->\s*Aggregate \(never executed\)/.test(p);
  for (const [limit, offset, runs, want] of [
    [50, 0, false, 12], // short first page
    [5, 10, false, 12], // short last page
    [5, 0, true, 12], // full
    [6, 6, true, 12], // full, exactly the last page
    [5, 12, true, 12], // empty past the end: only the count knows
    [5, 40, true, 12],
  ] as Array<[number, number, boolean, number]>) {
    const p = await plan(limit, offset);
    expect([limit, offset, p.includes('InitPlan 1')]).toEqual([limit, offset, true]);
    expect([limit, offset, counted(p)]).toEqual([limit, offset, runs]);
    expect([limit, offset, await total(limit, offset)]).toEqual([limit, offset, want]);
  }
});

it('runs a remembered list\'s count only when neither the remembered total nor the page gives it (a customer search)', async () => {
  const a = await createTenant(t);
  for (const last of ['Smith', 'Smithers', 'Jones', 'Brown', 'Smithson']) expect((await rest(t, a).post('/customers', { first_name: 'Pat', last_name: last })).status).toBe(200);
  const em = t.orm.em.fork();
  const col = (p: string) => `e.${leanColumn(em, Customer, p)}`;
  const where = `${col('company')} = ? and ${col('deletedAt')} is null and (${col('lastName')} ilike ?)`;
  const text = listSql(em, Customer, where, { remember: true });
  const { changes } = (await sql<{ changes: string }>(`select sum(changes)::text as changes from kept_counts where company_uuid = ? and table_name = 'customers'`, [a.companyUuid]))[0];
  // The remembered change count and total; the limit, the offset twice; the count's conditions; the page's; the company of the change count.
  const values = (remembered: [string, number], limit: number, offset: number) => [...remembered, limit, offset, offset, a.companyUuid, '%smith%', a.companyUuid, '%smith%', limit, offset, a.companyUuid];
  expect(text.split('?').length - 1).toBe(values(['-1', 0], 0, 0).length);
  const run = async (remembered: [string, number], limit: number, offset: number) => {
    const plan = (await sql<{ 'QUERY PLAN': string }>(`explain (analyze, costs off, timing off, summary off) ${text}`, values(remembered, limit, offset))).map((r) => r['QUERY PLAN']).join('\n');
    const row = (await sql<{ total: string }>(text, values(remembered, limit, offset)))[0];
    return { counted: !/InitPlan 1[^\n]*\n\s*->\s*Aggregate \(never executed\)/.test(plan), total: Number(row.total) };
  };
  // Nothing remembered: a short page is its own total; a full one is counted.
  expect(await run(['-1', 0], 50, 0)).toEqual({ counted: false, total: 3 });
  expect(await run(['-1', 0], 2, 0)).toEqual({ counted: true, total: 3 });
  // Remembered under the same change count: no count, whatever the page (the remembered total wins).
  expect(await run([changes, 3], 2, 0)).toEqual({ counted: false, total: 3 });
  expect(await run([changes, 3], 50, 0)).toEqual({ counted: false, total: 3 });
  // Remembered under another change count: as if nothing were.
  expect(await run([String(Number(changes) - 1), 7], 2, 0)).toEqual({ counted: true, total: 3 });
  expect(await run([String(Number(changes) - 1), 7], 2, 2)).toEqual({ counted: false, total: 3 });
});
