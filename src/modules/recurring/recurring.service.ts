import { LockMode } from '@mikro-orm/core';
import { inTransaction, RequestContext } from '../../data/context';
import { companyTimezone } from '../../data/company-time';
import { applyInput, findActive, ListInclude, listPage, RefSpec, restoreRecord, softDelete } from '../../data/crud';
import { fromCents, toCents } from '../../domain/money';
import { AppError } from '../../errors/app-error';
import { ListArgs, Page } from '../../schema/pagination';
import { companyTodayIn } from '../company/company.rules';
import { Customer } from '../customer/customer.entity';
import { InvoiceLineItemInput, InvoicePreviewInput } from '../invoice/invoice.inputs';
import { invoiceService } from '../invoice/invoice.service';
import { Job } from '../job/job.entity';
import { Location } from '../location/location.entity';
import { addDays, nextOccurrence, occurrenceDates, parseRule } from '../schedule/schedule.rrule';
import { RecurringInvoice, RecurringInvoiceLine, RecurringStatus } from './recurring.entity';
import { RecurringInvoiceCreateInput, RecurringInvoiceOccurrence, RecurringInvoicePreview, RecurringInvoicePreviewInput, RecurringInvoiceUpdateInput } from './recurring.inputs';

// Service agreements (docs/recurring-work.md): the agreement's own rules. The invoices it creates
// go through the invoice create (every rule of POST /invoices, numbering included): see
// recurring.generate.ts. Its amounts are checked by the invoice preview, so an agreement that
// saves is one whose invoices can be created.

const refs: RefSpec[] = [
  { field: 'customerUuid', relation: 'customer', entity: Customer, label: 'customer' },
  { field: 'jobUuid', relation: 'job', entity: Job, label: 'job' },
  { field: 'locationUuid', relation: 'location', entity: Location, label: 'location' },
];
const SPECIAL = ['lineItems', 'discountAmount', 'rrule'];

const linesOf = (items: InvoiceLineItemInput[] | null | undefined): RecurringInvoiceLine[] | null =>
  items?.length ? items.map((l) => Object.assign(new RecurringInvoiceLine(), { description: l.description ?? null, quantity: l.quantity ?? 1, unitPrice: l.unitPrice, taxRate: l.taxRate ?? 0 })) : null;

/** The invoice preview's body of an agreement: the amounts and parties each of its invoices has. */
export function invoiceBody(r: RecurringInvoice): InvoicePreviewInput {
  return Object.assign(new InvoicePreviewInput(), {
    jobUuid: r.jobUuid,
    customerUuid: r.customerUuid,
    locationUuid: r.locationUuid,
    lineItems: r.lineItems?.map((l) => Object.assign(new InvoiceLineItemInput(), l)) ?? null,
    discountAmount: fromCents(r.discountAmountCents),
  });
}

/** The first occurrence on or after `from` (never before starts_on); null: the rule has ended. */
const nextFrom = (r: RecurringInvoice, from: string) => nextOccurrence(parseRule(r.rrule, r.startsOn), from < r.startsOn ? r.startsOn : from);

/**
 * The next issue date when an agreement starts again (a changed rule, a resume, a restore): from
 * today, after the last date it invoiced (deleted invoices included: their dates stay taken), and
 * with `keepNext` never before the date it was due next. Dates in between are not caught up.
 */
async function restartFrom(ctx: RequestContext, r: RecurringInvoice, keepNext: boolean): Promise<void> {
  const [{ last }] = await ctx.em.getConnection().execute<Array<{ last: string | null }>>(
    `select max(issue_date)::text as last from invoices where company_uuid = ? and recurring_invoice_uuid = ?`,
    [ctx.companyId, r.uuid],
    'all',
    ctx.em.getTransactionContext(),
  );
  let from = companyTodayIn(r.timezone);
  if (last && addDays(last, 1) > from) from = addDays(last, 1);
  if (keepNext && r.nextIssueDate && r.nextIssueDate > from) from = r.nextIssueDate;
  r.nextIssueDate = nextFrom(r, from);
  r.status = r.nextIssueDate ? RecurringStatus.ACTIVE : RecurringStatus.ENDED;
}

async function write(ctx: RequestContext, r: RecurringInvoice, input: RecurringInvoiceCreateInput | RecurringInvoiceUpdateInput): Promise<void> {
  await applyInput(ctx, r, input, refs, SPECIAL);
  if (input.rrule !== undefined) r.rrule = input.rrule.trim();
  if (input.lineItems !== undefined) r.lineItems = linesOf(input.lineItems);
  if (input.discountAmount !== undefined) r.discountAmountCents = toCents(input.discountAmount) ?? 0;
  r.timezone ??= await companyTimezone(ctx);
  parseRule(r.rrule, r.startsOn);
  // Every rule of an invoice create that does not depend on the day: parties, agreement, amounts.
  await invoiceService.preview(ctx, invoiceBody(r));
}

async function locked(ctx: RequestContext, uuid: string): Promise<RecurringInvoice> {
  const current = await findActive(ctx, RecurringInvoice, uuid, 'Recurring invoice');
  return ctx.em.findOneOrFail(RecurringInvoice, { uuid: current.uuid, company: ctx.companyId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
}

export const recurringInvoiceService = {
  list(ctx: RequestContext, args: ListArgs, include?: ListInclude): Promise<Page<RecurringInvoice>> {
    return listPage(ctx, RecurringInvoice, args, () => undefined, include);
  },

  get(ctx: RequestContext, uuid: string): Promise<RecurringInvoice> {
    return findActive(ctx, RecurringInvoice, uuid, 'Recurring invoice');
  },

  /** A new agreement: its first invoice is due on the first occurrence from starts_on (past ones are caught up, at most 12). */
  create(ctx: RequestContext, input: RecurringInvoiceCreateInput): Promise<RecurringInvoice> {
    return inTransaction(ctx, async (tx, em) => {
      const r = Object.assign(new RecurringInvoice(), { company: ctx.company });
      await write(tx, r, input);
      r.nextIssueDate = nextFrom(r, r.startsOn);
      if (!r.nextIssueDate) r.status = RecurringStatus.ENDED;
      em.persist(r);
      await em.flush();
      return r;
    });
  },

  /** A changed rule or start takes effect from today: no catch-up of dates it adds in the past. */
  update(ctx: RequestContext, uuid: string, input: RecurringInvoiceUpdateInput): Promise<RecurringInvoice> {
    return inTransaction(ctx, async (tx, em) => {
      const r = await locked(tx, uuid);
      await write(tx, r, input);
      if ((input.rrule !== undefined || input.startsOn !== undefined) && r.status !== RecurringStatus.PAUSED) await restartFrom(tx, r, false);
      await em.flush();
      return r;
    });
  },

  remove(ctx: RequestContext, uuid: string): Promise<{ message: string }> {
    return inTransaction(ctx, async (tx) => softDelete(tx, await locked(tx, uuid), 'Recurring invoice'));
  },

  restore(ctx: RequestContext, uuid: string): Promise<RecurringInvoice> {
    // The dates that passed while it was deleted are not caught up.
    return restoreRecord(ctx, RecurringInvoice, uuid, 'Recurring invoice', { apply: (tx, r) => (r.status === RecurringStatus.ACTIVE ? restartFrom(tx, r, true) : undefined) });
  },

  pause(ctx: RequestContext, uuid: string): Promise<RecurringInvoice> {
    return inTransaction(ctx, async (tx, em) => {
      const r = await locked(tx, uuid);
      if (r.status === RecurringStatus.ENDED) throw AppError.field('status', 'is ended: an ended agreement cannot be paused');
      r.status = RecurringStatus.PAUSED;
      await em.flush();
      return r;
    });
  },

  /** Active again from today: the dates that passed while it was paused are not invoiced. */
  resume(ctx: RequestContext, uuid: string): Promise<RecurringInvoice> {
    return inTransaction(ctx, async (tx, em) => {
      const r = await locked(tx, uuid);
      if (r.status === RecurringStatus.ENDED) throw AppError.field('status', 'is ended: an ended agreement cannot be resumed');
      if (r.status === RecurringStatus.PAUSED) await restartFrom(tx, r, true);
      await em.flush();
      return r;
    });
  },

  /** The next invoices of an agreement body (from starts_on or today, whichever is later), without writing. */
  async preview(ctx: RequestContext, input: RecurringInvoicePreviewInput): Promise<RecurringInvoicePreview> {
    const r = Object.assign(new RecurringInvoice(), { company: ctx.company });
    await write(ctx, r, input);
    const totals = await invoiceService.preview(ctx, invoiceBody(r));
    const today = companyTodayIn(r.timezone);
    const from = today < r.startsOn ? r.startsOn : today;
    const dates = occurrenceDates(parseRule(r.rrule, r.startsOn), from, addDays(from, 366 * 500), input.limit ?? 12);
    const invoices = dates.map((d) => Object.assign(new RecurringInvoiceOccurrence(), { issueDate: d, dueDate: addDays(d, r.dueDays), totalAmount: totals.preview.totalAmount }));
    return Object.assign(new RecurringInvoicePreview(), { invoices });
  },
};
