import { Migration } from '@mikro-orm/migrations';

// Job schedules (docs/recurring-work.md): one live schedule per job; its generated visits carry
// schedule_uuid and occurrence_date, and the unique index on the pair holds "one visit per
// occurrence" whatever the number of processes, retries or crashes. A generated visit deleted by
// hand keeps its row (soft delete), so its occurrence stays taken: skipped for good.
export class Migration20261128000030_job_schedules extends Migration {
  async up(): Promise<void> {
    this.addSql(`create table job_schedules (
      uuid uuid primary key,
      company_uuid uuid not null references companies(uuid),
      job_uuid uuid not null references jobs(uuid),
      rrule text not null,
      starts_on date not null,
      start_time text,
      duration_minutes int,
      all_day boolean not null default false,
      assigned_user_ids uuid[] not null default '{}',
      title text,
      instructions text,
      horizon_days int not null default 180 check (horizon_days between 7 and 730),
      timezone text not null,
      generated_through date,
      created_at timestamptz(3) not null,
      updated_at timestamptz(3) not null,
      deleted_at timestamptz(3)
    )`);
    this.addSql(`create unique index job_schedules_job_idx on job_schedules (job_uuid) where deleted_at is null`);
    this.addSql(`create index job_schedules_due_idx on job_schedules (generated_through) where deleted_at is null`);
    this.addSql(`alter table visits add column schedule_uuid uuid references job_schedules(uuid),
      add column occurrence_date date,
      add column schedule_exception boolean not null default false,
      add column schedule_conflicts jsonb not null default '[]'`);
    this.addSql(`create unique index visits_schedule_occurrence_idx on visits (schedule_uuid, occurrence_date) where schedule_uuid is not null`);
  }

  async down(): Promise<void> {
    this.addSql(`drop index visits_schedule_occurrence_idx`);
    this.addSql(`alter table visits drop column schedule_uuid, drop column occurrence_date, drop column schedule_exception, drop column schedule_conflicts`);
    this.addSql(`drop table job_schedules`);
  }
}
