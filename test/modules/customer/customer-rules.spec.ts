import { useDbClient } from '../../helpers/app';
import { containsPattern } from '../../../src/data/crud';
import { customerSearchColumnSql, customerSearchFieldsSql, customerSearchSql, phoneDigitsSql, SEARCH_SEPARATOR } from '../../../src/modules/customer/customer.rules';

// Customer search (src/modules/customer/customer.rules.ts): the stored columns search_text and
// phone_digits (migration 0023) are generated from the rule's expressions, and the rule's match
// on them is the field-by-field ILIKE (and the phone's digits) for every term.

const db = useDbClient();

/** The generation expression of a column of `table`, as PostgreSQL writes it back. */
const generated = async (table: string, column: string) =>
  (
    await db.query(
      `select pg_get_expr(d.adbin, d.adrelid) as e from pg_attrdef d join pg_attribute a on a.attrelid = d.adrelid and a.attnum = d.adnum
       where d.adrelid = $1::regclass and a.attname = $2 and a.attgenerated = 's'`,
      [table, column],
    )
  ).rows[0]?.e;

it("the stored search columns are generated from the rule's expressions", async () => {
  await db.query('begin');
  try {
    await db.query(`create temp table rule_probe (like customers excluding all) on commit drop`);
    await db.query(`alter table rule_probe drop column search_text, drop column phone_digits`);
    await db.query(`alter table rule_probe add column search_text text generated always as (${customerSearchColumnSql('')}) stored`);
    await db.query(`alter table rule_probe add column phone_digits text generated always as (${phoneDigitsSql('')}) stored`);
    for (const column of ['search_text', 'phone_digits']) {
      const expected = await generated('rule_probe', column);
      expect(expected).toBeTruthy();
      expect([column, await generated('customers', column)]).toEqual([column, expected]);
    }
  } finally {
    await db.query('rollback');
  }
});

const customers = [
  { first_name: 'Ada', last_name: 'Lovelace', company_name: null, email: 'ada@example.com', phone: '217-555-0101' },
  { first_name: 'Grace', last_name: 'Hopper', company_name: 'Navy Yard', email: null, phone: null },
  { first_name: 'Mary', last_name: 'Ann', company_name: 'Smith & Sons', email: 'MARY@EXAMPLE.COM', phone: '(312) 555 7788' },
  { first_name: '100%', last_name: 'Under_score', company_name: 'Back\\slash', email: null, phone: '+1 217 555 0199' },
  { first_name: 'Émile', last_name: 'Zola', company_name: 'Große Straße GmbH', email: 'emile@zola.example', phone: 'ext. 42' },
  { first_name: 'Σοφία', last_name: 'İnci', company_name: 'ΑΘΗΝΑ', email: null, phone: '' },
];
const TERMS = ['ada', 'LOVE', 'ada lovelace', 'grace h', 'navy', 'smith & s', 'example.com', 'mary@', '2175550101', '555', '100%', 'under_', 'back\\', '%', '_',
  'lace\x1fnone', 'xyz', 'ann smith', 'hopper navy', 'émile', 'ÉMILE', 'straße', 'STRASSE', 'GROSSE', 'σοφία', 'ΣΟΦΊΑ', 'αθηνα', 'i̇nci', 'İNCI', 'inci', 'ext', '42', 'a4', 'mile z', 'zola\x1fgro',
  ' ', 'e', 'E', '0'];

it('the rule matches every term on the stored columns as the field-by-field form does (no match spans two fields)', async () => {
  await db.query('begin');
  try {
    // The customers table's columns, generated ones included, without its constraints and triggers.
    await db.query(`create temp table rule_rows (like customers including defaults including generated) on commit drop`);
    for (const [i, c] of customers.entries()) {
      await db.query(
        `insert into rule_rows (uuid, company_uuid, first_name, last_name, company_name, email, phone, created_at, updated_at)
         values ($1, gen_random_uuid(), $2, $3, $4, $5, $6, now(), now())`,
        [`00000000-0000-4000-8000-00000000000${i}`, c.first_name, c.last_name, c.company_name, c.email, c.phone],
      );
    }
    const numbered = (sql: string, from: number) => sql.replace(/\?/g, () => `$${from++}`);
    const matched: string[] = [];
    for (const term of TERMS) {
      const rule = customerSearchSql('e', term, containsPattern);
      const asRule = await db.query(`select e.uuid from rule_rows e where ${numbered(rule.sql, 1)} order by e.uuid`, rule.params);
      const fields = customerSearchFieldsSql('e').map((f) => `${f} ilike $1`).join(' or ');
      const digits = term.replace(/\D/g, '');
      const perField = await db.query(`select e.uuid from rule_rows e where ${fields} ${digits ? `or regexp_replace(coalesce(e.phone, ''), '\\D', '', 'g') like $2` : ''} order by e.uuid`, [
        containsPattern(term),
        ...(digits ? [`%${digits}%`] : []),
      ]);
      expect([term, asRule.rows.map((r) => r.uuid)]).toEqual([term, perField.rows.map((r) => r.uuid)]);
      if (asRule.rows.length) matched.push(term);
    }
    // Case-insensitive beyond ASCII, and the digits of a phone.
    expect(matched).toEqual(expect.arrayContaining(['LOVE', 'ÉMILE', 'straße', 'ΣΟΦΊΑ', 'αθηνα', '2175550101', '42']));
  } finally {
    await db.query('rollback');
  }
  expect(TERMS.some((t) => t.includes(SEARCH_SEPARATOR))).toBe(true);
});
