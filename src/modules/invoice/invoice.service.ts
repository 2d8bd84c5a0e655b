import { ofCompany } from '../../data/tenant';
import { inTransaction, RequestContext } from '../../data/context';
import { companyToday } from '../../data/company-time';
import { applyInput, containsPattern, findActive, ListInclude, listPage, RefSpec, resolveRef } from '../../data/crud';
import { centsToDecimal, fromCents } from '../../domain/money';
import { AppError } from '../../errors/app-error';
import { Customer } from '../customer/customer.entity';
import { Estimate } from '../estimate/estimate.entity';
import { Job } from '../job/job.entity';
import { Location } from '../location/location.entity';
import { completedSum, lockInvoice, restoreInvoice, settle, syncInvoice, syncJobPaidAt } from './invoice.balance';
import { Invoice, InvoiceStatus, InvoiceType } from './invoice.entity';
import { billedJobChange, Billing, billsJob, overdueSql } from './invoice.rules';
import { InvoiceCreateInput, InvoiceListArgs, InvoicePreview, InvoicePreviewInput, InvoiceStatusFilter, InvoiceUpdateInput } from './invoice.inputs';
import { computeTotals } from './invoice-totals';
import { applyTotals, cents, checkSentLines, jobAmount, linesIn, linesOut, progressOf, storedLinesIn } from './invoice.amounts';
import { applyStatus } from './marked-paid';
import { loadParties, writeNew } from './invoice.write';
import { applyCustomData } from '../custom-field/custom-data';
import { CustomFieldResource } from '../custom-field/custom-field.entity';
import { customFieldList } from '../custom-field/custom-field.list';
import { PAYMENTS_FOLLOW_INVOICE_CUSTOMER_SQL } from '../payment/payment.rules';

const refs: RefSpec[] = [
  { field: 'customerUuid', relation: 'customer', entity: Customer, label: 'customer' },
  { field: 'jobUuid', relation: 'job', entity: Job, label: 'job' },
  { field: 'estimateUuid', relation: 'estimate', entity: Estimate, label: 'estimate' },
  { field: 'locationUuid', relation: 'location', entity: Location, label: 'location' },
];
// Copied by hand: amounts go through the totals function, status through its rules.
const SPECIAL = ['lineItems', 'subtotal', 'taxAmount', 'discountAmount', 'status', 'progressPercentage'];
// On create, the job and customer come from loadParties.
const OTHER_REFS = refs.filter((r) => r.field !== 'jobUuid' && r.field !== 'customerUuid');
const SPECIAL_AND_PARTIES = [...SPECIAL, 'jobUuid', 'customerUuid'];
const AMOUNT_FIELDS = ['lineItems', 'subtotal', 'taxAmount', 'discountAmount'] as const;

const loadJob = (tx: RequestContext, invoice: Invoice) => (invoice.job ? tx.em.findOneOrFail(Job, ofCompany(tx, { uuid: invoice.job.uuid }), { filters: false }) : Promise.resolve(null));

/** The job, customer and estimate of an invoice must agree (docs/invoices-and-payments.md); preview checks what it is sent. */
function checkAgreement(job: Job | null, customerUuid: string | undefined, estimate: Estimate | null): void {
  if (job && customerUuid && job.customer.uuid !== customerUuid) throw AppError.field('customerUuid', "must be the job's customer");
  const billed = customerUuid ?? job?.customer.uuid;
  if (estimate && billed && estimate.customer.uuid !== billed) throw AppError.field('estimateUuid', "must be an estimate of the invoice's customer");
}

function checkDates(issueDate: string | undefined, dueDate: string | undefined): void {
  if (dueDate && issueDate && dueDate < issueDate) throw AppError.field('dueDate', 'must not be before issue_date');
}

/** `loaded`: the invoice's job as this request already read it, the company's (loadParties); else it is read. */
async function checkParties(tx: RequestContext, invoice: Invoice, loaded?: Job): Promise<void> {
  const estimate = invoice.estimate ? await tx.em.findOneOrFail(Estimate, ofCompany(tx, { uuid: invoice.estimate.uuid }), { filters: false }) : null;
  const job = loaded && invoice.job?.uuid === loaded.uuid ? loaded : await loadJob(tx, invoice);
  checkAgreement(job, invoice.customer.uuid, estimate);
  checkDates(invoice.issueDate, invoice.dueDate);
}

/** Only 'Pending' (the default) or 'Draft' on create; preview checks the create body alike. */
function createStatus(status: InvoiceStatus | undefined): InvoiceStatus {
  if (status !== undefined && status !== InvoiceStatus.PENDING && status !== InvoiceStatus.DRAFT) throw AppError.field('status', "must be 'Pending' or 'Draft' on create");
  return status ?? InvoiceStatus.PENDING;
}

/** A new invoice, read and checked, not yet written: its references, dates, amounts and status; and its job as read. */
async function buildNew(ctx: RequestContext, input: InvoiceCreateInput, status: InvoiceStatus): Promise<{ invoice: Invoice; job: Job | null }> {
  const invoice = new Invoice();
  invoice.company = ctx.company;
  const parties = await loadParties(ctx, input.jobUuid, input.customerUuid);
  if (parties) {
    // The records as read, lean (src/modules/invoice/invoice.write.ts): the new invoice is not a
    // managed entity, and reads only their keys; the answer's summaries and GraphQL fields find them
    // through the loaders (the job as written, writeNew).
    invoice.job = parties.job;
    invoice.customer = parties.customer;
    invoice.companyToday = parties.today;
    ctx.loaders.written(Job, parties.job);
    ctx.loaders.written(Customer, parties.customer);
  }
  // Without them (a job or customer not the company's), the references are resolved one by one,
  // which names the field at fault.
  await applyInput(ctx, invoice, input, parties ? OTHER_REFS : refs, parties ? SPECIAL_AND_PARTIES : SPECIAL);
  await applyCustomData(ctx, CustomFieldResource.INVOICE, invoice, input, true);
  invoice.companyToday ??= await companyToday(ctx);
  invoice.issueDate ??= invoice.companyToday;
  // The job loadParties read is the one checked and priced: no second read of it (writeNew writes
  // only if it is unchanged); else the managed job applyInput resolved.
  const job = parties?.job ?? invoice.job;
  await checkParties(ctx, invoice, parties?.job);
  invoice.progressPercentage = progressOf(invoice.invoiceType, input.progressPercentage, null);
  const lines = linesIn(input.lineItems);
  const t = computeTotals({
    lineItems: lines,
    subtotalCents: cents(input.subtotal),
    taxCents: cents(input.taxAmount),
    discountCents: cents(input.discountAmount),
    jobAmountCents: jobAmount(job),
    progressPercentage: invoice.progressPercentage,
  });
  checkSentLines(input.lineItems, t);
  applyTotals(invoice, t, !!lines?.length);
  invoice.storedStatus = status;
  settle(invoice, 0);
  // No job only for a deposit invoice (docs/payments.md): the API requires job_uuid.
  return { invoice, job: job ?? null };
}

const billingOf = (invoice: Invoice): Billing => ({ jobUuid: invoice.jobUuid, draft: invoice.storedStatus === InvoiceStatus.DRAFT });

/** The job an invoice bills changes as create changes it (billedJobChange, invoice.rules.ts). */
async function markJobInvoiced(tx: RequestContext, invoice: Invoice): Promise<void> {
  const job = await loadJob(tx, invoice);
  if (job) Object.assign(job, billedJobChange(job));
}

/** An invoice built by invoiceService.build, for invoiceService.write. */
export interface BuiltInvoice {
  input: InvoiceCreateInput;
  status: InvoiceStatus;
  from: { recurringInvoiceUuid: string } | undefined;
  /** The invoice as built, not written: no number. */
  invoice: Invoice;
  /** Its job as read (lean), or null for none. */
  job: Job | null;
}

export const invoiceService = {
  async list(ctx: RequestContext, args: InvoiceListArgs, include?: ListInclude) {
    // Custom-field filters and sort (docs/custom-fields.md).
    const cf = await customFieldList(ctx, CustomFieldResource.INVOICE, args);
    return listPage(ctx, Invoice, args, (w) => {
      cf.where(w);
      const statuses = args.status ?? [];
      if (statuses.length && !statuses.includes(InvoiceStatusFilter.ALL)) {
        // The same overdue rule as reads (invoice.rules.ts), in its SQL form.
        const overdue = overdueSql('e');
        const parts = statuses.map((s) =>
          s === InvoiceStatusFilter.OVERDUE ? overdue : s === InvoiceStatusFilter.PENDING ? `(e.status = 'Pending' and not ${overdue})` : `e.status = '${s}'`,
        );
        w.and(parts.join(' or '));
      }
      if (args.customerUuid) w.equals('customer', args.customerUuid);
      if (args.jobUuid) w.equals('job', args.jobUuid);
      if (args.search) w.and(`e.invoice_number ilike ?`, [containsPattern(args.search)]);
    }, include, cf.sort);
  },

  get(ctx: RequestContext, uuid: string) {
    return findActive(ctx, Invoice, uuid, 'Invoice');
  },

  async preview(ctx: RequestContext, input: InvoicePreviewInput): Promise<InvoicePreview> {
    const job = input.jobUuid ? await resolveRef(ctx, Job, input.jobUuid, 'jobUuid', 'job') : null;
    // The create body is accepted too: its references are checked as create checks them.
    const customer = input.customerUuid ? await resolveRef(ctx, Customer, input.customerUuid, 'customerUuid', 'customer') : null;
    const estimate = input.estimateUuid ? await resolveRef(ctx, Estimate, input.estimateUuid, 'estimateUuid', 'estimate') : null;
    if (input.locationUuid) await resolveRef(ctx, Location, input.locationUuid, 'locationUuid', 'location');
    checkAgreement(job, customer?.uuid, estimate);
    createStatus(input.status);
    checkDates(input.issueDate, input.dueDate);
    const progress = progressOf(input.invoiceType ?? InvoiceType.FULL, input.progressPercentage, null);
    const t = computeTotals({
      lineItems: linesIn(input.lineItems),
      subtotalCents: cents(input.subtotal),
      taxCents: cents(input.taxAmount),
      discountCents: cents(input.discountAmount),
      jobAmountCents: jobAmount(job),
      progressPercentage: progress,
    });
    checkSentLines(input.lineItems, t);
    return {
      preview: {
        subtotal: fromCents(t.subtotalCents),
        taxAmount: fromCents(t.taxCents),
        discountAmount: fromCents(t.discountCents),
        totalAmount: fromCents(t.totalCents),
        balanceAmount: fromCents(t.totalCents),
      },
      breakdown: { lineItems: linesOut(t) },
    };
  },

  /** `from`: the service agreement creating it (docs/recurring-work.md): one invoice per agreement and issue date. */
  async create(ctx: RequestContext, input: InvoiceCreateInput, from?: { recurringInvoiceUuid: string }) {
    return invoiceService.write(ctx, await invoiceService.build(ctx, input, from));
  },

  /**
   * The first half of create: the invoice read, checked and priced, not written (no number yet).
   * The recurring task builds a batch of invoices this way before it writes them one after the
   * other (src/modules/recurring/recurring.generate.ts); anything else calls create.
   */
  async build(ctx: RequestContext, input: InvoiceCreateInput, from?: { recurringInvoiceUuid: string }): Promise<BuiltInvoice> {
    const status = createStatus(input.status);
    const { invoice, job } = await buildNew(ctx, input, status);
    if (from) invoice.recurringInvoiceUuid = from.recurringInvoiceUuid;
    return { input, status, from, invoice, job };
  },

  /**
   * The second half of create: one statement writes the invoice built (writeNew), its number taken
   * there. A job changed since it was read makes that statement write nothing, and the create
   * starts over from the job as it is (three attempts in all).
   */
  async write(ctx: RequestContext, built: BuiltInvoice): Promise<Invoice> {
    let { invoice, job } = built;
    for (let attempt = 1; ; attempt++) {
      if (await writeNew(ctx, invoice, job)) return invoice;
      if (attempt === 3) throw new Error('invoice create: its job changed at every attempt');
      ({ invoice, job } = await buildNew(ctx, built.input, built.status));
      if (built.from) invoice.recurringInvoiceUuid = built.from.recurringInvoiceUuid;
    }
  },

  async update(ctx: RequestContext, uuid: string, input: InvoiceUpdateInput) {
    const current = await this.get(ctx, uuid);
    return inTransaction(ctx, async (tx, em) => {
      const invoice = await lockInvoice(tx, current.uuid, 'uuid');
      if (invoice.deletedAt) throw AppError.notFound('Invoice');
      const oldJob = invoice.jobUuid;
      const before = billingOf(invoice);
      const readAs = invoice.status;
      const paid = await completedSum(tx, invoice.uuid);
      await applyInput(tx, invoice, input, refs, SPECIAL);
      await applyCustomData(tx, CustomFieldResource.INVOICE, invoice, input, false);
      if (input.jobUuid !== undefined || input.customerUuid !== undefined || input.estimateUuid !== undefined || input.dueDate !== undefined || input.issueDate !== undefined) {
        await checkParties(tx, invoice);
      }
      // A payment's customer is always its invoice's (payment.rules.ts): the invoice row first.
      if (input.customerUuid !== undefined) {
        await em.flush();
        await em.getConnection().execute(PAYMENTS_FOLLOW_INVOICE_CUSTOMER_SQL, [invoice.uuid, ctx.companyId], 'run', em.getTransactionContext());
      }
      invoice.progressPercentage = progressOf(invoice.invoiceType, input.progressPercentage, invoice.progressPercentage);
      // Amounts are recomputed when line items or amounts change; otherwise they stay as stored.
      if (AMOUNT_FIELDS.some((f) => input[f] !== undefined)) {
        const lines = input.lineItems !== undefined ? linesIn(input.lineItems) : storedLinesIn(invoice.lineItems);
        const t = computeTotals({
          lineItems: lines,
          subtotalCents: input.subtotal !== undefined ? cents(input.subtotal) : lines?.length ? null : invoice.subtotalCents,
          taxCents: input.taxAmount !== undefined ? cents(input.taxAmount) : input.lineItems !== undefined ? null : invoice.taxAmountCents,
          discountCents: input.discountAmount !== undefined ? cents(input.discountAmount) : invoice.discountAmountCents,
          jobAmountCents: jobAmount(await loadJob(tx, invoice)),
          progressPercentage: invoice.progressPercentage,
        });
        checkSentLines(input.lineItems, t);
        if (t.totalCents < paid) throw AppError.field('totalAmount', `would fall below paid_amount (${centsToDecimal(paid)})`);
        applyTotals(invoice, t, !!lines?.length);
      }
      settle(invoice, paid);
      // The status a GET showed, sent back unchanged, is no request to change it (GET → edit → PUT).
      await applyStatus(tx, invoice, input.status === readAs ? undefined : input.status, paid);
      // A job newly billed (a draft sent, or the invoice moved to it): the billing rule of create.
      if (billsJob(before, billingOf(invoice))) await markJobInvoiced(tx, invoice);
      await syncInvoice(tx, invoice);
      if (oldJob && oldJob !== invoice.jobUuid) await syncJobPaidAt(tx, oldJob);
      return invoice;
    });
  },

  async remove(ctx: RequestContext, uuid: string) {
    const current = await this.get(ctx, uuid);
    return inTransaction(ctx, async (tx, em) => {
      const invoice = await lockInvoice(tx, current.uuid, 'uuid');
      if (invoice.deletedAt) throw AppError.notFound('Invoice');
      if ((await completedSum(tx, invoice.uuid)) > 0) {
        throw AppError.field('uuid', 'has Completed payments: refund or delete them before deleting the invoice');
      }
      invoice.deletedAt = new Date();
      await em.flush();
      await syncJobPaidAt(tx, invoice.jobUuid);
      return { message: 'Invoice deleted' };
    });
  },

  restore: restoreInvoice,
};
