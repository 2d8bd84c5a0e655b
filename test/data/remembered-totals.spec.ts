import { containsPattern } from '../../src/data/crud';
import { leanList } from '../../src/data/list';
import { forgetTotals } from '../../src/data/remembered-totals';
import { Customer } from '../../src/modules/customer/customer.entity';
import { customerSearchFieldsSql, customerSearchSql } from '../../src/modules/customer/customer.rules';
import { createTenant, gql, rest, Tenant, useTestApp } from '../helpers/app';

// Remembered totals (src/data/remembered-totals.ts, migration 0024): a filtered customer list
// reuses a total counted under the same change count. The equivalence test of the optimisation:
// every search (and filter) gives the page and the total that the plain path gives (the rows
// counted and ordered by the field-by-field ILIKE of the rule), after every kind of change, on
// both surfaces; and the remembered total is really what a repeated list reads.

const t = useTestApp();

const sql = <T = any>(text: string, params: unknown[] = []) => t.orm.em.getConnection().execute<T[]>(text, params);

const PEOPLE: Array<[string, string, string | null, string | null, string | null]> = [
  ['Ada', 'Lovelace', null, 'ada@example.com', '217-555-0101'],
  ['Grace', 'Hopper', 'Navy Yard', null, null],
  ['Mary', 'Smith', 'Smith Holdings', 'mary.j@inbox.example', '312-555-7788'],
  ['John', 'Smithers', null, 'john@mail.example', '217-555-0199'],
  ['Émile', 'Zola', 'Große Straße GmbH', 'emile@zola.example', null],
  ['Linda', 'Nguyen', 'Nguyen Properties', 'linda.nguyen@inbox.example', '555-123-4567'],
  ['Paul', 'Peterson', null, 'paul@example.com', '630-555-0000'],
];
const TERMS = ['smith', 'SMITH', 'inbox.example', '555', '2175550101', 'holdings', 'ÉMILE', 'nguyen', 'peterson', 'zzz', 'a', '%', 'mary.j'];

/** The plain path: the company's live customers matching the term field by field, newest first, and their count. */
async function plain(tenant: Tenant, term: string) {
  const digits = term.replace(/\D/g, '');
  const fields = customerSearchFieldsSql('e').map((f) => `${f} ilike ?`);
  if (digits) fields.push(`regexp_replace(coalesce(e.phone, ''), '\\D', '', 'g') like ?`);
  const rows = await sql<{ uuid: string }>(
    `select e.uuid from customers e where e.company_uuid = ? and e.deleted_at is null and (${fields.join(' or ')}) order by e.created_at desc, e.uuid desc`,
    [tenant.companyUuid, ...customerSearchFieldsSql('e').map(() => containsPattern(term)), ...(digits ? [`%${digits}%`] : [])],
  );
  return { total: rows.length, uuids: rows.slice(0, 3).map((r) => r.uuid) };
}

/** Each term's REST page (limit 3) and total, and the GraphQL total, against the plain path. */
async function searchesAgree(tenant: Tenant): Promise<number[]> {
  const totals: number[] = [];
  for (const term of TERMS) {
    const res = await rest(t, tenant).get(`/customers?limit=3&search=${encodeURIComponent(term)}`);
    expect(res.status).toBe(200);
    const g = await gql(t, tenant, `query($s: String) { customers(search: $s, limit: 3) { pagination { total } } }`, { s: term });
    expect(g.errors).toBeUndefined();
    const want = await plain(tenant, term);
    expect({ term, total: res.body.data.pagination.total, uuids: res.body.data.customers.map((c: any) => c.uuid), graphql: g.data.customers.pagination.total }).toEqual({
      term,
      ...want,
      graphql: want.total,
    });
    totals.push(want.total);
  }
  return totals;
}

async function seedPeople(tenant: Tenant): Promise<string[]> {
  const uuids: string[] = [];
  for (const [first_name, last_name, company_name, email, phone] of PEOPLE) {
    const body = Object.fromEntries(Object.entries({ first_name, last_name, company_name, email, phone }).filter(([, v]) => v !== null));
    const res = await rest(t, tenant).post('/customers', body);
    expect([res.status, res.body.error]).toEqual([200, undefined]);
    uuids.push(res.body.data.uuid);
  }
  return uuids;
}

describe('remembered search totals', () => {
  beforeEach(() => forgetTotals());

  it('equal the plain count and page after every kind of change, in each company apart', async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'Other Co' });
    const ua = await seedPeople(a);
    await seedPeople(b);
    await searchesAgree(a);
    await searchesAgree(a); // remembered
    // Each change between two rounds: create, update (in and out of a match), soft delete, restore.
    await rest(t, a).post('/customers', { first_name: 'Sam', last_name: 'Smith', email: 'sam@inbox.example' });
    await searchesAgree(a);
    await rest(t, a).put(`/customers/${ua[2]}`, { last_name: 'Jones', company_name: 'Jones Group' });
    await searchesAgree(a);
    await rest(t, a).put(`/customers/${ua[0]}`, { phone: '999-000-1111' });
    await searchesAgree(a);
    await rest(t, a).delete(`/customers/${ua[3]}`);
    await searchesAgree(a);
    await rest(t, a).post(`/customers/${ua[3]}/restore`);
    await searchesAgree(a);
    // Changes in SQL: a bulk update, a hard delete, a move to another company, a copy.
    await sql(`update customers set email = replace(email, 'inbox', 'outbox') where company_uuid = ? and email like '%inbox%'`, [a.companyUuid]);
    await searchesAgree(a);
    await sql(`delete from customers where uuid = ?`, [ua[6]]);
    await searchesAgree(a);
    await sql(`update customers set company_uuid = ? where uuid = ?`, [b.companyUuid, ua[5]]);
    await searchesAgree(a);
    await searchesAgree(b);
    await sql(
      `insert into customers (uuid, company_uuid, first_name, last_name, company_name, email, phone, created_at, updated_at)
       select gen_random_uuid(), company_uuid, first_name, last_name, company_name, email, phone, created_at, updated_at from customers where company_uuid = ?`,
      [b.companyUuid],
    );
    await searchesAgree(b);
    await searchesAgree(a);
  });

  it('are what a repeated list reads while the change count stays (a change made behind the triggers shows only in the page)', async () => {
    const a = await createTenant(t);
    const ua = await seedPeople(a);
    const total = async (term: string) => (await rest(t, a).get(`/customers?search=${term}`)).body.data.pagination.total as number;
    expect(await total('smith')).toBe(2);
    await sql(`alter table customers disable trigger customers_count_update`);
    try {
      await sql(`update customers set last_name = 'Jones', company_name = null where uuid = ?`, [ua[2]]);
    } finally {
      await sql(`alter table customers enable trigger customers_count_update`);
    }
    // Remembered: the change was not counted, so the total is the one counted before.
    const res = await rest(t, a).get(`/customers?search=smith`);
    expect([res.body.data.pagination.total, res.body.data.customers.length]).toEqual([2, 1]);
    // Another company's change leaves it; a counted change of the company counts again.
    const b = await createTenant(t, { name: 'Other Co' });
    await rest(t, b).post('/customers', { first_name: 'Bo', last_name: 'Smith' });
    expect(await total('smith')).toBe(2);
    await rest(t, a).post('/customers', { first_name: 'Zed', last_name: 'Zulu' });
    expect(await total('smith')).toBe(1);
  });

  it('are not remembered from a transaction that has written (its own changes are in its snapshot)', async () => {
    const a = await createTenant(t);
    await seedPeople(a);
    const rule = customerSearchSql('e', 'smith', containsPattern);
    const where = `e.company_uuid = ? and e.deleted_at is null and (${rule.sql})`;
    const list = (em = t.orm.em.fork()) => leanList(em, Customer, a.companyUuid, where, [a.companyUuid, ...rule.params], 50, 0, { remember: true, prepare: false });
    expect((await list()).total).toBe(2);
    // In a transaction: a matching customer of its own, counted by it (change count +1), then rolled back.
    await t.orm.em
      .fork()
      .transactional(async (em) => {
        await em.getConnection().execute(`insert into customers (uuid, company_uuid, first_name, last_name, created_at, updated_at) values (gen_random_uuid(), ?, 'Tx', 'Smith', now(), now())`, [a.companyUuid], 'run', em.getTransactionContext());
        expect((await list(em)).total).toBe(3);
        throw new Error('roll back');
      })
      .catch((e) => expect(String(e)).toContain('roll back'));
    // A committed change that adds one to the change count too, and no match.
    await rest(t, a).post('/customers', { first_name: 'Zed', last_name: 'Zulu' });
    expect((await list()).total).toBe(2);
  });
});
