import { Migration } from '@mikro-orm/migrations';

export class Migration20261121000001_init extends Migration {
  async up(): Promise<void> {
    this.addSql(`create extension if not exists pg_trgm`);
    this.addSql(`
      create table companies (
        uuid uuid primary key,
        name text not null,
        email text not null,
        phone text,
        address_line1 text,
        address_line2 text,
        city text,
        state text,
        postal_code text,
        country text,
        addons text[] not null default '{}',
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now()
      )`);
    this.addSql(`
      create table users (
        id uuid primary key,
        company_uuid uuid not null references companies(uuid),
        first_name text not null,
        last_name text not null,
        email text,
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now()
      )`);
    this.addSql(`create index users_company_created_idx on users (company_uuid, created_at desc, id desc)`);
    this.addSql(`
      create table api_keys (
        id uuid primary key,
        company_uuid uuid not null references companies(uuid),
        user_id uuid not null references users(id),
        key_hash text not null unique,
        key_prefix text not null,
        allowed_ips text[],
        usage_limit integer check (usage_limit > 0),
        usage_period text check (usage_period in ('hour', 'day', 'month')),
        created_at timestamptz(3) not null default now(),
        revoked_at timestamptz(3)
      )`);
    this.addSql(`create index api_keys_company_idx on api_keys (company_uuid, created_at desc)`);
    this.addSql(`
      create table locations (
        uuid uuid primary key,
        company_uuid uuid not null references companies(uuid),
        name text not null,
        location_code text,
        address1 text not null,
        address2 text,
        city text not null,
        state text not null,
        zip text not null,
        phone text,
        timezone text not null default 'America/New_York',
        business_hours jsonb,
        default_tax_rules jsonb,
        service_types_offered jsonb,
        default_pricing_set_uuid uuid,
        is_primary boolean not null default false,
        is_active boolean not null default true,
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now(),
        deleted_at timestamptz(3)
      )`);
    this.addSql(`create index locations_company_created_idx on locations (company_uuid, created_at desc, uuid desc)`);
    // At most one primary location per company.
    this.addSql(`create unique index locations_one_primary_idx on locations (company_uuid) where is_primary and deleted_at is null`);
    this.addSql(`
      create table customers (
        uuid uuid primary key,
        company_uuid uuid not null references companies(uuid),
        first_name text not null,
        last_name text not null,
        company_name text,
        email text,
        phone text,
        customer_type text not null default 'Residential' check (customer_type in ('Residential', 'Commercial')),
        is_vip boolean not null default false,
        physical_address1 text, physical_address2 text, physical_city text, physical_state text, physical_zip text,
        billing_address1 text, billing_address2 text, billing_city text, billing_state text, billing_zip text,
        primary_service_location_uuid uuid references locations(uuid),
        notes text,
        internal_flags jsonb,
        on_my_way_notify_via text check (on_my_way_notify_via in ('email', 'sms', 'both')),
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now(),
        deleted_at timestamptz(3)
      )`);
    this.addSql(`create index customers_company_created_idx on customers (company_uuid, created_at desc, uuid desc)`);
    // Per-company counters behind job_number and payment_number: one row per (company, name),
    // advanced with a single UPDATE … RETURNING so concurrent creates never share a number.
    this.addSql(`
      create table company_sequences (
        company_uuid uuid not null references companies(uuid),
        name text not null,
        value bigint not null default 0,
        primary key (company_uuid, name)
      )`);
  }

  async down(): Promise<void> {
    this.addSql(`drop table if exists company_sequences`);
    this.addSql(`drop table if exists customers`);
    this.addSql(`drop table if exists locations`);
    this.addSql(`drop table if exists api_keys`);
    this.addSql(`drop table if exists users`);
    this.addSql(`drop table if exists companies`);
  }
}
