import { Migration } from '@mikro-orm/migrations';

// The kept reach of jobs (docs/people-and-access.md, "How it is built"): one row per (job, user)
// whose reach holds the job (src/data/reach.ts: the job's assigned_to_user_id, and the crew of its
// live visits), with the job's company, created_at and liveness, so that a technician's job list
// reads their rows in page order by one index and counts them index-only.
//
// job_reach_refresh(job) recomputes one job's rows from the base tables. Row triggers on jobs,
// visits and visit_assignments call it for every job a change may move. Two transactions
// refreshing one job are serialized by a lock on the job held to the end of the transaction:
// without it, the second one's delete would not see the first one's uncommitted rows (and its
// insert would then fail on the key, or leave a stale row). Each statement of the function reads
// a fresh snapshot (READ COMMITTED), so the second refresh, run once the first has committed, sees
// both transactions' changes.
//
// The lock is the job's row lock (FOR NO KEY UPDATE: it does not wait for the key-share locks of
// the foreign keys, so visits of the job still go in meanwhile), not an advisory lock per job: an
// advisory lock takes an entry of the shared lock table until the transaction ends, and one
// statement that changes the visits of tens of thousands of jobs (a bulk load, an import) would
// fail with "out of shared memory" (64 entries per connection by default, shared by the whole
// server: other sessions' statements fail too); a row lock is written in the row. A transaction
// updating the job holds that lock already.
//
// A new job takes no lock: it has no visit yet and no other transaction can see it, so its rows
// are its assignee's only.

const RULE = (job: string) => `
  insert into job_reach (job_uuid, user_id, company_uuid, created_at, live)
    select j.uuid, u.user_id, j.company_uuid, j.created_at, j.deleted_at is null
    from jobs j, lateral (
      select j.assigned_to_user_id as user_id where j.assigned_to_user_id is not null
      union
      select a.user_id from visits v join visit_assignments a on a.visit_uuid = v.uuid
        where v.job_uuid = j.uuid and v.deleted_at is null
    ) u
    where ${job}`;

export class Migration20261129000037_job_reach extends Migration {
  async up(): Promise<void> {
    this.addSql(`create table job_reach (
      job_uuid uuid not null references jobs (uuid) on delete cascade,
      user_id uuid not null,
      company_uuid uuid not null,
      created_at timestamptz(3) not null,
      live boolean not null,
      primary key (job_uuid, user_id)
    )`);
    // A technician's page in order (live rows, newest first), and their count index-only.
    this.addSql(`create index job_reach_page_idx on job_reach (company_uuid, user_id, live, created_at desc, job_uuid desc)`);

    this.addSql(`create function job_reach_refresh(job uuid) returns void language plpgsql as $$
      begin
        if job is null then return; end if;
        perform 1 from jobs where uuid = job for no key update;
        delete from job_reach where job_uuid = job;
        ${RULE('j.uuid = job')};
      end $$`);

    this.addSql(`create function jobs_job_reach() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          if new.assigned_to_user_id is not null then
            insert into job_reach (job_uuid, user_id, company_uuid, created_at, live)
              values (new.uuid, new.assigned_to_user_id, new.company_uuid, new.created_at, new.deleted_at is null)
              on conflict (job_uuid, user_id) do nothing;
          end if;
        else
          perform job_reach_refresh(new.uuid);
        end if;
        return null;
      end $$`);
    this.addSql(`create trigger jobs_job_reach_insert after insert on jobs for each row execute function jobs_job_reach()`);
    this.addSql(`create trigger jobs_job_reach_update after update of assigned_to_user_id, created_at, deleted_at on jobs
      for each row when (old.assigned_to_user_id is distinct from new.assigned_to_user_id or old.created_at is distinct from new.created_at
        or old.deleted_at is distinct from new.deleted_at)
      execute function jobs_job_reach()`);

    this.addSql(`create function visits_job_reach() returns trigger language plpgsql as $$
      begin
        if tg_op in ('UPDATE', 'DELETE') then perform job_reach_refresh(old.job_uuid); end if;
        if tg_op in ('INSERT', 'UPDATE') and (tg_op = 'INSERT' or new.job_uuid is distinct from old.job_uuid) then perform job_reach_refresh(new.job_uuid); end if;
        return null;
      end $$`);
    this.addSql(`create trigger visits_job_reach_insert_delete after insert or delete on visits for each row execute function visits_job_reach()`);
    this.addSql(`create trigger visits_job_reach_update after update of job_uuid, deleted_at on visits
      for each row when (old.job_uuid is distinct from new.job_uuid or (old.deleted_at is null) <> (new.deleted_at is null))
      execute function visits_job_reach()`);

    // The crew of a visit: its job's reach. (An assignment's period and active flag do not move it.)
    this.addSql(`create function visit_assignments_job_reach() returns trigger language plpgsql as $$
      begin
        if tg_op in ('UPDATE', 'DELETE') then perform job_reach_refresh(v.job_uuid) from visits v where v.uuid = old.visit_uuid; end if;
        if tg_op = 'INSERT' or (tg_op = 'UPDATE' and new.visit_uuid is distinct from old.visit_uuid) then
          perform job_reach_refresh(v.job_uuid) from visits v where v.uuid = new.visit_uuid;
        end if;
        return null;
      end $$`);
    this.addSql(`create trigger visit_assignments_job_reach_insert_delete after insert or delete on visit_assignments for each row execute function visit_assignments_job_reach()`);
    this.addSql(`create trigger visit_assignments_job_reach_update after update of visit_uuid, user_id, company_uuid on visit_assignments
      for each row when (old.visit_uuid is distinct from new.visit_uuid or old.user_id is distinct from new.user_id or old.company_uuid is distinct from new.company_uuid)
      execute function visit_assignments_job_reach()`);

    // Every existing job, in one statement, its tables held against writes meanwhile.
    this.addSql(`lock table jobs, visits, visit_assignments in share mode`);
    this.addSql(RULE('true'));
    this.addSql(`analyze job_reach`);
    // Its writes mark their company for the replicas' read-your-writes, as every table with
    // company_uuid does (migration 0035, docs/scaling.md).
    this.addSql(`select fsc_track_company_writes('job_reach')`);
  }

  async down(): Promise<void> {
    this.addSql(`drop trigger visit_assignments_job_reach_update on visit_assignments`);
    this.addSql(`drop trigger visit_assignments_job_reach_insert_delete on visit_assignments`);
    this.addSql(`drop function visit_assignments_job_reach()`);
    this.addSql(`drop trigger visits_job_reach_update on visits`);
    this.addSql(`drop trigger visits_job_reach_insert_delete on visits`);
    this.addSql(`drop function visits_job_reach()`);
    this.addSql(`drop trigger jobs_job_reach_update on jobs`);
    this.addSql(`drop trigger jobs_job_reach_insert on jobs`);
    this.addSql(`drop function jobs_job_reach()`);
    this.addSql(`drop function job_reach_refresh(uuid)`);
    this.addSql(`drop table job_reach`);
  }
}
