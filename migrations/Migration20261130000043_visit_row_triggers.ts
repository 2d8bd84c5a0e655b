import { Migration } from '@mikro-orm/migrations';

// Visits' row triggers run only where a visit can change what they keep: the kept reach of jobs
// (migration 0037, docs/people-and-access.md "How it is built") and the crews' bookings
// (visit_assignments, migration 0013, docs/visits.md "Double booking").
//
// - An inserted visit no longer refreshes its job: a job's reach holds the crews of its live
//   visits, read from visit_assignments, and a visit has no assignment when its row goes in (they
//   reference it); each assignment, written next by visits_sync_assignments, refreshes the job
//   itself. The refresh on insert found the job's reach unchanged every time, and cost a visit
//   create a third of its statement's time, and a schedule's 730 visits 730 refreshes that each
//   read the job's 730 visits.
// - A deleted visit refreshes its job once per statement, not once per row: the visits of a
//   schedule replaced by a later PUT go in one statement (src/modules/schedule/schedule.service.ts).
//   Their assignments go with them (on delete cascade), and those find no visit to refresh from,
//   so the refresh stays on the visits' delete.
// - An inserted visit without a crew no longer syncs its assignments: it has none, and there are
//   none to delete or update (each of the three statements of visits_sync_assignments found no
//   row; for a schedule's 730 visits, 40% of the insert's time once the refreshes were gone).
//   Updates sync as before.
//
// test/data/job-reach.spec.ts holds the kept rows to the rule after every kind of write.

export class Migration20261130000043_visit_row_triggers extends Migration {
  async up(): Promise<void> {
    this.addSql(`drop trigger visits_job_reach_insert_delete on visits`);
    this.addSql(`create or replace function visits_job_reach() returns trigger language plpgsql as $$
      begin
        perform job_reach_refresh(old.job_uuid);
        if new.job_uuid is distinct from old.job_uuid then perform job_reach_refresh(new.job_uuid); end if;
        return null;
      end $$`);
    // In the jobs' order, so that two statements deleting visits of the same jobs lock them alike.
    this.addSql(`create function visits_job_reach_deleted() returns trigger language plpgsql as $$
      begin
        perform job_reach_refresh(j.job_uuid) from (select distinct job_uuid from old_rows order by job_uuid) j;
        return null;
      end $$`);
    this.addSql(`create trigger visits_job_reach_delete after delete on visits referencing old table as old_rows
      for each statement execute function visits_job_reach_deleted()`);

    this.addSql(`drop trigger visits_sync_assignments on visits`);
    this.addSql(`create trigger visits_sync_assignments_insert after insert on visits
      for each row when (cardinality(new.assigned_user_ids) > 0) execute function visits_sync_assignments()`);
    this.addSql(`create trigger visits_sync_assignments after update of starts_at, ends_at, status, deleted_at, assigned_user_ids on visits
      for each row execute function visits_sync_assignments()`);
  }

  async down(): Promise<void> {
    this.addSql(`drop trigger visits_sync_assignments_insert on visits`);
    this.addSql(`drop trigger visits_sync_assignments on visits`);
    this.addSql(`create trigger visits_sync_assignments after insert or update of starts_at, ends_at, status, deleted_at, assigned_user_ids on visits
      for each row execute function visits_sync_assignments()`);
    this.addSql(`drop trigger visits_job_reach_delete on visits`);
    this.addSql(`drop function visits_job_reach_deleted()`);
    this.addSql(`create or replace function visits_job_reach() returns trigger language plpgsql as $$
      begin
        if tg_op in ('UPDATE', 'DELETE') then perform job_reach_refresh(old.job_uuid); end if;
        if tg_op in ('INSERT', 'UPDATE') and (tg_op = 'INSERT' or new.job_uuid is distinct from old.job_uuid) then perform job_reach_refresh(new.job_uuid); end if;
        return null;
      end $$`);
    this.addSql(`create trigger visits_job_reach_insert_delete after insert or delete on visits for each row execute function visits_job_reach()`);
  }
}
