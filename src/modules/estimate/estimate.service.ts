import { inTransaction, RequestContext } from '../../data/context';
import { applyInput, containsPattern, findActive, ListInclude, listPage, RefSpec, resolveRef, restoreRecord, softDelete } from '../../data/crud';
import { companyTimezone } from '../../data/company-time';
import { AppError } from '../../errors/app-error';
import { Company } from '../company/company.entity';
import { Customer } from '../customer/customer.entity';
import { Job } from '../job/job.entity';
import { Location } from '../location/location.entity';
import { numberingService } from '../numbering/numbering.service';
import { statusFilterSql } from './estimate.rules';
import { Template } from '../template/template.entity';
import { User } from '../user/user.entity';
import { parseExpiry } from './estimate.dates';
import { Estimate, EstimatePricingType, EstimateStatus } from './estimate.entity';
import { EstimateCreateInput, EstimateListArgs, EstimatePreviewInput, EstimateUpdateInput } from './estimate.inputs';
import { adjustmentsToCents, canonicalAdjustments, priceEstimate, PricingSnapshot, Tier } from './estimate.pricing';
import { applyCustomData } from '../custom-field/custom-data';
import { CustomFieldResource } from '../custom-field/custom-field.entity';
import { customFieldList } from '../custom-field/custom-field.list';
import { previewOf } from './estimate.preview';

const updateRefs: RefSpec[] = [
  { field: 'jobUuid', relation: 'job', entity: Job, label: 'job' },
  { field: 'locationUuid', relation: 'location', entity: Location, label: 'location' },
];
// Copied by hand on update: expires_at may be a date, status has its rules, adjustments get their contract keys.
const UPDATE_SPECIAL = ['expiresAt', 'status', 'adjustments'];

function snapshotOf(t: Template): PricingSnapshot {
  return {
    pricing_type: t.pricingType,
    base_price_cents: t.basePriceCents,
    tiers: { good: t.tierGoodCents, better: t.tierBetterCents, best: t.tierBestCents },
    addons: t.addonsStored.map((a) => ({ ...a })),
    tax_rate: t.taxRateValue,
  };
}

/** Prices an estimate from its snapshot and its own pricing inputs, and stores the amounts. */
export function reprice(e: Estimate): void {
  const adj = e.adjustments ? adjustmentsToCents(e.adjustments) : {};
  const r = priceEstimate(e.pricingSnapshot, {
    selectedTier: e.selectedTier as Tier | null,
    quantity: e.quantity,
    selectedAddons: e.selectedAddons,
    adjustments: typeof adj === 'string' ? {} : adj,
  });
  e.baseAmountCents = r.baseCents;
  e.addonsAmountCents = r.addonsCents;
  e.taxAmountCents = r.taxCents;
  e.totalAmountCents = r.totalCents;
}

/** An estimate for a job is for that job's customer. */
function checkJobCustomer(job: Job, customerUuid: string): void {
  if (job.customer.uuid !== customerUuid) throw AppError.field('jobUuid', 'belongs to another customer than the estimate');
}

async function jobRef(ctx: RequestContext, uuid: string, customerUuid: string): Promise<Job> {
  const job = await resolveRef(ctx, Job, uuid, 'jobUuid', 'job');
  checkJobCustomer(job, customerUuid);
  return job;
}

const transactionally = <T>(ctx: RequestContext, fn: (tx: RequestContext) => Promise<T>) =>
  inTransaction(ctx, fn);

export const estimateService = {
  async list(ctx: RequestContext, args: EstimateListArgs, include?: ListInclude) {
    // Custom-field filters and sort (docs/custom-fields.md).
    const cf = await customFieldList(ctx, CustomFieldResource.ESTIMATE, args);
    const now = new Date();
    return listPage(ctx, Estimate, args, (w) => {
      cf.where(w);
      if (args.status?.length) {
        // The same rule as Estimate.status, in its SQL form (estimate.rules.ts); each `?` is now.
        const wanted = [...new Set(args.status)];
        const sql = wanted.map((s) => statusFilterSql(s, 'e', '?'));
        w.and(sql.join(' or '), sql.flatMap((part) => part.split('?').slice(1).map(() => now)));
      }
      if (args.customerUuid) w.equals('customer', args.customerUuid);
      if (args.jobUuid) w.equals('job', args.jobUuid);
      if (args.search) {
        const p = containsPattern(args.search);
        w.and(`e.estimate_number ilike ? or e.template_name ilike ? or e.service_description ilike ?`, [p, p, p]);
      }
    }, include, cf.sort);
  },

  get(ctx: RequestContext, uuid: string) {
    return findActive(ctx, Estimate, uuid, 'Estimate');
  },

  /** Totals without creating: the same pricing function as create, on the template as it is now. */
  async preview(ctx: RequestContext, input: EstimatePreviewInput) {
    const template = await resolveRef(ctx, Template, input.templateUuid, 'templateUuid', 'template');
    // References sent with a preview must be the company's, as on create.
    const customer = input.customerUuid ? await resolveRef(ctx, Customer, input.customerUuid, 'customerUuid', 'customer') : null;
    if (input.jobUuid) await (customer ? jobRef(ctx, input.jobUuid, customer.uuid) : resolveRef(ctx, Job, input.jobUuid, 'jobUuid', 'job'));
    if (input.locationUuid) await resolveRef(ctx, Location, input.locationUuid, 'locationUuid', 'location');
    const adj = input.adjustments ? adjustmentsToCents(input.adjustments) : {};
    return previewOf(
      priceEstimate(snapshotOf(template), {
        selectedTier: input.selectedTier as Tier | null | undefined,
        quantity: input.quantity ?? 1,
        selectedAddons: input.selectedAddons,
        adjustments: typeof adj === 'string' ? {} : adj,
      }),
    );
  },

  async create(ctx: RequestContext, input: EstimateCreateInput) {
    return transactionally(ctx, async (tx) => {
      const customer = await resolveRef(tx, Customer, input.customerUuid, 'customerUuid', 'customer');
      const template = await resolveRef(tx, Template, input.templateUuid, 'templateUuid', 'template');
      const e = new Estimate();
      e.company = tx.em.getReference(Company, ctx.companyId);
      e.customer = customer;
      e.template = template;
      e.job = input.jobUuid ? await jobRef(tx, input.jobUuid, customer.uuid) : null;
      e.location = input.locationUuid ? await resolveRef(tx, Location, input.locationUuid, 'locationUuid', 'location') : null;
      e.createdBy = tx.em.getReference(User, ctx.user.id);
      e.templateName = template.name;
      e.pricingType = template.pricingType as unknown as EstimatePricingType;
      e.pricingSnapshot = snapshotOf(template);
      e.selectedTier = input.selectedTier ?? null;
      e.quantity = input.quantity ?? 1;
      e.selectedAddons = input.selectedAddons ?? null;
      e.adjustments = canonicalAdjustments(input.adjustments) ?? null;
      e.serviceDescription = input.serviceDescription ?? null;
      e.internalNotes = input.internalNotes ?? null;
      e.customerNotes = input.customerNotes ?? null;
      e.expiresAt = input.expiresAt ? parseExpiry(input.expiresAt, await companyTimezone(tx)) : null;
      await applyCustomData(tx, CustomFieldResource.ESTIMATE, e, input, true);
      reprice(e);
      // Last, inside the transaction: a create that fails uses up no number.
      e.estimateNumber = await numberingService.assign(tx, 'estimate');
      tx.em.persist(e);
      await tx.em.flush();
      return e;
    });
  },

  async update(ctx: RequestContext, uuid: string, input: EstimateUpdateInput) {
    return transactionally(ctx, async (tx) => {
      const e = await findActive(tx, Estimate, uuid, 'Estimate');
      const now = new Date();
      const wasExpired = e.isExpired(now);
      if (input.expiresAt !== undefined) e.expiresAt = input.expiresAt === null ? null : parseExpiry(input.expiresAt, await companyTimezone(tx));
      const changed = await applyInput(tx, e, input, updateRefs, UPDATE_SPECIAL);
      await applyCustomData(tx, CustomFieldResource.ESTIMATE, e, input, false);
      if (changed.includes('jobUuid') && e.job) checkJobCustomer(e.job, e.customer.uuid);
      if (input.status !== undefined) setStatus(e, input.status, wasExpired, now);
      const pricing = [input.selectedTier, input.quantity, input.selectedAddons, input.adjustments].some((v) => v !== undefined);
      if (input.adjustments !== undefined) e.adjustments = canonicalAdjustments(input.adjustments);
      // Recomputed from the estimate's own snapshot, never from the template as it is now.
      if (pricing) reprice(e);
      await tx.em.flush();
      return e;
    });
  },

  async remove(ctx: RequestContext, uuid: string) {
    return softDelete(ctx, await this.get(ctx, uuid), 'Estimate');
  },

  // Under a live customer only; it keeps its number and status.
  restore(ctx: RequestContext, uuid: string) {
    return restoreRecord(ctx, Estimate, uuid, 'Estimate', { parents: [{ relation: 'customer', field: 'customerUuid', label: 'customer' }] });
  },
};

function setStatus(e: Estimate, status: EstimateStatus, wasExpired: boolean, now: Date): void {
  if (status === EstimateStatus.EXPIRED) {
    // 'Expired' follows from expires_at: accepted only as the value the estimate already reads.
    if (!e.isExpired(now)) throw AppError.field('status', 'cannot be set to Expired: set expires_at instead');
    return;
  }
  if (status === EstimateStatus.PENDING) {
    e.storedStatus = status;
    e.respondedAt = null;
    return;
  }
  if (e.storedStatus === status) return;
  // An expired estimate is answered only when the same request moves expires_at into the future.
  if (wasExpired && e.isExpired(now)) throw AppError.field('status', `cannot be ${status}: the estimate has expired (move expires_at into the future)`);
  e.storedStatus = status;
  e.respondedAt = now;
}
