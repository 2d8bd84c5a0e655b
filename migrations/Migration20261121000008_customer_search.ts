import { Migration } from '@mikro-orm/migrations';

// Customer search (docs/conventions.md) matched each of seven fields with its own ILIKE and trigram
// index. On PostgreSQL 15 the planner costed the OR of seven bitmap scans above a parallel scan of
// the company's customers, which evaluated every ILIKE on every row (~235 ms for "smith" among
// 110,000 customers). The fields are now matched as one text, joined by U+001F (a character a
// search term never carries: the service falls back to the per-field match if one does), so a
// match can never span two fields, with one trigram index: ~10 ms. The phone-digits branch keeps
// its own index. The per-field indexes served only this search and are dropped.
//
// The expression must stay identical to customerSearchTextSql('') in
// src/modules/customer/customer.rules.ts for the index to be used (test/modules/customer/customer-rules.spec.ts).
const SEARCH_TEXT = `(first_name || E'\\x1f' || last_name || E'\\x1f' || first_name || ' ' || last_name || E'\\x1f' || coalesce(company_name, '') || E'\\x1f' || coalesce(email, '') || E'\\x1f' || coalesce(phone, '') || E'\\x1f' || uuid::text)`;

const DROPPED: Array<[name: string, definition: string]> = [
  ['customers_first_name_trgm_idx', `customers using gin (first_name gin_trgm_ops)`],
  ['customers_last_name_trgm_idx', `customers using gin (last_name gin_trgm_ops)`],
  ['customers_full_name_trgm_idx', `customers using gin ((first_name || ' ' || last_name) gin_trgm_ops)`],
  ['customers_company_name_trgm_idx', `customers using gin (company_name gin_trgm_ops)`],
  ['customers_email_trgm_idx', `customers using gin (email gin_trgm_ops)`],
  ['customers_phone_trgm_idx', `customers using gin (phone gin_trgm_ops)`],
  ['customers_uuid_trgm_idx', `customers using gin ((uuid::text) gin_trgm_ops)`],
];

export class Migration20261121000008_customer_search extends Migration {
  async up(): Promise<void> {
    this.addSql(`create index if not exists customers_search_trgm_idx on customers using gin (${SEARCH_TEXT} gin_trgm_ops)`);
    for (const [name] of DROPPED) this.addSql(`drop index if exists ${name}`);
  }

  async down(): Promise<void> {
    for (const [name, definition] of DROPPED) this.addSql(`create index if not exists ${name} on ${definition}`);
    this.addSql(`drop index if exists customers_search_trgm_idx`);
  }
}
