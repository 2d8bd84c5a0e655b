import { LockMode, QueryOrder } from '@mikro-orm/core';
import { companyIs } from '../../data/tenant';
import { inReach } from '../../data/reach';
import { inTransaction, RequestContext } from '../../data/context';
import { companyTimezone } from '../../data/company-time';
import { findActive, ListInclude, listPage } from '../../data/crud';
import { calendarWhere, RANGE } from './visit.calendar';
import { Page } from '../../schema/pagination';
import { isUuid } from '../../domain/values';
import { AppError } from '../../errors/app-error';
import { Job } from '../job/job.entity';
import { Visit, VisitStatus } from './visit.entity';
import { AssignMode, VisitAssignInput, VisitCompleteInput, VisitCreateInput, VisitListArgs, VisitUpdateInput } from './visit.inputs';
import { applyCustomData } from '../custom-field/custom-data';
import { CustomFieldResource } from '../custom-field/custom-field.entity';
import { customFieldList } from '../custom-field/custom-field.list';
import { applyVisitInput, companyUsers, setStatus, syncJobMirror } from './visit.schedule';

// Visits of jobs (docs/visits.md). Every write runs in one transaction with the job's mirror of
// its next open visit; the database refuses double booking (409 SCHEDULE_CONFLICT).

type Tx = RequestContext;

/** A generated visit changed by hand is an exception: later schedule changes leave it as it is. */
function markException(v: Visit): void {
  if (v.scheduleUuid) v.scheduleException = true;
}

/** Runs `fn` in a transaction on the visit, locked against concurrent changes, then refreshes its job's mirror. */
async function changeVisit(ctx: RequestContext, uuid: string, fn: (tx: Tx, v: Visit, tz: string) => Promise<void>, o: { deleted?: boolean } = {}): Promise<Visit> {
  if (!isUuid(uuid)) throw AppError.notFound('Visit');
  return inTransaction(ctx, async (tx, em) => {
    // A restore finds a deleted visit too (the row only: no filter joins, which would lock more).
    const where = o.deleted ? { uuid: uuid.toLowerCase(), company: ctx.companyId, ...inReach(ctx, 'visits') } : { uuid: uuid.toLowerCase(), company: ctx.companyId, deletedAt: null };
    const v = await em.findOne(Visit, where, { lockMode: LockMode.PESSIMISTIC_WRITE, ...(o.deleted ? { filters: false, refresh: true } : {}) });
    if (!v) throw AppError.notFound('Visit');
    const tz = await companyTimezone(tx);
    await fn(tx, v, tz);
    await em.flush();
    await syncJobMirror(tx, await em.findOneOrFail(Job, { uuid: v.job.uuid, company: ctx.companyId }), tz);
    return v;
  });
}

export const visitService = {
  /**
   * The calendar: visits overlapping [from, to) (either end optional), by user, status and job;
   * ordered by start, unscheduled last, then created_at and uuid (the entity's DefaultOrder), or
   * by `sort`; paginated like every list, through the shared list (listPage, one statement).
   */
  async list(ctx: RequestContext, args: VisitListArgs, include?: ListInclude): Promise<Page<Visit>> {
    if (args.from && args.to && args.to.getTime() <= args.from.getTime()) throw AppError.field('to', 'must be after from');
    const cf = await customFieldList(ctx, CustomFieldResource.VISIT, args);
    const calendar = calendarWhere(ctx, args);
    return listPage(ctx, Visit, args, (w) => (calendar(w), cf.where(w)), include, cf.sort);
  },

  /** GraphQL User.visits(from, to) of several users in one statement: each user's first 100 by start. */
  async forUsers(ctx: RequestContext, userIds: readonly string[], args: { from?: Date; to?: Date }): Promise<Visit[][]> {
    if (args.from && args.to && args.to.getTime() <= args.from.getTime()) throw AppError.field('to', 'must be after from');
    const ranged = !!(args.from || args.to);
    const range = [args.from ?? null, args.to ?? null];
    const inRange = ranged ? ` and a.period && ${RANGE}` : '';
    const rows = await ctx.em
      .createQueryBuilder(Visit, 'e')
      .where({ company: ctx.companyId, deletedAt: null, ...inReach(ctx, 'visits') })
      .andWhere(`e.uuid in (select a.visit_uuid from visit_assignments a where ${companyIs(ctx, 'a').sql} and a.user_id in (?)${inRange})`, [...companyIs(ctx, 'a').params, [...userIds], ...(ranged ? range : [])])
      .orderBy({ startsAt: QueryOrder.ASC_NULLS_LAST, createdAt: QueryOrder.ASC, uuid: QueryOrder.ASC })
      .getResultList();
    return userIds.map((id) => rows.filter((v) => v.assignedUserIds.includes(id)).slice(0, 100));
  },

  async listForJob(ctx: RequestContext, jobUuid: string, args: VisitListArgs, include?: ListInclude): Promise<Page<Visit>> {
    const job = await findActive(ctx, Job, jobUuid, 'Job');
    return this.list(ctx, { ...args, jobUuid: job.uuid }, include);
  },

  get(ctx: RequestContext, uuid: string): Promise<Visit> {
    return findActive(ctx, Visit, uuid, 'Visit');
  },

  async create(ctx: RequestContext, jobUuid: string, input: VisitCreateInput): Promise<Visit> {
    return inTransaction(ctx, async (tx, em) => {
      const job = await findActive(tx, Job, jobUuid, 'Job');
      const tz = await companyTimezone(tx);
      const v = Object.assign(new Visit(), { company: ctx.company, job });
      await applyVisitInput(tx, v, input, tz);
      await applyCustomData(tx, CustomFieldResource.VISIT, v, input, true);
      em.persist(v);
      await em.flush();
      await syncJobMirror(tx, job, tz);
      return v;
    });
  },

  update(ctx: RequestContext, uuid: string, input: VisitUpdateInput): Promise<Visit> {
    return changeVisit(ctx, uuid, async (tx, v, tz) => {
      markException(v);
      await applyVisitInput(tx, v, input, tz);
      await applyCustomData(tx, CustomFieldResource.VISIT, v, input, false);
    });
  },

  /** replace (default), add or remove users; the users must be the company's. */
  assign(ctx: RequestContext, uuid: string, input: VisitAssignInput): Promise<Visit> {
    return changeVisit(ctx, uuid, async (tx, v) => {
      const ids = await companyUsers(tx, input.userIds, 'userIds');
      markException(v);
      const mode = input.mode ?? AssignMode.REPLACE;
      if (mode === AssignMode.REPLACE) v.assignedUserIds = ids;
      else if (mode === AssignMode.ADD) v.assignedUserIds = [...new Set([...v.assignedUserIds, ...ids])];
      else v.assignedUserIds = v.assignedUserIds.filter((id) => !ids.includes(id));
    });
  },

  /** Completed with completed_at (default now); a Cancelled visit cannot be completed. */
  complete(ctx: RequestContext, uuid: string, input: VisitCompleteInput = {}): Promise<Visit> {
    return changeVisit(ctx, uuid, async (_tx, v) => {
      if (v.status === VisitStatus.CANCELLED) throw AppError.field('status', 'is Cancelled: a cancelled visit cannot be completed');
      v.completedAt = input.completedAt ?? v.completedAt ?? new Date();
      setStatus(v, VisitStatus.COMPLETED);
    });
  },

  /**
   * Clears deleted_at (docs/visits.md): not deleted, 400; its job must be live; its crew is booked
   * again, so an overlap since the delete is a 409 SCHEDULE_CONFLICT.
   */
  restore(ctx: RequestContext, uuid: string): Promise<Visit> {
    return changeVisit(
      ctx,
      uuid,
      async (tx, v) => {
        if (!v.deletedAt) throw AppError.field('uuid', 'is not deleted');
        const job = await tx.em.findOne(Job, { uuid: v.job.uuid, company: ctx.companyId, ...inReach(ctx, 'jobs') }, { filters: false });
        if (!job || job.deletedAt) throw AppError.field('jobUuid', 'refers to a deleted job: restore the job first');
        v.deletedAt = null;
      },
      { deleted: true },
    );
  },

  async remove(ctx: RequestContext, uuid: string): Promise<{ message: string }> {
    await changeVisit(ctx, uuid, async (_tx, v) => {
      v.deletedAt = new Date();
    });
    return { message: 'Visit deleted' };
  },
};
