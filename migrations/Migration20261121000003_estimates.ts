import { Migration } from '@mikro-orm/migrations';

// Estimate templates, estimates and the per-company document numbering settings (invoices and
// estimates). Money columns are numeric(12,2); rates and quantities numeric with 4 decimals.
export class Migration20261121000003_estimates extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      create table templates (
        uuid uuid primary key,
        company_uuid uuid not null references companies(uuid),
        name text not null,
        description text,
        pricing_type text not null check (pricing_type in ('flat', 'tiered')),
        base_price numeric(12,2),
        tier_good numeric(12,2),
        tier_better numeric(12,2),
        tier_best numeric(12,2),
        addons jsonb not null default '[]',
        tax_rate numeric(7,4) not null default 0,
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now(),
        deleted_at timestamptz(3)
      )`);
    this.addSql(`create index templates_company_created_idx on templates (company_uuid, created_at desc, uuid desc)`);

    this.addSql(`
      create table estimates (
        uuid uuid primary key,
        company_uuid uuid not null references companies(uuid),
        estimate_number text not null,
        customer_uuid uuid not null references customers(uuid),
        job_uuid uuid references jobs(uuid),
        template_uuid uuid not null references templates(uuid),
        location_uuid uuid references locations(uuid),
        created_by_user_id uuid references users(id),
        status text not null default 'Pending' check (status in ('Pending', 'Accepted', 'Declined', 'Expired')),
        template_name text not null,
        pricing_type text not null check (pricing_type in ('flat', 'tiered')),
        selected_tier text check (selected_tier in ('good', 'better', 'best')),
        quantity numeric(14,4) not null default 1 check (quantity > 0),
        selected_addons jsonb,
        adjustments jsonb,
        pricing_snapshot jsonb not null,
        base_amount numeric(12,2) not null default 0,
        addons_amount numeric(12,2) not null default 0,
        tax_amount numeric(12,2) not null default 0,
        total_amount numeric(12,2) not null default 0,
        service_description text,
        internal_notes text,
        customer_notes text,
        response_notes text,
        expires_at timestamptz(3),
        responded_at timestamptz(3),
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now(),
        deleted_at timestamptz(3)
      )`);
    this.addSql(`create index estimates_company_created_idx on estimates (company_uuid, created_at desc, uuid desc)`);
    // Deleted estimates keep their numbers: a number is never assigned twice in a company.
    this.addSql(`create unique index estimates_company_number_idx on estimates (company_uuid, estimate_number)`);
    this.addSql(`create index estimates_company_status_idx on estimates (company_uuid, status, expires_at)`);
    this.addSql(`create index estimates_company_customer_idx on estimates (company_uuid, customer_uuid, created_at desc)`);
    this.addSql(`create index estimates_company_job_idx on estimates (company_uuid, job_uuid, created_at desc)`);
    this.addSql(`create index estimates_template_idx on estimates (template_uuid)`);
    this.addSql(`create index estimates_location_idx on estimates (location_uuid)`);
    this.addSql(`create index estimates_number_trgm_idx on estimates using gin (estimate_number gin_trgm_ops)`);
    this.addSql(`create index estimates_template_name_trgm_idx on estimates using gin (template_name gin_trgm_ops)`);
    this.addSql(`create index estimates_service_description_trgm_idx on estimates using gin (service_description gin_trgm_ops)`);

    // One row per company and kind; created with the defaults on first use and locked FOR UPDATE
    // by every numbered create, so numbers are unique under concurrency.
    this.addSql(`
      create table numbering_settings (
        company_uuid uuid not null references companies(uuid),
        kind text not null check (kind in ('invoice', 'estimate')),
        prefix text not null,
        padding integer not null check (padding between 0 and 12),
        next_number bigint not null check (next_number >= 1),
        override_number bigint check (override_number >= 1),
        updated_at timestamptz(3) not null default now(),
        primary key (company_uuid, kind)
      )`);
  }

  async down(): Promise<void> {
    this.addSql(`drop table if exists numbering_settings`);
    this.addSql(`drop table if exists estimates`);
    this.addSql(`drop table if exists templates`);
  }
}
