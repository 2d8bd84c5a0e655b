import { Migration } from '@mikro-orm/migrations';

// Document numbering (docs/estimates-and-numbering.md) in the database, so that a create takes its number in one
// statement: `numbering_assign` locks the company's settings row (creating it with the defaults on
// first use), gives the pending override unless it is taken, else the first free number from the
// counter, and moves the counter past it. The row stays locked until the create commits, so
// numbers are unique under concurrency, and a failed create (rolled back) uses up no number.
//
// The functions are VOLATILE on purpose: each query inside takes a fresh snapshot, so after
// waiting for the lock they see the numbers the previous holder committed (a single statement,
// a CTE, would judge "taken" with the snapshot of its start and could give an override's number
// again). Documents live in `p_table`.`p_column` (invoices.invoice_number, estimates.estimate_number,
// from the server's registry of numbered kinds); deleted documents count as taken.
const FUNCTIONS = [
  `create function numbering_format(p_prefix text, p_padding integer, p_number bigint) returns text
   language sql immutable as $$
     select p_prefix || lpad(p_number::text, greatest(p_padding, length(p_number::text)), '0')
   $$`,

  `create function numbering_taken(p_company uuid, p_table text, p_column text, p_number text) returns boolean
   language plpgsql volatile as $$
   declare
     taken boolean;
   begin
     execute format('select exists (select 1 from %I where company_uuid = $1 and %I = $2)', p_table, p_column)
       into taken using p_company, p_number;
     return taken;
   end
   $$`,

  // The first number >= p_from whose formatted string is free: the number itself first (the
  // usual case), then windows of 100.
  `create function numbering_first_free(p_company uuid, p_table text, p_column text, p_prefix text, p_padding integer, p_from bigint) returns bigint
   language plpgsql volatile as $$
   declare
     start bigint := p_from;
     free bigint;
   begin
     if not numbering_taken(p_company, p_table, p_column, numbering_format(p_prefix, p_padding, p_from)) then
       return p_from;
     end if;
     loop
       execute format('select min(n) from generate_series($1::bigint, $1 + 99) as n
                       where not exists (select 1 from %I as d where d.company_uuid = $2 and d.%I = numbering_format($3, $4, n))', p_table, p_column)
         into free using start, p_company, p_prefix, p_padding;
       if free is not null then
         return free;
       end if;
       start := start + 100;
     end loop;
   end
   $$`,

  // The formatted number the next document will get with these settings (GET /numbering).
  `create function numbering_next(p_company uuid, p_table text, p_column text, p_prefix text, p_padding integer, p_next bigint, p_override bigint) returns text
   language plpgsql volatile as $$
   begin
     if p_override is not null and not numbering_taken(p_company, p_table, p_column, numbering_format(p_prefix, p_padding, p_override)) then
       return numbering_format(p_prefix, p_padding, p_override);
     end if;
     return numbering_format(p_prefix, p_padding, numbering_first_free(p_company, p_table, p_column, p_prefix, p_padding, p_next));
   end
   $$`,

  // Assigns the next number of a kind; call it inside the creating transaction. The override is
  // one-time: cleared whether used or (taken meanwhile) dropped; it leaves the counter alone.
  `create function numbering_assign(p_company uuid, p_kind text, p_table text, p_column text, p_default_prefix text, p_default_padding integer) returns text
   language plpgsql volatile as $$
   declare
     s numbering_settings%rowtype;
     n bigint;
   begin
     select * into s from numbering_settings where company_uuid = p_company and kind = p_kind for update;
     if not found then
       -- First use: created with the defaults, race-safe.
       insert into numbering_settings (company_uuid, kind, prefix, padding, next_number)
         values (p_company, p_kind, p_default_prefix, p_default_padding, 1)
         on conflict (company_uuid, kind) do nothing;
       select * into strict s from numbering_settings where company_uuid = p_company and kind = p_kind for update;
     end if;
     if s.override_number is not null then
       update numbering_settings set override_number = null, updated_at = now() where company_uuid = p_company and kind = p_kind;
       if not numbering_taken(p_company, p_table, p_column, numbering_format(s.prefix, s.padding, s.override_number)) then
         return numbering_format(s.prefix, s.padding, s.override_number);
       end if;
     end if;
     n := numbering_first_free(p_company, p_table, p_column, s.prefix, s.padding, s.next_number);
     update numbering_settings set next_number = n + 1, updated_at = now() where company_uuid = p_company and kind = p_kind;
     return numbering_format(s.prefix, s.padding, n);
   end
   $$`,
];

const SIGNATURES = [
  'numbering_assign(uuid, text, text, text, text, integer)',
  'numbering_next(uuid, text, text, text, integer, bigint, bigint)',
  'numbering_first_free(uuid, text, text, text, integer, bigint)',
  'numbering_taken(uuid, text, text, text)',
  'numbering_format(text, integer, bigint)',
];

export class Migration20261121000007_numbering extends Migration {
  async up(): Promise<void> {
    for (const sql of FUNCTIONS) this.addSql(sql);
  }

  async down(): Promise<void> {
    for (const signature of SIGNATURES) this.addSql(`drop function if exists ${signature}`);
  }
}
