import { Migration } from '@mikro-orm/migrations';

// Customer search on stored, normalised columns (docs/benchmark.md, "Indexes"; issues 14 and 20).
// Migration 0008 matched the joined fields with ILIKE on an expression: every row the search
// looked at (the count's candidates, the page's walk down the created_at index) was joined again
// and lower-cased again (ILIKE lower-cases both sides in a multi-byte encoding), ~2–5 µs a row;
// the phone-digits branch ran regexp_replace on every row too. Both are now stored generated
// columns: `search_text`, the joined fields lower-cased, matched with LIKE against the lower-cased
// pattern (what ILIKE does), and `phone_digits`; each with its trigram index, replacing the two
// expression indexes. The entity does not map them (they are never written or read by the API).
//
// The expressions must stay identical to customerSearchColumnSql('') and phoneDigitsSql('') in
// src/modules/customer/customer.rules.ts (test/modules/customer/customer-rules.spec.ts compares
// them with the columns' definitions).
const JOINED = `(first_name || E'\\x1f' || last_name || E'\\x1f' || first_name || ' ' || last_name || E'\\x1f' || coalesce(company_name, '') || E'\\x1f' || coalesce(email, '') || E'\\x1f' || coalesce(phone, '') || E'\\x1f' || uuid::text)`;
const DIGITS = `regexp_replace(coalesce(phone, ''), '\\D', '', 'g')`;

export class Migration20261125000023_customer_search_text extends Migration {
  async up(): Promise<void> {
    // One rewrite of the table for both columns.
    this.addSql(`alter table customers add column search_text text generated always as (lower(${JOINED})) stored, add column phone_digits text generated always as (${DIGITS}) stored`);
    this.addSql(`create index customers_search_text_trgm_idx on customers using gin (search_text gin_trgm_ops)`);
    this.addSql(`create index customers_phone_digits_text_trgm_idx on customers using gin (phone_digits gin_trgm_ops)`);
    this.addSql(`drop index if exists customers_search_trgm_idx`);
    this.addSql(`drop index if exists customers_phone_digits_trgm_idx`);
  }

  async down(): Promise<void> {
    this.addSql(`create index if not exists customers_search_trgm_idx on customers using gin (${JOINED} gin_trgm_ops)`);
    this.addSql(`create index if not exists customers_phone_digits_trgm_idx on customers using gin (${DIGITS} gin_trgm_ops)`);
    this.addSql(`alter table customers drop column if exists search_text, drop column if exists phone_digits`);
  }
}
