import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../data/context';
import { Needs } from '../../schema/access';
import { UUIDScalar } from '../../schema/scalars';
import { Payment } from '../payment/payment.entity';
import { checkoutService, CheckoutSession, InvoiceCheckoutInput } from './checkout';
import { PaymentOnboardingLink, PaymentSettings, PaymentSettingsInput, paymentSettingsService } from './payment-settings';
import { PaymentRefundInput, refundService } from './refund';

// Online payments in GraphQL (docs/payments.md): the same services as the REST rows.
@Resolver()
export class OnlinePaymentResolver {
  @Needs('company:read')
  @Query(() => PaymentSettings, { description: "The company's online-payment settings (409 PAYMENTS_NOT_CONFIGURED when the server has no Stripe key)" })
  paymentSettings(@Ctx() ctx: RequestContext): Promise<PaymentSettings> {
    return paymentSettingsService.get(ctx);
  }

  @Needs('company:write')
  @Mutation(() => PaymentSettings, { description: "Change the company's online-payment settings (fields not sent keep their values)" })
  updatePaymentSettings(@Ctx() ctx: RequestContext, @Arg('input', () => PaymentSettingsInput) input: PaymentSettingsInput): Promise<PaymentSettings> {
    return paymentSettingsService.update(ctx, input);
  }

  @Needs('company:write')
  @Mutation(() => PaymentOnboardingLink, { description: "A Stripe onboarding link for the company's connected account (made when it has none)" })
  createPaymentOnboardingLink(@Ctx() ctx: RequestContext): Promise<PaymentOnboardingLink> {
    return paymentSettingsService.onboardingLink(ctx);
  }

  @Needs('payments:write', 'invoices:read')
  @Mutation(() => CheckoutSession, { description: 'A Stripe Checkout page for the invoice (default: its balance)' })
  createInvoiceCheckout(
    @Ctx() ctx: RequestContext,
    @Arg('invoiceUuid', () => UUIDScalar) invoiceUuid: string,
    @Arg('input', () => InvoiceCheckoutInput, { nullable: true }) input?: InvoiceCheckoutInput | null,
  ): Promise<CheckoutSession> {
    return checkoutService.create(ctx, invoiceUuid, input);
  }

  @Needs('payments:write')
  @Mutation(() => Payment, { description: 'Refund an online payment through Stripe (default: all that is left)' })
  refundPayment(
    @Ctx() ctx: RequestContext,
    @Arg('uuid', () => UUIDScalar) uuid: string,
    @Arg('input', () => PaymentRefundInput, { nullable: true }) input?: PaymentRefundInput | null,
  ): Promise<Payment> {
    return refundService.refund(ctx, uuid, input);
  }
}
