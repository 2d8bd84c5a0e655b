import { LockMode } from '@mikro-orm/core';
import { inTransaction, RequestContext } from '../../data/context';
import { companyToday } from '../../data/company-time';
import { findActive } from '../../data/crud';
import { fromCents } from '../../domain/money';
import { AppError } from '../../errors/app-error';
import { adjustmentsToCents, Tier } from '../estimate/estimate.pricing';
import { Estimate, EstimateStatus } from '../estimate/estimate.entity';
import { Invoice, InvoiceType } from '../invoice/invoice.entity';
import { InvoiceCreateInput, InvoiceLineItemInput } from '../invoice/invoice.inputs';
import { invoiceService } from '../invoice/invoice.service';
import { Job } from '../job/job.entity';
import { JobCreateInput } from '../job/job.inputs';
import { jobService } from '../job/job.service';
import { ConvertEstimateInput, EstimateConversion, InvoiceJobInput } from './conversion.inputs';
import { estimateInvoiceLines } from './conversion.lines';
import { paidDeposits } from '../online-payment/deposit';

// Estimate → job → invoice (docs/documents.md), each one transaction. Idempotency-Key is honoured
// by the surfaces (the REST route is `creates`, the GraphQL plugin knows these mutations).

const transactionally = <T>(ctx: RequestContext, fn: (tx: RequestContext) => Promise<T>) => inTransaction(ctx, fn);

/** Row lock of the company's estimate, the row alone (no tenant-filter join, see lockInvoice). */
export async function lockEstimate(tx: RequestContext, uuid: string): Promise<Estimate> {
  const e = await tx.em.findOne(Estimate, { uuid, company: tx.companyId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true, filters: false });
  if (!e || e.deletedAt) throw AppError.notFound('Estimate');
  return e;
}

/** YYYY-MM-DD plus whole days. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The fields of `input` that were sent (undefined ones are not). */
const sent = <T extends object>(input: T | null | undefined) => Object.fromEntries(Object.entries(input ?? {}).filter(([, v]) => v !== undefined));

export const conversionService = {
  async convertEstimateToJob(ctx: RequestContext, uuid: string, input: ConvertEstimateInput | null | undefined): Promise<EstimateConversion> {
    const found = await findActive(ctx, Estimate, uuid, 'Estimate');
    return transactionally(ctx, async (tx) => {
      const e = await lockEstimate(tx, found.uuid);
      if (e.job) throw AppError.conflict(`Estimate ${e.estimateNumber} is already linked to a job`);
      const status = e.status;
      if (status === EstimateStatus.DECLINED || status === EstimateStatus.EXPIRED) throw AppError.field('status', `is ${status}: only a Pending or Accepted estimate becomes a job`);
      const jobInput = Object.assign(new JobCreateInput(), {
        customerUuid: e.customer.uuid,
        locationUuid: e.location?.uuid ?? null,
        title: e.templateName,
        estimatedAmount: fromCents(e.totalAmountCents),
        ...sent(input),
      });
      const job = await jobService.create(tx, jobInput);
      e.job = job;
      if (e.storedStatus === EstimateStatus.PENDING) {
        e.storedStatus = EstimateStatus.ACCEPTED;
        e.respondedAt = new Date();
      }
      await tx.em.flush();
      return Object.assign(new EstimateConversion(), { job, estimate: e });
    });
  },

  async invoiceJob(ctx: RequestContext, jobUuid: string, input: InvoiceJobInput | null | undefined): Promise<Invoice> {
    const job = await findActive(ctx, Job, jobUuid, 'Job');
    return transactionally(ctx, async (tx) => {
      const estimate = await acceptedEstimate(tx, job.uuid);
      const type = input?.invoiceType ?? InvoiceType.FULL;
      const create = Object.assign(new InvoiceCreateInput(), {
        jobUuid: job.uuid,
        customerUuid: job.customer.uuid,
        dueDate: input?.dueDate ?? addDays(await companyToday(tx), 30),
        estimateUuid: estimate?.uuid ?? null,
        locationUuid: estimate?.location?.uuid ?? job.location?.uuid ?? null,
        ...sent(input),
      });
      // A progress invoice bills its share of the job amount, as POST /invoices does without lines.
      if (type !== InvoiceType.PROGRESS) Object.assign(create, estimate ? linesOfEstimate(estimate) : { lineItems: [line(job.title, 1, jobAmountCents(job), 0)] });
      // Deposits paid on the estimate (docs/payments.md) are deducted, one line each.
      if (estimate && type !== InvoiceType.PROGRESS) {
        for (const d of await paidDeposits(tx, estimate.uuid)) create.lineItems!.push(line(`Deposit received (${d.invoiceNumber})`, 1, -d.paidAmountCents, 0));
      }
      return invoiceService.create(tx, create);
    });
  },
};

const line = (description: string, quantity: number, unitPriceCents: number, taxRate: number) =>
  Object.assign(new InvoiceLineItemInput(), { description, quantity, unitPrice: fromCents(unitPriceCents), taxRate });

const jobAmountCents = (job: Job) => job.actualAmountCents ?? job.estimatedAmountCents ?? 0;

/** The job's Accepted estimate (the latest answered when several are). */
function acceptedEstimate(tx: RequestContext, jobUuid: string): Promise<Estimate | null> {
  return tx.em.findOne(
    Estimate,
    { job: jobUuid, company: tx.companyId, deletedAt: null, storedStatus: EstimateStatus.ACCEPTED },
    { orderBy: { respondedAt: 'desc nulls last', createdAt: 'desc' } },
  );
}

function linesOfEstimate(e: Estimate): Partial<InvoiceCreateInput> {
  const adj = e.adjustments ? adjustmentsToCents(e.adjustments) : {};
  const r = estimateInvoiceLines({
    templateName: e.templateName,
    snapshot: e.pricingSnapshot,
    selectedTier: e.selectedTier as Tier | null,
    quantity: e.quantity,
    selectedAddons: e.selectedAddons,
    adjustments: typeof adj === 'string' ? {} : adj,
  });
  return {
    lineItems: r.lines.map((l) => line(l.description, l.quantity, l.unitPriceCents, l.taxRate)),
    taxAmount: fromCents(r.taxCents),
    discountAmount: fromCents(r.discountCents),
  };
}
