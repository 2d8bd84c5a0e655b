import { LIVE_FILTER } from '../../data/base.entity';
import { inTransaction, RequestContext } from '../../data/context';
import { applyInput, findActive, ListInclude, listPage, nextSequence } from '../../data/crud';
import { isUuid } from '../../domain/values';
import { centsToDecimal, toCents } from '../../domain/money';
import { AppError } from '../../errors/app-error';
import { completedSum, lockInvoice, syncInvoice } from '../invoice/invoice.balance';
import { Invoice, InvoiceStatus } from '../invoice/invoice.entity';
import { Payment, PaymentStatus } from './payment.entity';
import { PaymentCreateInput, PaymentListArgs, PaymentUpdateInput } from './payment.inputs';
import { applyCustomData } from '../custom-field/custom-data';
import { paymentCustomerOf } from './payment.rules';

// Copied by hand: money arrives in dollars; status has side effects; the invoice is fixed.
const SPECIAL = ['invoiceUuid', 'amount', 'processingFee', 'status'];

/** A payment may be taken only on a live invoice that is not a draft (docs/invoices-and-payments.md). */
function checkPayable(invoice: Invoice): void {
  if (invoice.deletedAt) throw AppError.field('invoiceUuid', 'does not match any invoice of this company');
  if (invoice.storedStatus === InvoiceStatus.DRAFT) throw AppError.field('invoiceUuid', 'is a draft invoice: send it (status Pending) before taking payments');
}

/** Completed payments may not take the invoice above its total. */
async function checkWithinTotal(tx: RequestContext, invoice: Invoice, payment: Payment): Promise<void> {
  if (payment.status !== PaymentStatus.COMPLETED) return;
  const others = await completedSum(tx, invoice.uuid, payment.uuid);
  if (others + payment.amountCents - payment.refundedAmountCents > invoice.totalAmountCents) {
    const balance = centsToDecimal(invoice.totalAmountCents - others);
    // The message reads 'amount exceeds invoice balance (…)' (docs/invoices-and-payments.md): the field name starts it.
    throw AppError.field('amount', `exceeds invoice balance (${balance})`);
  }
}

function applyMoney(payment: Payment, input: PaymentCreateInput | PaymentUpdateInput): void {
  if (input.amount !== undefined) payment.amountCents = toCents(input.amount)!;
  if (input.processingFee !== undefined) payment.processingFeeCents = toCents(input.processingFee)!;
  // Checked on the merged record: net_amount never goes below 0.
  if (payment.processingFeeCents > payment.amountCents) {
    throw AppError.field(input.processingFee !== undefined ? 'processingFee' : 'amount', 'is out of range: processing_fee must not exceed amount');
  }
}

function applyStatus(payment: Payment, status: PaymentStatus | undefined, processedAtSent: boolean): void {
  if (status !== undefined) payment.status = status;
  // A sent processed_at beats the automatic one.
  if (payment.status === PaymentStatus.COMPLETED && !processedAtSent) payment.processedAt ??= new Date();
}

/** The payment's invoice locked, then the payment re-read under that lock: a concurrent change to
 * it has committed by now (and a concurrent delete makes it not found). */
async function lockedPayment(tx: RequestContext, current: Payment) {
  const invoice = await lockInvoice(tx, current.invoiceUuid);
  const payment = await tx.em.findOneOrFail(Payment, { uuid: current.uuid, company: tx.companyId }, { refresh: true, filters: { [LIVE_FILTER]: false } });
  if (payment.deletedAt) throw AppError.notFound('Payment');
  return { invoice, payment };
}

/**
 * A new payment on an invoice already locked in the open transaction, with every check of create
 * (a Pending or Completed status, a payable invoice, the money, within the total): create runs it,
 * and so does an invoice marked paid (src/modules/invoice/marked-paid.ts). The caller syncs the invoice.
 */
export async function createOnLocked(tx: RequestContext, invoice: Invoice, input: PaymentCreateInput): Promise<Payment> {
  const status = input.status ?? PaymentStatus.COMPLETED;
  if (status !== PaymentStatus.COMPLETED && status !== PaymentStatus.PENDING) throw AppError.field('status', "must be 'Completed' or 'Pending' on create");
  checkPayable(invoice);
  const payment = new Payment();
  payment.company = tx.company;
  payment.invoice = invoice;
  payment.customer = paymentCustomerOf(invoice);
  payment.createdBy = tx.user;
  await applyInput(tx, payment, input, [], SPECIAL);
  await applyCustomData(tx, null, payment, input, true);
  applyMoney(payment, input);
  applyStatus(payment, status, input.processedAt !== undefined);
  await checkWithinTotal(tx, invoice, payment);
  payment.paymentNumber = String(await nextSequence(tx, 'payment_number'));
  tx.em.persist(payment);
  return payment;
}

export const paymentService = {
  list(ctx: RequestContext, args: PaymentListArgs, include?: ListInclude) {
    return listPage(ctx, Payment, args, (w) => {
      if (args.invoiceUuid) w.equals('invoice', args.invoiceUuid);
      if (args.customerUuid) w.equals('customer', args.customerUuid);
      if (args.paymentType?.length) w.oneOf('paymentType', args.paymentType);
      if (args.status?.length) w.oneOf('status', args.status);
    }, include);
  },

  get(ctx: RequestContext, uuid: string) {
    return findActive(ctx, Payment, uuid, 'Payment');
  },

  async create(ctx: RequestContext, input: PaymentCreateInput) {
    return inTransaction(ctx, async (tx) => {
      // The invoice row lock serialises every payment change on this invoice.
      const invoice = await lockInvoice(tx, input.invoiceUuid);
      const payment = await createOnLocked(tx, invoice, input);
      await syncInvoice(tx, invoice);
      return payment;
    });
  },

  async update(ctx: RequestContext, uuid: string, input: PaymentUpdateInput) {
    const current = await this.get(ctx, uuid);
    return inTransaction(ctx, async (tx, em) => {
      const { invoice, payment } = await lockedPayment(tx, current);
      const counted = payment.status === PaymentStatus.COMPLETED;
      const before = payment.amountCents;
      await applyInput(tx, payment, input, [], SPECIAL);
      await applyCustomData(tx, null, payment, input, false);
      applyMoney(payment, input);
      applyStatus(payment, input.status, input.processedAt !== undefined);
      const counts = payment.status === PaymentStatus.COMPLETED;
      if (counts && (!counted || payment.amountCents !== before)) {
        checkPayable(invoice);
        await checkWithinTotal(tx, invoice, payment);
      }
      await syncInvoice(tx, invoice);
      return payment;
    });
  },

  async remove(ctx: RequestContext, uuid: string) {
    const current = await this.get(ctx, uuid);
    return inTransaction(ctx, async (tx, em) => {
      const { invoice, payment } = await lockedPayment(tx, current);
      payment.deletedAt = new Date();
      await syncInvoice(tx, invoice);
      return { message: 'Payment deleted' };
    });
  },

  /**
   * A deleted payment counts again (docs/invoices-and-payments.md): under its invoice's row lock,
   * as every payment change, so it and a concurrent new payment cannot both fit the balance; a
   * Completed one that would take the invoice above its total is refused, and one whose invoice is
   * deleted too (restore the invoice first).
   */
  async restore(ctx: RequestContext, uuid: string) {
    if (!isUuid(uuid)) throw AppError.notFound('Payment');
    // A deleted payment: the live filter is off (src/data/base.entity.ts).
    const current = await ctx.em.findOne(Payment, { uuid: uuid.toLowerCase(), company: ctx.companyId }, { filters: { [LIVE_FILTER]: false } });
    if (!current) throw AppError.notFound('Payment');
    return inTransaction(ctx, async (tx, em) => {
      const invoice = await lockInvoice(tx, current.invoiceUuid);
      const payment = await em.findOneOrFail(Payment, { uuid: current.uuid, company: tx.companyId }, { refresh: true, filters: { [LIVE_FILTER]: false } });
      if (!payment.deletedAt) throw AppError.field('uuid', 'is not deleted: this payment is live');
      if (invoice.deletedAt) throw AppError.field('invoiceUuid', 'is a deleted invoice: restore the invoice first');
      payment.deletedAt = null;
      if (payment.status === PaymentStatus.COMPLETED) {
        checkPayable(invoice);
        await checkWithinTotal(tx, invoice, payment);
      }
      await syncInvoice(tx, invoice);
      return payment;
    });
  },
};
