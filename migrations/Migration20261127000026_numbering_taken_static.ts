import { Migration } from '@mikro-orm/migrations';

// "Is this number taken" with a static statement for each numbered kind (docs/benchmark.md,
// "Invoice create"). Migration 0007 wrote numbering_taken for any table and column, as dynamic SQL
// (`execute format(…)`), which PL/pgSQL parses and plans on every call: every invoice or estimate
// create asks it once (numbering_first_free's first check), and planning over the invoices'
// sixteen indexes was about 0.1 ms of the database's CPU per create, about what the rest of the
// number's assignment costs. A static statement is planned once per session. The kinds are
// written out here as src/modules/numbering/numbering.format.ts declares them today (a migration
// does not change when that file does); any other table and column keeps the dynamic form, and
// test/modules/numbering/numbering-taken.spec.ts requires every declared kind to have its branch
// and each branch to answer as the dynamic form does.
const STATIC = [
  { table: 'invoices', column: 'invoice_number' },
  { table: 'estimates', column: 'estimate_number' },
];

const DYNAMIC = `execute format('select exists (select 1 from %I where company_uuid = $1 and %I = $2)', p_table, p_column)
       into taken using p_company, p_number;
     return taken;`;

const fn = (body: string) => `create or replace function numbering_taken(p_company uuid, p_table text, p_column text, p_number text) returns boolean
   language plpgsql volatile as $$
   declare
     taken boolean;
   begin
     ${body}
   end
   $$`;

export class Migration20261127000026_numbering_taken_static extends Migration {
  async up(): Promise<void> {
    const branches = STATIC.map(
      ({ table, column }) => `if p_table = '${table}' and p_column = '${column}' then
       return exists (select 1 from ${table} where company_uuid = p_company and ${column} = p_number);
     end if;`,
    );
    this.addSql(fn([...branches, DYNAMIC].join('\n     ')));
  }

  async down(): Promise<void> {
    this.addSql(fn(DYNAMIC));
  }
}
