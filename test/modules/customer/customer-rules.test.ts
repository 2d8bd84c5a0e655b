import { Client } from 'pg';
import { workerDatabase } from '../../helpers/app';
import { containsPattern } from '../../../src/data/crud';
import { customerSearchFieldsSql, customerSearchSql, customerSearchTextSql, SEARCH_SEPARATOR } from '../../../src/modules/customer/customer.rules';

// Customer search (src/modules/customer/customer.rules.ts): the joined text is the expression of
// the trigram index of migration 0008, and matches as the field-by-field form does.

let db: Client;
beforeAll(async () => {
  db = new Client({ connectionString: await workerDatabase() });
  await db.connect();
});
afterAll(() => db.end());

it("the rule's joined text is the search index's expression", async () => {
  const indexdef = async (name: string) => (await db.query(`select pg_get_indexdef(($1)::regclass) as d`, [name])).rows[0].d.replace(name, 'X');
  await db.query('begin');
  try {
    await db.query(`create index rule_search_probe on customers using gin (${customerSearchTextSql('')} gin_trgm_ops)`);
    expect(await indexdef('rule_search_probe')).toBe(await indexdef('customers_search_trgm_idx'));
  } finally {
    await db.query('rollback');
  }
});

const customers = [
  { first_name: 'Ada', last_name: 'Lovelace', company_name: null, email: 'ada@example.com', phone: '217-555-0101' },
  { first_name: 'Grace', last_name: 'Hopper', company_name: 'Navy Yard', email: null, phone: null },
  { first_name: 'Mary', last_name: 'Ann', company_name: 'Smith & Sons', email: 'MARY@EXAMPLE.COM', phone: '(312) 555 7788' },
  { first_name: '100%', last_name: 'Under_score', company_name: 'Back\\slash', email: null, phone: '+1 217 555 0199' },
];
const TERMS = ['ada', 'LOVE', 'ada lovelace', 'grace h', 'navy', 'smith & s', 'example.com', 'mary@', '2175550101', '555', '100%', 'under_', 'back\\', '%', '_',
  'lace\x1fnone', 'xyz', 'ann smith', 'hopper navy'];

it('the joined text matches every term as the field-by-field form does (no match spans two fields)', async () => {
  const rows = JSON.stringify(customers.map((c, i) => ({ i, uuid: `00000000-0000-4000-8000-00000000000${i}`, ...c })));
  const from = `from json_to_recordset($1::json) as e(i int, uuid uuid, first_name text, last_name text, company_name text, email text, phone text)`;
  for (const term of TERMS) {
    const rule = customerSearchSql('e', term, containsPattern);
    const asRule = await db.query(`select e.i ${from} where ${rule.sql.replace(/\?/g, (_, o) => `$${2 + rule.sql.slice(0, o).split('?').length - 1}`)} order by e.i`, [rows, ...rule.params]);
    const fields = customerSearchFieldsSql('e').map((f) => `${f} ilike $2`).join(' or ');
    const digits = term.replace(/\D/g, '');
    const perField = await db.query(`select e.i ${from} where ${fields} ${digits ? `or regexp_replace(coalesce(e.phone, ''), '\\D', '', 'g') like $3` : ''} order by e.i`, [
      rows,
      containsPattern(term),
      ...(digits ? [`%${digits}%`] : []),
    ]);
    expect([term, asRule.rows.map((r) => r.i)]).toEqual([term, perField.rows.map((r) => r.i)]);
  }
  expect(TERMS.some((t) => t.includes(SEARCH_SEPARATOR))).toBe(true);
});
