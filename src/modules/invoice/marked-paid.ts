import type { RequestContext } from '../../data/context';
import { companyToday } from '../../data/company-time';
import { validateInput } from '../../schema/validation';
import { PaymentStatus, PaymentType } from '../payment/payment.entity';
import { PaymentCreateInput } from '../payment/payment.inputs';
import { createOnLocked } from '../payment/payment.service';
import { AppError } from '../../errors/app-error';
import { type Invoice, InvoiceStatus } from './invoice.entity';

/**
 * An invoice marked 'Paid' by hand with a balance gets a Completed payment of that balance
 * (docs/invoices-and-payments.md), so paid_amount always equals the sum of its Completed payments.
 * The payment is a create body like any other, validated as one and made by the payment service
 * with all of create's checks (createOnLocked). Runs inside the transaction that holds the invoice lock.
 */
export async function recordMarkedPaid(tx: RequestContext, invoice: Invoice) {
  const input = Object.assign(new PaymentCreateInput(), {
    invoiceUuid: invoice.uuid,
    paymentType: PaymentType.OTHER,
    amount: invoice.balanceAmount,
    paymentDate: await companyToday(tx),
    processingFee: 0,
    status: PaymentStatus.COMPLETED,
    notes: 'Marked as paid',
    paymentDetails: { source: 'marked_paid' },
  });
  await validateInput(input, 'rest');
  const payment = await createOnLocked(tx, invoice, input);
  await tx.em.flush();
  return payment;
}

/** Status set by hand (docs/invoices-and-payments.md). `paid` is the Completed sum before this change. */
export async function applyStatus(tx: RequestContext, invoice: Invoice, status: InvoiceStatus | undefined, paid: number): Promise<void> {
  if (status === undefined) return;
  const fullyPaid = invoice.totalAmountCents > 0 && invoice.balanceAmountCents === 0;
  switch (status) {
    case InvoiceStatus.OVERDUE:
      throw AppError.field('status', "cannot be set to 'Overdue': it follows from due_date and the balance");
    case InvoiceStatus.DRAFT:
      // A draft takes no payments, so an invoice with payments cannot go back to draft.
      if (paid > 0) throw AppError.field('status', "cannot be 'Draft': the invoice has Completed payments");
      invoice.storedStatus = InvoiceStatus.DRAFT;
      return;
    case InvoiceStatus.PENDING:
      if (fullyPaid) throw AppError.field('status', "cannot be 'Pending': the invoice is fully paid (refund or delete a payment instead)");
      invoice.storedStatus = InvoiceStatus.PENDING;
      return;
    case InvoiceStatus.PAID:
      invoice.storedStatus = InvoiceStatus.PAID;
      // The ledger stays whole: marking paid records a Completed payment of the balance.
      if (invoice.balanceAmountCents > 0) await recordMarkedPaid(tx, invoice);
      return;
  }
}
