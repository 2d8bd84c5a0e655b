import { InputType } from 'type-graphql';
import { inTransaction, RequestContext } from '../../data/context';
import { findActive } from '../../data/crud';
import { centsToDecimal, toCents } from '../../domain/money';
import { AppError } from '../../errors/app-error';
import { InputField } from '../../schema/fields';
import { randomUUID } from 'node:crypto';
import { lockInvoice, syncInvoice } from '../invoice/invoice.balance';
import { Payment, PaymentStatus } from '../payment/payment.entity';
import { connectedAccount } from './checkout';
import { detailsOf, isOnline, paymentOfIntent, reserveRefund } from './online-ledger';
import { settleRefund } from './refund-intents';
import { stripe } from './stripe.client';

// Refunds from the API (docs/payments.md): through Stripe, up to what is left of an online payment;
// reserved under the invoice's lock, asked of Stripe after the commit, then recorded
// (refund-intents.ts); the refund's charge.refunded event, when it comes, finds it recorded.

@InputType('PaymentRefundInput')
export class PaymentRefundInput {
  @InputField('amount', 'money', { nullable: true, check: (v: number | null) => (v === null || v > 0 ? null : 'must be greater than 0'), description: 'default: all that is left' })
  amount?: number | null;
}

export const refundService = {
  async refund(ctx: RequestContext, uuid: string, input: PaymentRefundInput | null | undefined): Promise<Payment> {
    stripe();
    const current = await findActive(ctx, Payment, uuid, 'Payment');
    if (!isOnline(current)) throw AppError.field('uuid', 'is not an online payment: only payments made through Stripe are refunded here');
    // The account the payment was made in, even if the company has moved to another since.
    const account = detailsOf(current).account ?? (await connectedAccount(ctx)).account;
    const { payment, entry } = await inTransaction(ctx, async (tx) => {
      const invoice = await lockInvoice(tx, current.invoiceUuid);
      const payment = (await paymentOfIntent(tx, current.transactionId!))!;
      if (payment.status !== PaymentStatus.COMPLETED) throw AppError.field('status', `is ${payment.status}: only a Completed payment is refunded`);
      // refunded_amount counts the refunds reserved and not yet confirmed: two requests at once cannot both take what is left.
      const left = payment.amountCents - payment.refundedAmountCents;
      const cents = input?.amount == null ? left : toCents(input.amount)!;
      if (cents > left) throw AppError.field('amount', `exceeds what is left to refund (${centsToDecimal(left)})`);
      const entry = reserveRefund(payment, cents, `refund-${payment.uuid}-${randomUUID()}`);
      await syncInvoice(tx, invoice);
      return { payment, entry };
    });
    const settled = await settleRefund((fn) => inTransaction(ctx, fn), payment.transactionId!, account, entry);
    if (settled.state === 'refused') throw AppError.field('amount', `was refused by Stripe: ${settled.message}`);
    // Unsettled (Stripe not reached): the refund stays reserved and the stripe-refunds task makes it.
    return settled.payment ?? payment;
  },
};
