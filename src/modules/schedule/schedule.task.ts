import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../db/orm';
import { generateVisits, runner, ScheduleShape } from './schedule.generate';

// The background half of schedules (docs/recurring-work.md): every schedule of a live job whose visits stop
// short of today + horizon_days is extended. Schedules are claimed a few at a time (FOR UPDATE
// SKIP LOCKED), so processes running this at once share the work; a process that dies mid-way
// leaves its claimed rows to the next run, and the visits' unique occurrence keeps each one single.

const BATCH = 20;

// Across companies, by design: the worker claims due schedules of any company (no request, no
// company scope); each is then extended in its own company's system context.
const DUE_SQL = `select uuid, company_uuid as "companyUuid", rrule, starts_on::text as "startsOn", start_time as "startTime",
    duration_minutes as "durationMinutes", all_day as "allDay", timezone, horizon_days as "horizonDays", generated_through::text as "generatedThrough"
  from job_schedules s
  where deleted_at is null and exists (select 1 from jobs j where j.uuid = s.job_uuid and j.company_uuid = s.company_uuid and j.deleted_at is null)
    and (generated_through is null or generated_through < (?::timestamptz at time zone timezone)::date + horizon_days - 1)
  order by generated_through nulls first, uuid
  limit ${BATCH} for update of s skip locked`;

type Due = ScheduleShape & { generatedThrough: string | null };

/** Extends every due schedule; returns the number of schedules extended. */
export async function extendSchedules(orm: Orm, now = new Date()): Promise<number> {
  let total = 0;
  for (;;) {
    const em = orm.em.fork() as EntityManager;
    const n = await em.transactional(async (tx) => {
      const run = runner(tx as EntityManager);
      const due = (await run(DUE_SQL, [now.toISOString()])) as Due[];
      for (const s of due) await generateVisits(run, s, now);
      return due.length;
    });
    total += n;
    if (n < BATCH) return total;
  }
}
