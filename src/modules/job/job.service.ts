import { inTransaction, RequestContext } from '../../data/context';
import { companyTimezone } from '../../data/company-time';
import { applyInput, containsPattern, findActive, ListInclude, listPage, nextSequence, RefSpec, restoreRecord, softDelete } from '../../data/crud';
import { toCents } from '../../domain/money';
import { dateIn, isDateOnly, parseTimestamp } from '../../domain/values';
import { AppError } from '../../errors/app-error';
import { Customer } from '../customer/customer.entity';
import { Location } from '../location/location.entity';
import { User } from '../user/user.entity';
import { deleteJobVisits, scheduleFromJob } from '../visit/visit.schedule';
import { Job, JobStatus } from './job.entity';
import { JobCreateInput, JobListArgs, JobUpdateInput } from './job.inputs';
import { applyCustomData } from '../custom-field/custom-data';
import { CustomFieldResource } from '../custom-field/custom-field.entity';
import { customFieldList } from '../custom-field/custom-field.list';
import { statusChange } from './job.rules';

const refs: RefSpec[] = [
  { field: 'customerUuid', relation: 'customer', entity: Customer, label: 'customer' },
  { field: 'locationUuid', relation: 'location', entity: Location, label: 'location' },
  { field: 'assignedToUserId', relation: 'assignedTo', entity: User, label: 'user' },
];

// Copied by hand: money arrives in dollars, scheduled_date may be a timestamp.
const SPECIAL = ['estimatedAmount', 'actualAmount', 'scheduledDate', 'status'];

/** Sets a job's status with its side effects (statusChange, src/modules/job/job.rules.ts). */
export function setJobStatus(job: Job, status: JobStatus, now = new Date()): void {
  Object.assign(job, statusChange(job, status, now));
}

/** The schedule fields of a job, which read and write its next open visit (docs/visits.md). */
const scheduleOf = (job: Job) => [job.scheduledDate, job.scheduledTimeStart, job.scheduledTimeEnd].join('|');

async function applyJobInput(ctx: RequestContext, job: Job, input: JobCreateInput | JobUpdateInput): Promise<void> {
  const [time, user] = [scheduleOf(job), job.assignedTo?.id ?? null];
  await applyJobFields(ctx, job, input, false);
  await ctx.em.flush();
  const changed = { time: scheduleOf(job) !== time, user: (job.assignedTo?.id ?? null) !== user };
  if (changed.time || changed.user) await scheduleFromJob(ctx, job, await companyTimezone(ctx), changed);
}

async function applyJobFields(ctx: RequestContext, job: Job, input: JobCreateInput | JobUpdateInput, creating: boolean): Promise<void> {
  await applyInput(ctx, job, input, refs, SPECIAL);
  await applyCustomData(ctx, CustomFieldResource.JOB, job, input, creating);
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
  async list(ctx: RequestContext, args: JobListArgs, include?: ListInclude) {
    // Custom-field filters and sort (docs/custom-fields.md).
    const cf = await customFieldList(ctx, CustomFieldResource.JOB, args);
    return listPage(ctx, Job, args, (w) => {
      cf.where(w);
      // Any of the tags, whatever their case (the GIN index on lower_tags, migration 0033).
      if (args.tags?.length) w.and('lower_tags(e.tags) && array[?]::text[]', [args.tags.map((tag) => tag.toLowerCase())]);
      if (args.status?.length) w.oneOf('status', args.status);
      if (args.priority?.length) w.oneOf('priority', args.priority);
      if (args.locationUuid) w.equals('location', args.locationUuid);
      if (args.customerUuid) w.equals('customer', args.customerUuid);
      if (args.assignedToUserId) w.equals('assignedTo', args.assignedToUserId);
      if (args.search) {
        const p = containsPattern(args.search);
        w.and(`e.title ilike ? or e.description ilike ? or e.job_number ilike ?`, [p, p, p]);
      }
    }, include, cf.sort);
  },

  get(ctx: RequestContext, uuid: string) {
    return findActive(ctx, Job, uuid, 'Job');
  },

  async create(ctx: RequestContext, input: JobCreateInput) {
    return inTransaction(ctx, async (tx, em) => {
      const job = new Job();
      job.company = ctx.company;
      await applyJobFields(tx, job, input, true);
      // Taken inside the transaction: a failed create gives its number back.
      job.jobNumber = String(await nextSequence(tx, 'job_number'));
      em.persist(job);
      await em.flush();
      if (job.scheduledDate || job.assignedTo) await scheduleFromJob(tx, job, await companyTimezone(tx), { time: true, user: true });
      return job;
    });
  },

  async update(ctx: RequestContext, uuid: string, input: JobUpdateInput) {
    return inTransaction(ctx, async (tx, em) => {
      const job = await findActive(tx, Job, uuid, 'Job');
      await applyJobInput(tx, job, input);
      await em.flush();
      return job;
    });
  },

  async remove(ctx: RequestContext, uuid: string) {
    return inTransaction(ctx, async (tx, em) => {
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
