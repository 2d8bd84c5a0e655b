import type { RequestContext } from '../../data/context';
import { companyTimezone } from '../../data/company-time';
import { applyInput, containsPattern, findActive, listPage, nextSequence, RefSpec, restoreRecord, softDelete } from '../../data/crud';
import { toCents } from '../../domain/money';
import { dateIn, isDateOnly, parseTimestamp } from '../../domain/values';
import { AppError } from '../../errors/app-error';
import { Customer } from '../customer/customer.entity';
import { Location } from '../location/location.entity';
import { User } from '../user/user.entity';
import { deleteJobVisits, scheduleFromJob } from '../visit/visit.schedule';
import { Job, JobStatus } from './job.entity';
import { JobCreateInput, JobListArgs, JobUpdateInput } from './job.inputs';

const refs: RefSpec[] = [
  { field: 'customerUuid', relation: 'customer', entity: Customer, label: 'customer' },
  { field: 'locationUuid', relation: 'location', entity: Location, label: 'location' },
  { field: 'assignedToUserId', relation: 'assignedTo', entity: User, label: 'user' },
];

// Copied by hand: money arrives in dollars, scheduled_date may be a timestamp.
const SPECIAL = ['estimatedAmount', 'actualAmount', 'scheduledDate', 'status'];

export type JobStatusFields = Pick<Job, 'status' | 'startedAt' | 'completedAt' | 'invoicedAt'>;

/**
 * A job's status with its side effects (docs/jobs-and-photos.md): 'In Progress' sets started_at,
 * 'Complete' completed_at, 'Invoiced' invoiced_at, each only while still null. Any status may
 * follow any other. Returns the fields as they become, without changing the job.
 */
export function statusChange(job: JobStatusFields, status: JobStatus, now = new Date()): JobStatusFields {
  return {
    status,
    startedAt: status === JobStatus.IN_PROGRESS ? (job.startedAt ?? now) : job.startedAt,
    completedAt: status === JobStatus.COMPLETE ? (job.completedAt ?? now) : job.completedAt,
    invoicedAt: status === JobStatus.INVOICED ? (job.invoicedAt ?? now) : job.invoicedAt,
  };
}

/** Sets a job's status with its side effects (statusChange). Invoices call this too. */
export function setJobStatus(job: Job, status: JobStatus, now = new Date()): void {
  Object.assign(job, statusChange(job, status, now));
}

/** The schedule fields of a job, which read and write its next open visit (docs/visits.md). */
const scheduleOf = (job: Job) => [job.scheduledDate, job.scheduledTimeStart, job.scheduledTimeEnd].join('|');

async function applyJobInput(ctx: RequestContext, job: Job, input: JobCreateInput | JobUpdateInput): Promise<void> {
  const [time, user] = [scheduleOf(job), job.assignedTo?.id ?? null];
  await applyJobFields(ctx, job, input);
  await ctx.em.flush();
  const changed = { time: scheduleOf(job) !== time, user: (job.assignedTo?.id ?? null) !== user };
  if (changed.time || changed.user) await scheduleFromJob(ctx, job, await companyTimezone(ctx), changed);
}

async function applyJobFields(ctx: RequestContext, job: Job, input: JobCreateInput | JobUpdateInput): Promise<void> {
  await applyInput(ctx, job, input, refs, SPECIAL);
  if (input.estimatedAmount !== undefined) job.estimatedAmountCents = input.estimatedAmount === null ? null : toCents(input.estimatedAmount);
  if (input.actualAmount !== undefined) job.actualAmountCents = input.actualAmount === null ? null : toCents(input.actualAmount);
  if (input.scheduledDate !== undefined) job.scheduledDate = await scheduledDateOf(ctx, input.scheduledDate);
  // A timestamp sent in the same request beats the automatic one (applied above, so not null).
  if (input.status !== undefined) setJobStatus(job, input.status);
  // Checked on the merged record, so a PUT of only one end is judged against the stored other.
  if (job.scheduledTimeStart && job.scheduledTimeEnd && job.scheduledTimeEnd < job.scheduledTimeStart) {
    throw AppError.field(input.scheduledTimeEnd !== undefined ? 'scheduledTimeEnd' : 'scheduledTimeStart', 'is out of order: the end time must not be before the start time');
  }
}

async function scheduledDateOf(ctx: RequestContext, value: string | null): Promise<string | null> {
  if (value === null || isDateOnly(value)) return value;
  return dateIn(await companyTimezone(ctx), parseTimestamp(value)!);
}

export const jobService = {
  list(ctx: RequestContext, args: JobListArgs) {
    return listPage(ctx, Job, args, (w) => {
      if (args.status?.length) w.oneOf('status', args.status);
      if (args.priority?.length) w.oneOf('priority', args.priority);
      if (args.locationUuid) w.equals('location', args.locationUuid);
      if (args.customerUuid) w.equals('customer', args.customerUuid);
      if (args.assignedToUserId) w.equals('assignedTo', args.assignedToUserId);
      if (args.search) {
        const p = containsPattern(args.search);
        w.and(`e.title ilike ? or e.description ilike ? or e.job_number ilike ?`, [p, p, p]);
      }
    });
  },

  get(ctx: RequestContext, uuid: string) {
    return findActive(ctx, Job, uuid, 'Job');
  },

  async create(ctx: RequestContext, input: JobCreateInput) {
    return ctx.em.transactional(async (em) => {
      const tx: RequestContext = { ...ctx, em };
      const job = new Job();
      job.company = ctx.company;
      await applyJobFields(tx, job, input);
      // Taken inside the transaction: a failed create gives its number back.
      job.jobNumber = String(await nextSequence(tx, 'job_number'));
      em.persist(job);
      await em.flush();
      if (job.scheduledDate || job.assignedTo) await scheduleFromJob(tx, job, await companyTimezone(tx), { time: true, user: true });
      return job;
    });
  },

  async update(ctx: RequestContext, uuid: string, input: JobUpdateInput) {
    return ctx.em.transactional(async (em) => {
      const tx: RequestContext = { ...ctx, em };
      const job = await findActive(tx, Job, uuid, 'Job');
      await applyJobInput(tx, job, input);
      await em.flush();
      return job;
    });
  },

  async remove(ctx: RequestContext, uuid: string) {
    return ctx.em.transactional(async (em) => {
      const tx: RequestContext = { ...ctx, em };
      const job = await findActive(tx, Job, uuid, 'Job');
      const result = await softDelete(tx, job, 'Job');
      await deleteJobVisits(tx, job, job.deletedAt!);
      return result;
    });
  },

  // Under a live customer only; it keeps its number.
  restore(ctx: RequestContext, uuid: string) {
    return restoreRecord(ctx, Job, uuid, 'Job', { parents: [{ relation: 'customer', field: 'customerUuid', label: 'customer' }] });
  },
};
