import { Migration } from '@mikro-orm/migrations';

// Webhooks (docs/webhooks.md): endpoints per company, the deliveries queue (claimed by any number
// of processes with FOR UPDATE SKIP LOCKED and a lease), and the dispatcher's cursor over the
// event feed's positions.
export class Migration20261125000015_webhooks extends Migration {
  async up(): Promise<void> {
    this.addSql(`create table webhook_endpoints (
      uuid uuid primary key,
      company_uuid uuid not null references companies (uuid) on delete cascade,
      url text not null,
      description text,
      event_types jsonb not null default '["*"]',
      status text not null default 'active' check (status in ('active', 'disabled')),
      disabled_reason text,
      secret text not null,
      old_secret text,
      old_secret_until timestamptz,
      failing_since timestamptz,
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now()
    )`);
    this.addSql(`create index webhook_endpoints_company_idx on webhook_endpoints (company_uuid, created_at)`);
    this.addSql(`create table webhook_deliveries (
      uuid uuid primary key default gen_random_uuid(),
      endpoint_uuid uuid not null references webhook_endpoints (uuid) on delete cascade,
      company_uuid uuid not null,
      event_id text not null,
      event_type text not null,
      body text not null,
      status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed')),
      attempts int not null default 0,
      next_attempt_at timestamptz(3) default now(),
      locked_until timestamptz(3),
      last_status_code int,
      last_error text,
      attempt_log jsonb not null default '[]',
      delivered_at timestamptz(3),
      created_at timestamptz(3) not null default now(),
      unique (endpoint_uuid, event_id)
    )`);
    this.addSql(`create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where status = 'pending'`);
    this.addSql(`create index webhook_deliveries_endpoint_idx on webhook_deliveries (endpoint_uuid, created_at desc)`);
    // The dispatcher follows the feed across companies, by position.
    this.addSql(`create index events_position_idx on events (position) where position is not null`);
    // The newest event position the dispatcher has turned into deliveries (one row).
    this.addSql(`create table webhook_dispatch_state (id int primary key check (id = 1), position bigint not null)`);
    this.addSql(`insert into webhook_dispatch_state values (1, coalesce((select position from event_feed_state where id = 1), 0))`);
  }

  async down(): Promise<void> {
    this.addSql(`drop table if exists webhook_dispatch_state`);
    this.addSql(`drop index if exists events_position_idx`);
    this.addSql(`drop table if exists webhook_deliveries`);
    this.addSql(`drop table if exists webhook_endpoints`);
  }
}
