import { LockMode } from '@mikro-orm/core';
import { inTransaction, RequestContext } from '../../data/context';
import { companyTimezone } from '../../data/company-time';
import { findActive } from '../../data/crud';
import { AppError } from '../../errors/app-error';
import { companyTodayIn } from '../company/company.rules';
import { Job } from '../job/job.entity';
import { companyUsers, syncJobMirror } from '../visit/visit.schedule';
import { JobSchedule } from './schedule.entity';
import { generateVisits, occurrencesOf, runner } from './schedule.generate';
import { JobScheduleInput, ScheduleOccurrence, SchedulePreview, SchedulePreviewInput } from './schedule.inputs';
import { addDays } from './schedule.rrule';

// A job's schedule (docs/recurring-work.md). Setting it writes its visits to the horizon in the
// same transaction; the background task extends them every day. Changing or deleting it replaces
// only the future generated visits that nobody changed by hand and that are still to be done.

/** Future generated visits still as the schedule made them: a change of the schedule replaces them. */
const REPLACEABLE = `schedule_uuid = ? and company_uuid = ? and occurrence_date >= ? and deleted_at is null
  and not schedule_exception and status in ('Scheduled', 'Unscheduled')`;

function checkTimes(input: JobScheduleInput): void {
  if (input.allDay) {
    if (input.startTime != null || input.durationMinutes != null) throw AppError.field('startTime', 'cannot be set with all_day: an all-day visit spans the whole day');
    return;
  }
  if (input.startTime == null) throw AppError.field('startTime', 'is required unless all_day is true');
  if (input.durationMinutes == null) throw AppError.field('durationMinutes', 'is required unless all_day is true');
}

/** The job's row, locked (with its company): it serialises concurrent changes of its schedule. */
async function lockJob(ctx: RequestContext, job: Job): Promise<void> {
  await ctx.em.findOne(Job, { uuid: job.uuid, company: ctx.companyId }, { lockMode: LockMode.PESSIMISTIC_WRITE, fields: ['uuid'] });
}

async function liveSchedule(ctx: RequestContext, job: Job, lock = false): Promise<JobSchedule | null> {
  return ctx.em.findOne(JobSchedule, { job: job.uuid, company: ctx.companyId, deletedAt: null }, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
}

export const scheduleService = {
  /** A schedule by its own uuid (GraphQL node). */
  byUuid(ctx: RequestContext, uuid: string): Promise<JobSchedule> {
    return findActive(ctx, JobSchedule, uuid, 'Schedule');
  },

  async get(ctx: RequestContext, jobUuid: string): Promise<JobSchedule> {
    const job = await findActive(ctx, Job, jobUuid, 'Job');
    // By the job's key alone, as Job.schedule reads it (no join back to jobs, whose reach the job's read held).
    const [s] = await ctx.loaders.children(JobSchedule, 'job', job.uuid, 1);
    if (!s) throw AppError.notFound('Schedule');
    return s;
  },

  /** Sets (creates or replaces) the job's schedule and writes its visits to the horizon. */
  async set(ctx: RequestContext, jobUuid: string, input: JobScheduleInput): Promise<JobSchedule> {
    checkTimes(input);
    return inTransaction(ctx, async (tx, em) => {
      const job = await findActive(tx, Job, jobUuid, 'Job');
      await lockJob(tx, job);
      const companyTz = await companyTimezone(tx);
      const users = await companyUsers(tx, input.assignedUserIds ?? [], 'assignedUserIds');
      const existing = await liveSchedule(tx, job, true);
      const s = existing ?? Object.assign(new JobSchedule(), { company: ctx.company, job });
      Object.assign(s, {
        rrule: input.rrule.trim(),
        startsOn: input.startsOn,
        startTime: input.allDay ? null : (input.startTime ?? null),
        durationMinutes: input.allDay ? null : (input.durationMinutes ?? null),
        allDay: input.allDay ?? false,
        assignedUserIds: users,
        title: input.title ?? null,
        instructions: input.instructions ?? null,
        horizonDays: input.horizonDays ?? 180,
        timezone: input.timezone ?? companyTz,
        generatedThrough: null,
      });
      em.persist(s);
      await em.flush();
      const run = runner(em);
      if (existing) await run(`delete from visits where ${REPLACEABLE}`, [s.uuid, ctx.companyId, companyTodayIn(s.timezone)]);
      const { through } = await generateVisits(run, { ...s, companyUuid: ctx.companyId });
      s.generatedThrough = through;
      await syncJobMirror(tx, job, companyTz);
      return s;
    });
  },

  /** Deletes the schedule: its future generated visits not changed by hand go with it; the rest stay. */
  async remove(ctx: RequestContext, jobUuid: string): Promise<{ message: string }> {
    return inTransaction(ctx, async (tx, em) => {
      const job = await findActive(tx, Job, jobUuid, 'Job');
      await lockJob(tx, job);
      const s = await liveSchedule(tx, job, true);
      if (!s) throw AppError.notFound('Schedule');
      s.deletedAt = new Date();
      await em.flush();
      await runner(em)(`update visits set deleted_at = now(), updated_at = now() where ${REPLACEABLE}`, [s.uuid, ctx.companyId, companyTodayIn(s.timezone)]);
      await syncJobMirror(tx, job, await companyTimezone(tx));
      return { message: 'Schedule deleted' };
    });
  },

  /** The next occurrences of a schedule body (from starts_on or today, whichever is later), writing nothing. */
  async preview(ctx: RequestContext, input: SchedulePreviewInput): Promise<SchedulePreview> {
    checkTimes(input);
    const tz = input.timezone ?? (await companyTimezone(ctx));
    const today = companyTodayIn(tz);
    const shape = { rrule: input.rrule, startsOn: input.startsOn, startTime: input.startTime ?? null, durationMinutes: input.durationMinutes ?? null, allDay: input.allDay ?? false, timezone: tz };
    // Far enough for 500 occurrences of any rule of the subset (a yearly rule: 500 years).
    const occ = occurrencesOf(shape, today, addDays(today < input.startsOn ? input.startsOn : today, 366 * 500), input.limit ?? 50);
    return Object.assign(new SchedulePreview(), { occurrences: occ.map((o) => Object.assign(new ScheduleOccurrence(), o)) });
  },
};
