import { KEPT_TABLES } from '../../src/data/kept-counts';
import { createTenant, gql, rest, Tenant, useTestApp } from '../helpers/app';
import { makeInvoice, makeJob, pay } from '../helpers/billing';
import { makeEstimate } from '../helpers/estimate-fixtures';

// Lists of numbered documents without filters read their total from kept_counts (migrations 0009
// and 0016), kept by triggers. Every way rows change must keep it equal to counting the rows.
// Customers, locations and templates, include_deleted and concurrent writers:
// test/data/kept-counts.spec.ts.

const t = useTestApp();

const sql = <T = any>(text: string, params: unknown[] = []) => t.orm.em.getConnection().execute<T[]>(text, params);

/** kept_counts against counting every company's live rows and all its rows of every kept table. */
async function countsAgree(): Promise<void> {
  for (const table of KEPT_TABLES) {
    const kept = await sql(`select company_uuid, sum(live)::int as n, sum(all_rows)::int as a from kept_counts where table_name = ? group by 1 having sum(all_rows) <> 0 order by 1`, [table]);
    const counted = await sql(`select company_uuid, (count(*) filter (where deleted_at is null))::int as n, count(*)::int as a from ${table} group by 1 order by 1`);
    expect({ table, rows: kept }).toEqual({ table, rows: counted });
  }
}

/** The totals both surfaces give for the unfiltered lists, and with a filter (counted by rows). */
async function totals(tenant: Tenant) {
  const restTotal = async (path: string) => (await rest(t, tenant).get(path)).body.data.pagination.total as number;
  const g = await gql(t, tenant, `{ jobs { pagination { total } } estimates { pagination { total } } invoices { pagination { total } } payments { pagination { total } } }`);
  expect(g.errors).toBeUndefined();
  return {
    rest: { jobs: await restTotal('/jobs'), estimates: await restTotal('/estimates'), invoices: await restTotal('/invoices'), payments: await restTotal('/payments') },
    graphql: { jobs: g.data.jobs.pagination.total, estimates: g.data.estimates.pagination.total, invoices: g.data.invoices.pagination.total, payments: g.data.payments.pagination.total },
  };
}

async function live(tenant: Tenant) {
  const n = async (table: string) => (await sql(`select count(*)::int as n from ${table} where company_uuid = ? and deleted_at is null`, [tenant.companyUuid]))[0].n as number;
  return { jobs: await n('jobs'), estimates: await n('estimates'), invoices: await n('invoices'), payments: await n('payments') };
}

describe('document counts', () => {
  it('are kept for exactly the tables the code reads them for', async () => {
    const triggers = await sql(`select distinct c.relname as t from pg_trigger g join pg_class c on c.oid = g.tgrelid where g.tgname like '%\\_count\\_insert' order by 1`);
    expect(triggers.map((r) => r.t)).toEqual([...KEPT_TABLES].sort());
  });

  it('give every unfiltered list the total of its live rows, through creates, deletes and changes made in SQL', async () => {
    const a = await createTenant(t, { name: 'A' });
    const b = await createTenant(t, { name: 'B' });
    const inv = [await makeInvoice(t, a), await makeInvoice(t, a), await makeInvoice(t, b)];
    expect((await pay(t, a, inv[0].uuid, 10)).status).toBe(200);
    expect((await pay(t, b, inv[2].uuid, 10)).status).toBe(200);
    const p2 = await pay(t, a, inv[1].uuid, 20);
    expect(p2.status).toBe(200);
    await makeEstimate(t, a);
    await makeEstimate(t, a);
    await makeJob(t, a);
    const expectAll = async () => {
      await countsAgree();
      for (const tenant of [a, b]) {
        const expected = await live(tenant);
        expect(await totals(tenant)).toEqual({ rest: expected, graphql: expected });
      }
    };
    await expectAll();
    expect((await totals(a)).rest).toEqual({ jobs: 3, estimates: 2, invoices: 2, payments: 2 });

    // Deletes through the API.
    expect((await rest(t, a).delete(`/payments/${p2.body.data.uuid}`)).status).toBe(200);
    expect((await rest(t, a).delete(`/invoices/${inv[1].uuid}`)).status).toBe(200);
    await expectAll();
    expect((await totals(a)).graphql).toEqual({ jobs: 3, estimates: 2, invoices: 1, payments: 1 });

    // A filtered list counts its rows; a list with deleted records too.
    expect((await rest(t, a).get(`/invoices?status=Pending`)).body.data.pagination.total).toBe(1);
    expect((await rest(t, a).get(`/invoices?include_deleted=true`)).body.data.pagination.total).toBe(2);

    // Changes made in SQL, several rows per statement: restore, soft-delete, copy, hard delete.
    await sql(`update invoices set deleted_at = null where company_uuid = ?`, [a.companyUuid]);
    await sql(`update jobs set deleted_at = now() where company_uuid = ?`, [a.companyUuid]);
    await sql(`update jobs set title = title || ' (edited)' where company_uuid = ?`, [a.companyUuid]);
    await sql(
      `insert into estimates select (jsonb_populate_record(null::estimates, to_jsonb(e) || jsonb_build_object('uuid', gen_random_uuid(), 'estimate_number', e.estimate_number || '-' || n))).*
       from estimates e, generate_series(1, 3) n where e.company_uuid = ?`,
      [a.companyUuid],
    );
    await sql(`delete from payments where company_uuid = ? and deleted_at is not null`, [a.companyUuid]);
    await sql(`delete from payments where company_uuid = ?`, [b.companyUuid]);
    await expectAll();
    expect((await totals(b)).rest.payments).toBe(0);
    expect((await totals(a)).rest).toEqual({ jobs: 0, estimates: 8, invoices: 2, payments: 1 });

    // A rolled-back change leaves the counts as they were.
    await t.orm.em.fork().transactional(async (em) => {
      await em.getConnection().execute(`update estimates set deleted_at = now() where company_uuid = ?`, [a.companyUuid], 'run', em.getTransactionContext());
      throw new Error('roll back');
    }).catch((e) => expect(String(e)).toContain('roll back'));
    await expectAll();

    // A change rolled back to a savepoint leaves no note; the transaction's other changes count.
    await t.orm.em.fork().transactional(async (em) => {
      const run = (text: string) => em.getConnection().execute(text, [a.companyUuid], 'run', em.getTransactionContext());
      await run(`update estimates set deleted_at = now() where company_uuid = ? and estimate_number like '%-1'`);
      await em.getConnection().execute('savepoint s1', [], 'run', em.getTransactionContext());
      await run(`update estimates set deleted_at = now() where company_uuid = ?`);
      await em.getConnection().execute('rollback to savepoint s1', [], 'run', em.getTransactionContext());
    });
    await expectAll();
    expect((await totals(a)).rest.estimates).toBe(6);

    // TRUNCATE of a table clears its counts.
    await sql(`truncate payments cascade`);
    await expectAll();
  });

  it('are what unfiltered lists of both surfaces read (a count set by hand shows); filtered lists count their rows', async () => {
    const a = await createTenant(t);
    await makeInvoice(t, a);
    await sql(`update kept_counts set live = live + 40 where company_uuid = ? and table_name = 'invoices'`, [a.companyUuid]);
    expect((await totals(a)).rest.invoices).toBe(41);
    expect((await totals(a)).graphql.invoices).toBe(41);
    expect((await rest(t, a).get('/invoices?status=Pending')).body.data.pagination.total).toBe(1);
    expect((await rest(t, a).get('/invoices?include_deleted=true')).body.data.pagination.total).toBe(1);
  });

  it('are seen inside the transaction that changed them, and by no one else before it commits', async () => {
    const a = await createTenant(t);
    await makeInvoice(t, a);
    const { leanList, leanColumn } = await import('../../src/data/list');
    const { Invoice } = await import('../../src/modules/invoice/invoice.entity');
    const { TENANT_FILTER } = await import('../../src/data/base.entity');
    const page = async (em: any) => {
      em.setFilterParams(TENANT_FILTER, { companyId: a.companyUuid });
      const where = `e.${leanColumn(em, Invoice, 'company')} = ? and e.${leanColumn(em, Invoice, 'deletedAt')} is null`;
      return (await leanList(em, Invoice, a.companyUuid, where, [a.companyUuid], 10, 0, { kept: 'live' }))!.total;
    };
    expect(await page(t.orm.em.fork())).toBe(1);
    await t.orm.em.fork().transactional(async (em) => {
      await em.getConnection().execute(`update invoices set deleted_at = now() where company_uuid = ?`, [a.companyUuid], 'run', em.getTransactionContext());
      expect(await page(em)).toBe(0);
      expect(await page(t.orm.em.fork())).toBe(1);
      throw new Error('roll back');
    }).catch((e) => expect(String(e)).toContain('roll back'));
    expect(await page(t.orm.em.fork())).toBe(1);
  });

  it('stay exact under concurrent creates and deletes in one company, without deadlocks', async () => {
    const a = await createTenant(t);
    const jobs = await Promise.all(Array.from({ length: 6 }, () => makeJob(t, a)));
    const invoices = await Promise.all(jobs.map((j) => makeInvoice(t, a, { job_uuid: j.uuid })));
    const results = await Promise.all([
      ...invoices.map((i) => pay(t, a, i.uuid, 5)),
      ...invoices.slice(0, 3).map((i) => rest(t, a).delete(`/invoices/${i.uuid}`)),
      ...Array.from({ length: 4 }, () => makeEstimate(t, a).then(() => ({ status: 200 }))),
      ...jobs.slice(0, 2).map((j) => makeInvoice(t, a, { job_uuid: j.uuid }).then(() => ({ status: 200 }))),
    ]);
    // A payment on an invoice deleted meanwhile is refused; nothing else fails.
    expect(results.filter((r) => r.status >= 500)).toEqual([]);
    await countsAgree();
    const expected = await live(a);
    expect(await totals(a)).toEqual({ rest: expected, graphql: expected });
  });

  it('never deadlock a delete with a create on the same job (the count row is locked last, at commit)', async () => {
    // Deleting an invoice locks the invoice's count (its update) and then its job (paid_at);
    // creating one locks the job (its update) and then the count (its insert).
    const a = await createTenant(t);
    const job = await makeJob(t, a);
    const first = await Promise.all(Array.from({ length: 10 }, () => makeInvoice(t, a, { job_uuid: job.uuid })));
    const results = await Promise.all([
      ...first.map((i) => rest(t, a).delete(`/invoices/${i.uuid}`)),
      ...first.map(() => makeInvoice(t, a, { job_uuid: job.uuid }).then(() => ({ status: 200, body: null }), (e) => ({ status: 500, body: String(e) }))),
    ]);
    expect(results.filter((r) => r.status !== 200).map((r) => r.body)).toEqual([]);
    await countsAgree();
    expect((await totals(a)).rest.invoices).toBe(10);
  });

  it('migration 0009 reverts and applies again, counting the rows already there', async () => {
    const a = await createTenant(t);
    await makeInvoice(t, a);
    await makeInvoice(t, a);
    const migrator = t.orm.getMigrator();
    const executed = async () => (await migrator.getExecutedMigrations()).map((m) => m.name);
    expect(await executed()).toContain('Migration20261121000009_document_counts');
    try {
      // Later migrations are reverted first, then 0009 itself.
      while ((await executed()).includes('Migration20261121000009_document_counts')) await migrator.down();
      expect(await sql(`select to_regclass('document_counts') as r`)).toEqual([{ r: null }]);
      await sql(`insert into invoices select (jsonb_populate_record(null::invoices, to_jsonb(i) || jsonb_build_object('uuid', gen_random_uuid(), 'invoice_number', i.invoice_number || '-x'))).* from invoices i where i.company_uuid = ?`, [a.companyUuid]);
    } finally {
      await migrator.up();
    }
    await countsAgree();
    expect((await totals(a)).rest.invoices).toBe(4);
  });
});
