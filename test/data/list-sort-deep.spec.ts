import { leanColumn, leanList } from '../../src/data/list';
import { ormPage } from '../helpers/orm-page';
import { orderSql, parseSort, sortValuesOf } from '../../src/schema/sorting';
import { TENANT_FILTER } from '../../src/data/base.entity';
import { Customer } from '../../src/modules/customer/customer.entity';
import { Estimate } from '../../src/modules/estimate/estimate.entity';
import { Invoice } from '../../src/modules/invoice/invoice.entity';
import { Job } from '../../src/modules/job/job.entity';
import { Payment } from '../../src/modules/payment/payment.entity';
import { createTenant, rest, useTestApp } from '../helpers/app';
import { makeInvoice } from '../helpers/billing';

// Sorted pages past the first 1000 rows (read by their keys first) give the rows an offset read
// gives, on both list paths; and each sort of the large tables walks an index, without sorting
// (migration 0011).

const t = useTestApp();
const sql = (text: string, params: unknown[] = []) => t.orm.em.getConnection().execute(text, params);

function tenantFork(companyId: string) {
  const em = t.orm.em.fork();
  em.setFilterParams(TENANT_FILTER, { companyId });
  return em;
}

describe('sorted deep pages', () => {
  it('read by their keys first, they hold the rows an offset read holds, on REST and leanList', async () => {
    const a = await createTenant(t);
    // Few distinct values: most rows tie, and the key decides.
    await sql(
      `insert into customers (uuid, company_uuid, first_name, last_name, created_at, updated_at)
       select gen_random_uuid(), ?, 'deep', 'name' || (n % 7), now() - n * interval '1 second', now() - (n % 5) * interval '1 minute'
       from generate_series(1, 1150) as n`,
      [a.companyUuid],
    );
    const em = () => tenantFork(a.companyUuid);
    const col = (p: string) => `e.${leanColumn(em(), Customer, p)}`;
    const where = `${col('company')} = ? and ${col('deletedAt')} is null`;
    for (const sort of ['last_name', '-last_name', '-updated_at', 'created_at']) {
      const order = orderSql(parseSort(Customer, sort, col)!, col('uuid'));
      const reference = (await ormPage(em(), Customer, where, [a.companyUuid], 300, 900, order)).map((c) => c.uuid);
      // Page 10 (rows 900–999) on the usual path, pages 11 and 12 (from row 1000) keys first.
      const pages: string[] = [];
      for (const page of [10, 11, 12]) {
        const res = await rest(t, a).get(`/customers?limit=100&page=${page}&sort=${sort}`);
        pages.push(...res.body.data.customers.map((c: { uuid: string }) => c.uuid));
      }
      expect(pages).toEqual(reference);
      for (const offset of [999, 1000, 1020]) {
        const list = await leanList(em(), Customer, a.companyUuid, where, [a.companyUuid], 25, offset, { order });
        expect(list!.items.map((c) => c.uuid)).toEqual(reference.slice(offset - 900, offset - 900 + 25));
      }
    }
  });
});

describe('sort indexes', () => {
  it.each([Customer, Job, Estimate, Invoice, Payment].map((e) => [e.name, e] as const))('every sort of %s walks an index in order', async (_, entity) => {
    const a = await createTenant(t);
    const em = tenantFork(a.companyUuid);
    const col = (p: string) => `e.${leanColumn(em, entity, p)}`;
    const table = em.getMetadata().find(entity)!.tableName;
    for (const sort of sortValuesOf(entity)) {
      const order = orderSql(parseSort(entity, sort, col)!, col('uuid'));
      const plan = await em.transactional(async (tx) => {
        // With sorting (whole or incremental, over an index on a prefix of the order) and whole-table
        // reads priced out, only an index in the list's order is cheap.
        await tx.getConnection().execute('set local enable_sort = off', [], 'all', tx.getTransactionContext());
        await tx.getConnection().execute('set local enable_incremental_sort = off', [], 'all', tx.getTransactionContext());
        await tx.getConnection().execute('set local enable_seqscan = off', [], 'all', tx.getTransactionContext());
        const rows = await tx
          .getConnection()
          .execute(`explain select e.uuid from ${table} as e where e.company_uuid = ? and e.deleted_at is null order by ${order} limit 50`, [a.companyUuid], 'all', tx.getTransactionContext());
        return rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
      });
      expect({ sort, plan }).toEqual({ sort, plan: expect.stringMatching(/Index (Only )?Scan/) });
      expect({ sort, plan }).not.toEqual({ sort, plan: expect.stringMatching(/\bSort\b/) });
    }
  });
});

describe('the kept count', () => {
  it('is read by a sorted list without filters, not by one with updated_since (a filter)', async () => {
    const a = await createTenant(t);
    await makeInvoice(t, a);
    await makeInvoice(t, a);
    // A kept total that differs from the rows tells which one a list read.
    // The count is split into slots: one of them changes.
    await sql(`update kept_counts set live = live + 5 where company_uuid = ? and table_name = 'invoices' and slot = (select min(slot) from kept_counts where company_uuid = ? and table_name = 'invoices')`, [a.companyUuid, a.companyUuid]);
    const total = async (q: string) => (await rest(t, a).get(`/invoices?${q}`)).body.data.pagination.total;
    expect(await total('')).toBe(7);
    expect(await total('sort=-invoice_number')).toBe(7);
    expect(await total('sort=due_date')).toBe(7);
    expect(await total('updated_since=2000-01-01T00:00:00Z')).toBe(2);
    expect(await total('updated_since=2000-01-01T00:00:00Z&sort=-updated_at')).toBe(2);
  });
});
