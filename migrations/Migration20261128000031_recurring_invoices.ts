import { Migration } from '@mikro-orm/migrations';
import { Tracked, triggerFunctions } from './Migration20261125000010_events';

// Service agreements (docs/recurring-work.md): a recurring invoice creates one invoice per
// occurrence. The unique (recurring_invoice_uuid, issue_date) on invoices holds "exactly one per
// occurrence" whatever the number of processes, crashes or retries. Agreements join the event log
// (recurring_invoice.*), and a change of a job's schedule is a job.schedule_changed event whose
// object is the job as GET shows it.
export const AGREEMENTS: Tracked = { table: 'recurring_invoices', resource: 'recurring_invoice', changed: [], created: [] };

export class Migration20261128000031_recurring_invoices extends Migration {
  async up(): Promise<void> {
    this.addSql(`create table recurring_invoices (
      uuid uuid primary key,
      company_uuid uuid not null references companies(uuid),
      customer_uuid uuid not null references customers(uuid),
      location_uuid uuid references locations(uuid),
      job_uuid uuid not null references jobs(uuid),
      rrule text not null,
      starts_on date not null,
      timezone text not null,
      line_items jsonb,
      discount_amount numeric(12,2) not null default 0 check (discount_amount >= 0),
      notes text,
      terms text,
      due_days int not null default 30 check (due_days between 0 and 365),
      auto_send boolean not null default false,
      status text not null default 'active' check (status in ('active', 'paused', 'ended')),
      next_issue_date date,
      last_issued_at timestamptz(3),
      invoices_count int not null default 0,
      created_at timestamptz(3) not null,
      updated_at timestamptz(3) not null,
      deleted_at timestamptz(3)
    )`);
    this.addSql(`create index recurring_invoices_due_idx on recurring_invoices (next_issue_date) where status = 'active' and deleted_at is null`);
    this.addSql(`create index recurring_invoices_company_idx on recurring_invoices (company_uuid, created_at desc, uuid desc)`);
    this.addSql(`alter table invoices add column recurring_invoice_uuid uuid references recurring_invoices(uuid)`);
    this.addSql(`create unique index invoices_recurring_occurrence_idx on invoices (recurring_invoice_uuid, issue_date) where recurring_invoice_uuid is not null`);
    for (const sql of triggerFunctions(AGREEMENTS)) this.addSql(sql);
    this.addSql(`create trigger recurring_invoices_events_insert after insert on recurring_invoices referencing new table as new_rows for each statement execute function events_recurring_invoices_inserted()`);
    this.addSql(`create trigger recurring_invoices_events_update after update on recurring_invoices referencing old table as old_rows new table as new_rows for each statement execute function events_recurring_invoices_updated()`);
    this.addSql(`create trigger recurring_invoices_events_delete after delete on recurring_invoices referencing old table as old_rows for each statement execute function events_recurring_invoices_deleted()`);
    // job.schedule_changed: a schedule set, changed or deleted (not the background's generated_through).
    this.addSql(`create function events_job_schedules_changed() returns trigger language plpgsql as $$ begin
      insert into events (company_uuid, type, resource, record_uuid, actor, row)
      select j.company_uuid, 'job.schedule_changed', 'job', j.uuid, nullif(current_setting('fsc.actor', true), '')::jsonb, to_jsonb(j)
      from jobs j where j.uuid in (select n.job_uuid from new_rows n left join old_rows o on o.uuid = n.uuid
        where o.uuid is null or (to_jsonb(o) - 'generated_through' - 'updated_at') is distinct from (to_jsonb(n) - 'generated_through' - 'updated_at'));
      if found then insert into event_transactions (xid) values (pg_current_xact_id()) on conflict do nothing; end if;
      return null; end $$`);
    this.addSql(`create function events_job_schedules_inserted() returns trigger language plpgsql as $$ begin
      insert into events (company_uuid, type, resource, record_uuid, actor, row)
      select j.company_uuid, 'job.schedule_changed', 'job', j.uuid, nullif(current_setting('fsc.actor', true), '')::jsonb, to_jsonb(j)
      from jobs j where j.uuid in (select n.job_uuid from new_rows n);
      if found then insert into event_transactions (xid) values (pg_current_xact_id()) on conflict do nothing; end if;
      return null; end $$`);
    this.addSql(`create trigger job_schedules_events_insert after insert on job_schedules referencing new table as new_rows for each statement execute function events_job_schedules_inserted()`);
    this.addSql(`create trigger job_schedules_events_update after update on job_schedules referencing old table as old_rows new table as new_rows for each statement execute function events_job_schedules_changed()`);
  }

  async down(): Promise<void> {
    this.addSql(`drop trigger if exists job_schedules_events_insert on job_schedules`);
    this.addSql(`drop trigger if exists job_schedules_events_update on job_schedules`);
    this.addSql(`drop function if exists events_job_schedules_inserted()`);
    this.addSql(`drop function if exists events_job_schedules_changed()`);
    for (const e of ['insert', 'update', 'delete']) this.addSql(`drop trigger if exists recurring_invoices_events_${e} on recurring_invoices`);
    for (const e of ['inserted', 'updated', 'deleted']) this.addSql(`drop function if exists events_recurring_invoices_${e}()`);
    this.addSql(`drop index invoices_recurring_occurrence_idx`);
    this.addSql(`alter table invoices drop column recurring_invoice_uuid`);
    this.addSql(`drop table recurring_invoices`);
  }
}
