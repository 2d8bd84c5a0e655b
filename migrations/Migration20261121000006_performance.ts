import { Migration } from '@mikro-orm/migrations';

// Indexes for the list paths measured by `npm run bench` (docs/benchmark.md), each checked with
// EXPLAIN on the benchmark's data (100,000 customers, 50,000 jobs and invoices in one company).
//
// - "Live" lists (deleted_at is null, the default) page and count through partial indexes in
//   the list order, so both are index-only scans after VACUUM; include_deleted keeps using the
//   full indexes of the earlier migrations.
// - Customer search (docs/conventions.md) is an OR of ILIKEs over several columns and expressions: each
//   branch gets a trigram index, so the planner combines them with a BitmapOr instead of reading
//   every customer of the company.
// - The customer filters (type, VIP) get ordered partial indexes.
const INDEXES: Array<[name: string, definition: string]> = [
  ['customers_live_created_idx', `customers (company_uuid, created_at desc, uuid desc) where deleted_at is null`],
  ['customers_live_type_idx', `customers (company_uuid, customer_type, created_at desc, uuid desc) where deleted_at is null`],
  ['customers_live_vip_idx', `customers (company_uuid, created_at desc, uuid desc) where is_vip and deleted_at is null`],
  ['customers_first_name_trgm_idx', `customers using gin (first_name gin_trgm_ops)`],
  ['customers_last_name_trgm_idx', `customers using gin (last_name gin_trgm_ops)`],
  ['customers_full_name_trgm_idx', `customers using gin ((first_name || ' ' || last_name) gin_trgm_ops)`],
  ['customers_company_name_trgm_idx', `customers using gin (company_name gin_trgm_ops)`],
  ['customers_email_trgm_idx', `customers using gin (email gin_trgm_ops)`],
  ['customers_phone_trgm_idx', `customers using gin (phone gin_trgm_ops)`],
  ['customers_phone_digits_trgm_idx', `customers using gin (regexp_replace(coalesce(phone, ''), '\\D', '', 'g') gin_trgm_ops)`],
  ['customers_uuid_trgm_idx', `customers using gin ((uuid::text) gin_trgm_ops)`],
  ['jobs_live_created_idx', `jobs (company_uuid, created_at desc, uuid desc) where deleted_at is null`],
  ['invoices_live_created_idx', `invoices (company_uuid, created_at desc, uuid desc) where deleted_at is null`],
  ['payments_live_created_idx', `payments (company_uuid, created_at desc, uuid desc) where deleted_at is null`],
  ['estimates_live_created_idx', `estimates (company_uuid, created_at desc, uuid desc) where deleted_at is null`],
];

export class Migration20261121000006_performance extends Migration {
  async up(): Promise<void> {
    for (const [name, definition] of INDEXES) this.addSql(`create index if not exists ${name} on ${definition}`);
  }

  async down(): Promise<void> {
    for (const [name] of [...INDEXES].reverse()) this.addSql(`drop index if exists ${name}`);
  }
}
