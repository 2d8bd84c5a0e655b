import { Migration } from '@mikro-orm/migrations';

// Indexes for sorted list pages (`sort`, docs/conventions.md, Lists) of the tables that grow large
// (customers, jobs, estimates, invoices, payments): one per sortable field, in the list's key
// order (company, the field's sort expressions, uuid), on live rows like the default order's
// indexes of migration 0006. A page in either direction walks one of them (backwards for `-field`),
// and a deep page finds its keys in it without reading rows. `updated_at` serves `updated_since`
// too. The expressions must stay those the entities declare (@Sortable; numbers sort by length,
// then text: byNumber in src/schema/sorting.ts); test/data/list-sort.spec.ts checks each is used.
// Locations, templates, job photos (per job) and users are small lists: no index of their own.
export const SORT_INDEXES: Array<[name: string, definition: string]> = [
  ['customers_live_updated_idx', `customers (company_uuid, updated_at, uuid) where deleted_at is null`],
  ['customers_live_last_name_idx', `customers (company_uuid, last_name, uuid) where deleted_at is null`],
  ['customers_live_first_name_idx', `customers (company_uuid, first_name, uuid) where deleted_at is null`],
  ['customers_live_company_name_idx', `customers (company_uuid, company_name, uuid) where deleted_at is null`],
  ['customers_live_email_idx', `customers (company_uuid, email, uuid) where deleted_at is null`],
  ['jobs_live_updated_idx', `jobs (company_uuid, updated_at, uuid) where deleted_at is null`],
  ['jobs_live_number_idx', `jobs (company_uuid, length(job_number), job_number, uuid) where deleted_at is null`],
  ['jobs_live_title_idx', `jobs (company_uuid, title, uuid) where deleted_at is null`],
  ['jobs_live_status_idx', `jobs (company_uuid, status, uuid) where deleted_at is null`],
  ['jobs_live_scheduled_date_idx', `jobs (company_uuid, scheduled_date, uuid) where deleted_at is null`],
  ['estimates_live_updated_idx', `estimates (company_uuid, updated_at, uuid) where deleted_at is null`],
  ['estimates_live_number_idx', `estimates (company_uuid, length(estimate_number), estimate_number, uuid) where deleted_at is null`],
  ['estimates_live_total_idx', `estimates (company_uuid, total_amount, uuid) where deleted_at is null`],
  ['estimates_live_expires_idx', `estimates (company_uuid, expires_at, uuid) where deleted_at is null`],
  ['invoices_live_updated_idx', `invoices (company_uuid, updated_at, uuid) where deleted_at is null`],
  ['invoices_live_number_idx', `invoices (company_uuid, length(invoice_number), invoice_number, uuid) where deleted_at is null`],
  ['invoices_live_issue_date_idx', `invoices (company_uuid, issue_date, uuid) where deleted_at is null`],
  ['invoices_live_due_date_idx', `invoices (company_uuid, due_date, uuid) where deleted_at is null`],
  ['invoices_live_total_idx', `invoices (company_uuid, total_amount, uuid) where deleted_at is null`],
  ['invoices_live_balance_idx', `invoices (company_uuid, balance_amount, uuid) where deleted_at is null`],
  ['payments_live_updated_idx', `payments (company_uuid, updated_at, uuid) where deleted_at is null`],
  ['payments_live_number_idx', `payments (company_uuid, length(payment_number), payment_number, uuid) where deleted_at is null`],
  ['payments_live_amount_idx', `payments (company_uuid, amount, uuid) where deleted_at is null`],
  ['payments_live_date_idx', `payments (company_uuid, payment_date, uuid) where deleted_at is null`],
];

export class Migration20261125000011_sync_indexes extends Migration {
  async up(): Promise<void> {
    for (const [name, definition] of SORT_INDEXES) this.addSql(`create index if not exists ${name} on ${definition}`);
  }

  async down(): Promise<void> {
    for (const [name] of [...SORT_INDEXES].reverse()) this.addSql(`drop index if exists ${name}`);
  }
}
