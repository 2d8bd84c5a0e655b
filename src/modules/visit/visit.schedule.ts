import { QueryOrder } from '@mikro-orm/core';
import type { RequestContext } from '../../data/context';
import { AppError } from '../../errors/app-error';
import { Job } from '../job/job.entity';
import { User } from '../user/user.entity';
import { OPEN_STATUSES, Visit, VisitStatus } from './visit.entity';
import type { VisitCreateInput, VisitUpdateInput } from './visit.inputs';
import { localDay, localInstant, localParts } from './visit.time';

// The rules of a visit's time, status and crew (docs/visits.md), and the job's schedule fields
// kept as the stored mirror of its next open visit.

/** Users of the company, deduplicated in the order given; one message for missing and foreign ids. */
export async function companyUsers(ctx: RequestContext, ids: readonly string[], field: string): Promise<string[]> {
  const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
  if (!unique.length) return unique;
  const found = await ctx.em.count(User, { company: ctx.companyId, id: { $in: unique } });
  if (found !== unique.length) throw AppError.field(field, 'must list users of this company');
  return unique;
}

/** The days an all-day visit may fall on. */
export const FIRST_DAY = '1900-01-01';
export const LAST_DAY = '2999-12-31';

const same = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);

/** Copies a create/update input onto a visit, with the rules of its time and status. */
export async function applyVisitInput(ctx: RequestContext, v: Visit, input: VisitCreateInput | VisitUpdateInput, tz: string, now = new Date()): Promise<void> {
  if (input.title !== undefined) v.title = input.title;
  if (input.instructions !== undefined) v.instructions = input.instructions;
  if (input.allDay !== undefined || input.visitDate !== undefined || input.startsAt !== undefined || input.endsAt !== undefined) {
    setTimes(v, input, tz);
  }
  if (input.assignedUserIds !== undefined) v.assignedUserIds = await companyUsers(ctx, input.assignedUserIds, 'assignedUserIds');
  setStatus(v, input.status ?? v.status, now);
}

function setTimes(v: Visit, input: VisitCreateInput | VisitUpdateInput, tz: string): void {
  const allDay = input.allDay ?? v.allDay;
  if (allDay) {
    const date = input.visitDate !== undefined ? input.visitDate : v.allDay ? v.visitDate : null;
    if (!date) throw AppError.field('visitDate', 'is required for an all-day visit');
    // A whole local day needs the calendar around it (docs/visits.md).
    if (date < FIRST_DAY || date > LAST_DAY) throw AppError.field('visitDate', `must be between ${FIRST_DAY} and ${LAST_DAY}`);
    const day = localDay(date, tz);
    // GET → PUT of an all-day visit sends back its bounds: accepted when they are the day's.
    if ((input.startsAt !== undefined && !same(input.startsAt, day.startsAt)) || (input.endsAt !== undefined && !same(input.endsAt, day.endsAt))) {
      throw AppError.field(input.startsAt !== undefined ? 'startsAt' : 'endsAt', 'cannot be set on an all-day visit: it spans visit_date in the company time zone');
    }
    Object.assign(v, { allDay: true, visitDate: date, startsAt: day.startsAt, endsAt: day.endsAt });
    return;
  }
  const startsAt = input.startsAt !== undefined ? input.startsAt : v.startsAt;
  const endsAt = input.endsAt !== undefined ? input.endsAt : v.endsAt;
  if ((startsAt === null) !== (endsAt === null)) {
    throw AppError.field(startsAt === null ? 'startsAt' : 'endsAt', 'must be given with the other end: a visit has both starts_at and ends_at, or neither');
  }
  if (startsAt && endsAt && endsAt.getTime() <= startsAt.getTime()) throw AppError.field('endsAt', 'must be after starts_at');
  const visitDate = startsAt ? localParts(startsAt, tz).date : null;
  if (input.visitDate !== undefined && input.visitDate !== visitDate) {
    throw AppError.field('visitDate', 'is set only on all-day visits; a timed visit takes it from starts_at');
  }
  Object.assign(v, { allDay: false, visitDate, startsAt, endsAt });
}

/** Scheduled and Unscheduled follow the time; En Route and On Site need one; Completed keeps its completed_at. */
export function setStatus(v: Visit, status: VisitStatus, now = new Date()): void {
  let s = status;
  if (s === VisitStatus.SCHEDULED || s === VisitStatus.UNSCHEDULED) s = v.startsAt ? VisitStatus.SCHEDULED : VisitStatus.UNSCHEDULED;
  if ((s === VisitStatus.EN_ROUTE || s === VisitStatus.ON_SITE) && !v.startsAt) throw AppError.field('status', `${s} needs starts_at and ends_at`);
  v.status = s;
  v.completedAt = s === VisitStatus.COMPLETED ? (v.completedAt ?? now) : null;
}

/** The calendar's order (a job's visits by start, unscheduled last), and its reverse. */
const CALENDAR = { startsAt: QueryOrder.ASC_NULLS_LAST, createdAt: QueryOrder.ASC, uuid: QueryOrder.ASC } as const;
const CALENDAR_REVERSED = { startsAt: QueryOrder.DESC_NULLS_FIRST, createdAt: QueryOrder.DESC, uuid: QueryOrder.DESC } as const;

/**
 * The job's next open visit (the earliest one still to be done), else its last one: the rule over
 * the job's visits in the calendar's order. mirrorOf reads the same visit from the database;
 * test/modules/visit/booking.spec.ts holds the two to each other.
 */
export function mirroredVisit(visits: Visit[]): Visit | null {
  return visits.find((v) => OPEN_STATUSES.includes(v.status)) ?? visits[visits.length - 1] ?? null;
}

/** The job's first open visit in the calendar's order (one row, by the index on the job's visits). */
function nextOpenVisit(ctx: RequestContext, jobUuid: string): Promise<Visit | null> {
  return ctx.em.findOne(Visit, { job: jobUuid, company: ctx.companyId, deletedAt: null, status: { $in: [...OPEN_STATUSES] } }, { orderBy: CALENDAR });
}

/**
 * mirroredVisit read as at most two rows: the first open visit, else the last visit. A job's
 * visits read whole (a schedule's 730) cost a visit create or a schedule set time in proportion
 * to them, to hydrate and then to compare at each flush (docs/visits.md, "Jobs' schedule fields").
 */
export async function mirrorOf(ctx: RequestContext, jobUuid: string): Promise<Visit | null> {
  return (await nextOpenVisit(ctx, jobUuid)) ?? ctx.em.findOne(Visit, { job: jobUuid, company: ctx.companyId, deletedAt: null }, { orderBy: CALENDAR_REVERSED });
}

/**
 * Writes the job's scheduled_date, scheduled_time_start/end and assigned_to_user_id from its
 * mirrored visit, in the caller's transaction. An all-day visit has no times; a visit over several
 * days shows its start's date, start time and end time.
 */
export async function syncJobMirror(ctx: RequestContext, job: Job, tz: string): Promise<void> {
  const v = await mirrorOf(ctx, job.uuid);
  const start = v?.startsAt && !v.allDay ? localParts(v.startsAt, tz) : null;
  job.scheduledDate = v?.allDay ? v.visitDate : (start?.date ?? null);
  job.scheduledTimeStart = start?.time ?? null;
  job.scheduledTimeEnd = start && v?.endsAt ? localParts(v.endsAt, tz).time : null;
  const user = v?.assignedUserIds[0] ?? null;
  if ((job.assignedTo?.id ?? null) !== user) job.assignedTo = user ? ctx.em.getReference(User, user) : null;
  await ctx.em.flush();
}

/**
 * A job written with its schedule fields (old clients): creates or moves its next open visit, in
 * the caller's transaction. The job's fields stay as written. A date with a start and a later end
 * is a timed visit; a date alone (or with an incomplete time) is an all-day visit; a user without
 * a date, an unscheduled visit. A changed user replaces the visit's crew with that user.
 */
export async function scheduleFromJob(ctx: RequestContext, job: Job, tz: string, changed: { time: boolean; user: boolean }): Promise<void> {
  if (!changed.time && !changed.user) return;
  let v = await nextOpenVisit(ctx, job.uuid);
  if (!v) {
    if (!job.scheduledDate && !job.assignedTo) return;
    v = Object.assign(new Visit(), { company: ctx.company, job });
    ctx.em.persist(v);
    changed = { time: true, user: true };
  }
  if (changed.time) {
    const { scheduledDate: date, scheduledTimeStart: from, scheduledTimeEnd: to } = job;
    // The job's date is its visit's day: the same calendar bounds as a visit's (docs/visits.md).
    if (date && (date < FIRST_DAY || date > LAST_DAY)) throw AppError.field('scheduledDate', `must be between ${FIRST_DAY} and ${LAST_DAY}`);
    if (date && from && to && to > from) Object.assign(v, { allDay: false, visitDate: date, startsAt: localInstant(date, tz, from), endsAt: localInstant(date, tz, to) });
    else if (date) Object.assign(v, { allDay: true, visitDate: date, ...localDay(date, tz) });
    else Object.assign(v, { allDay: false, visitDate: null, startsAt: null, endsAt: null });
    if (v.status === VisitStatus.SCHEDULED || v.status === VisitStatus.UNSCHEDULED || !v.startsAt) setStatus(v, v.startsAt ? v.status : VisitStatus.UNSCHEDULED);
  }
  if (changed.user) v.assignedUserIds = job.assignedTo ? [job.assignedTo.id] : [];
  await ctx.em.flush();
}

/** A deleted job's visits are deleted with it (their crews no longer hold the time). */
export async function deleteJobVisits(ctx: RequestContext, job: Job, at: Date): Promise<void> {
  await ctx.em.nativeUpdate(Visit, { job: job.uuid, company: ctx.companyId, deletedAt: null }, { deletedAt: at, updatedAt: at });
}
