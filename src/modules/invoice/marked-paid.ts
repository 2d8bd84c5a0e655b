import type { RequestContext } from '../../data/context';
import { companyToday } from '../../data/company-time';
import { validateInput } from '../../schema/validation';
import { PaymentStatus, PaymentType } from '../payment/payment.entity';
import { PaymentCreateInput } from '../payment/payment.inputs';
import { createOnLocked } from '../payment/payment.service';
import type { Invoice } from './invoice.entity';

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
