import { Migration } from '@mikro-orm/migrations';

// Visits of a job and their crews (docs/visits.md).
//
// Double booking is refused by PostgreSQL itself: visit_assignments holds one row per (visit,
// user) with the visit's time range and an `active` flag, and an exclusion constraint (btree_gist)
// forbids two active rows of one user whose ranges overlap. The rows are kept in step with
// visits.assigned_user_ids, the visit's range and status by a trigger on visits (same statement),
// and with the company's prevent_double_booking by a trigger on companies. A row is active when
// its visit is scheduled, not deleted, not Cancelled, and the company prevents double booking.
// Two concurrent transactions booking one user at overlapping times: the second waits for the
// first to commit and then fails with 23P01 (mapped to 409 SCHEDULE_CONFLICT).
//
// Existing jobs with a scheduled_date or an assigned user get one visit each (docs/visits.md,
// "Jobs' schedule fields"); a company whose existing jobs already double-book someone starts with
// prevent_double_booking off, so that the migration cannot fail on old data.
const ACTIVE = `(c.prevent_double_booking and v.deleted_at is null and v.status <> 'Cancelled' and v.period is not null)`;

export class Migration20261125000013_visits extends Migration {
  async up(): Promise<void> {
    this.addSql(`create extension if not exists btree_gist`);
    this.addSql(`alter table companies add column prevent_double_booking boolean not null default true`);
    this.addSql(`create table visits (
      uuid uuid primary key,
      company_uuid uuid not null references companies(uuid),
      job_uuid uuid not null references jobs(uuid),
      title text,
      instructions text,
      status text not null check (status in ('Scheduled', 'Unscheduled', 'En Route', 'On Site', 'Completed', 'Cancelled')),
      starts_at timestamptz(3),
      ends_at timestamptz(3),
      all_day boolean not null default false,
      visit_date date,
      assigned_user_ids uuid[] not null default '{}',
      completed_at timestamptz(3),
      created_at timestamptz(3) not null,
      updated_at timestamptz(3) not null,
      deleted_at timestamptz(3),
      period tstzrange generated always as (case when starts_at is null then null else tstzrange(starts_at, ends_at, '[)') end) stored,
      constraint visits_both_ends check ((starts_at is null) = (ends_at is null)),
      constraint visits_end_after_start check (ends_at > starts_at),
      constraint visits_all_day_date check (not all_day or (visit_date is not null and starts_at is not null))
    )`);
    this.addSql(`create index visits_job_idx on visits (job_uuid, starts_at) where deleted_at is null`);
    this.addSql(`create index visits_period_idx on visits using gist (company_uuid, period) where deleted_at is null`);
    this.addSql(`create index visits_company_start_idx on visits (company_uuid, starts_at, created_at, uuid)`);
    this.addSql(`create table visit_assignments (
      visit_uuid uuid not null references visits(uuid) on delete cascade,
      user_id uuid not null references users(id),
      company_uuid uuid not null references companies(uuid),
      period tstzrange,
      active boolean not null,
      primary key (visit_uuid, user_id),
      constraint visit_assignments_no_double_booking exclude using gist (user_id with =, period with &&, visit_uuid with <>) where (active)
    )`);
    // The calendar of one user (any company setting): GET /visits?user_id=&from=&to=.
    this.addSql(`create index visit_assignments_user_idx on visit_assignments using gist (company_uuid, user_id, period)`);

    this.addSql(`create function visits_sync_assignments() returns trigger language plpgsql as $$
      begin
        delete from visit_assignments where visit_uuid = new.uuid and user_id <> all (new.assigned_user_ids);
        update visit_assignments a set period = v.period, active = ${ACTIVE}
          from visits v, companies c
          where a.visit_uuid = new.uuid and v.uuid = new.uuid and c.uuid = new.company_uuid
            and (a.period is distinct from v.period or a.active is distinct from ${ACTIVE});
        insert into visit_assignments (visit_uuid, user_id, company_uuid, period, active)
          select v.uuid, u.id, v.company_uuid, v.period, ${ACTIVE}
          from visits v join companies c on c.uuid = v.company_uuid, unnest(new.assigned_user_ids) as u(id)
          where v.uuid = new.uuid
          on conflict (visit_uuid, user_id) do nothing;
        return null;
      end $$`);
    this.addSql(`create trigger visits_sync_assignments after insert or update of starts_at, ends_at, status, deleted_at, assigned_user_ids on visits
      for each row execute function visits_sync_assignments()`);
    this.addSql(`create function companies_sync_double_booking() returns trigger language plpgsql as $$
      begin
        update visit_assignments a set active = ${ACTIVE}
          from visits v, companies c
          where a.company_uuid = new.uuid and v.uuid = a.visit_uuid and c.uuid = new.uuid;
        return null;
      end $$`);
    this.addSql(`create trigger companies_sync_double_booking after update of prevent_double_booking on companies
      for each row when (old.prevent_double_booking is distinct from new.prevent_double_booking) execute function companies_sync_double_booking()`);

    // One visit for each job that has a schedule or an assigned user (the job's fields stay as they are).
    this.addSql(`alter table visit_assignments drop constraint visit_assignments_no_double_booking`);
    this.addSql(`with tz as (
        select c.uuid, coalesce((select l.timezone from locations l where l.company_uuid = c.uuid and l.is_primary and l.deleted_at is null limit 1), 'America/New_York') as tz
        from companies c
      ), j as (
        select jobs.*, tz.tz, (scheduled_date is not null and scheduled_time_start is not null and scheduled_time_end is not null
          and scheduled_time_end > scheduled_time_start) as timed
        from jobs join tz on tz.uuid = jobs.company_uuid
        where jobs.deleted_at is null and (jobs.scheduled_date is not null or jobs.assigned_to_user_id is not null)
      )
      insert into visits (uuid, company_uuid, job_uuid, status, starts_at, ends_at, all_day, visit_date, assigned_user_ids, created_at, updated_at)
      select gen_random_uuid(), company_uuid, uuid,
        case when scheduled_date is null then 'Unscheduled' else 'Scheduled' end,
        case when timed then (scheduled_date + scheduled_time_start::time) at time zone tz when scheduled_date is not null then scheduled_date::timestamp at time zone tz end,
        case when timed then (scheduled_date + scheduled_time_end::time) at time zone tz when scheduled_date is not null then (scheduled_date + 1)::timestamp at time zone tz end,
        scheduled_date is not null and not timed, scheduled_date,
        case when assigned_to_user_id is null then '{}'::uuid[] else array[assigned_to_user_id] end,
        now(), now()
      from j`);
    this.addSql(`update companies c set prevent_double_booking = false where exists (
        select 1 from visit_assignments a join visit_assignments b on a.user_id = b.user_id and a.visit_uuid <> b.visit_uuid and a.period && b.period
        where a.company_uuid = c.uuid and a.active and b.active)`);
    this.addSql(`alter table visit_assignments add constraint visit_assignments_no_double_booking exclude using gist (user_id with =, period with &&, visit_uuid with <>) where (active)`);
  }

  async down(): Promise<void> {
    this.addSql(`drop trigger companies_sync_double_booking on companies`);
    this.addSql(`drop function companies_sync_double_booking()`);
    this.addSql(`drop table visit_assignments`);
    this.addSql(`drop table visits`);
    this.addSql(`drop function visits_sync_assignments()`);
    this.addSql(`alter table companies drop column prevent_double_booking`);
    // btree_gist stays: another schema object may use it, and it holds no data.
  }
}
