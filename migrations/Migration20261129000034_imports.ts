import { Migration } from '@mikro-orm/migrations';

// Imports (docs/import-export.md): each upload with its options, progress and counts; its file in
// 1 MiB chunks (any process can read it, so a job killed on one machine finishes on another); and
// the rows that failed, with their messages and their values as sent.
export class Migration20261129000034_imports extends Migration {
  async up(): Promise<void> {
    this.addSql(`create table imports (
      uuid uuid primary key,
      company_uuid uuid not null references companies (uuid) on delete cascade,
      resource text not null check (resource in ('customers', 'locations', 'jobs', 'invoices', 'payments')),
      mode text not null check (mode in ('create', 'upsert')),
      match_on text,
      dry_run boolean not null default false,
      all_or_nothing boolean not null default false,
      mapping jsonb,
      format text not null check (format in ('csv', 'ndjson')),
      delimiter text,
      columns jsonb not null default '[]',
      file_name text,
      file_bytes bigint not null,
      status text not null default 'queued' check (status in ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
      message text,
      rows_total integer not null,
      rows_done integer not null default 0,
      created integer not null default 0,
      updated integer not null default 0,
      unchanged integer not null default 0,
      failed integer not null default 0,
      caller jsonb not null,
      worker text,
      heartbeat_at timestamptz(3),
      started_at timestamptz(3),
      finished_at timestamptz(3),
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now()
    )`);
    this.addSql(`create index imports_company_idx on imports (company_uuid, created_at desc, uuid desc)`);
    // The imports a process may take over: running with a stale heartbeat, or queued.
    this.addSql(`create index imports_open_idx on imports (heartbeat_at) where status in ('queued', 'running')`);
    this.addSql(`create table import_chunks (
      import_uuid uuid not null references imports (uuid) on delete cascade,
      seq integer not null,
      data bytea not null,
      primary key (import_uuid, seq)
    )`);
    this.addSql(`create table import_errors (
      import_uuid uuid not null references imports (uuid) on delete cascade,
      row integer not null,
      errors jsonb not null,
      "values" jsonb not null,
      primary key (import_uuid, row)
    )`);
  }

  async down(): Promise<void> {
    this.addSql(`drop table import_errors`);
    this.addSql(`drop table import_chunks`);
    this.addSql(`drop table imports`);
  }
}
