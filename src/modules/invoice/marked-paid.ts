import type { RequestContext } from '../../data/context';
import { companyToday } from '../../data/company-time';
import { nextSequence } from '../../data/crud';
import { Payment, PaymentStatus, PaymentType } from '../payment/payment.entity';
import type { Invoice } from './invoice.entity';

/**
 * An invoice marked 'Paid' by hand with a balance gets a Completed payment of that balance
 * (docs/invoices-and-payments.md), so paid_amount always equals the sum of its Completed payments. Runs inside the
 * transaction that holds the invoice lock.
 */
export async function recordMarkedPaid(tx: RequestContext, invoice: Invoice): Promise<Payment> {
  const payment = new Payment();
  payment.company = tx.company;
  payment.invoice = invoice;
  payment.customer = invoice.customer;
  payment.createdBy = tx.user;
  payment.paymentType = PaymentType.OTHER;
  payment.amountCents = invoice.balanceAmountCents;
  payment.processingFeeCents = 0;
  payment.paymentDate = await companyToday(tx);
  payment.status = PaymentStatus.COMPLETED;
  payment.processedAt = new Date();
  payment.notes = 'Marked as paid';
  payment.paymentDetails = { source: 'marked_paid' };
  payment.paymentNumber = String(await nextSequence(tx, 'payment_number'));
  tx.em.persist(payment);
  await tx.em.flush();
  return payment;
}
