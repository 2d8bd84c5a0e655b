import { InputType, ObjectType } from 'type-graphql';
import type { RequestContext } from '../../data/context';
import { findActive } from '../../data/crud';
import { centsToDecimal, fromCents, toCents } from '../../domain/money';
import { AppError } from '../../errors/app-error';
import { ApiField, InputField } from '../../schema/fields';
import { newShareLink } from '../document/share.service';
import { Invoice, InvoiceStatus } from '../invoice/invoice.entity';
import { passedFeeCents } from './fees';
import { PaymentSettings, paymentSettingsOf } from './payment-settings';
import type { EntityManager } from '@mikro-orm/postgresql';
import { paymentsConfigured, stripe } from './stripe.client';

// Checkout (docs/payments.md): a Stripe Checkout Session in the company's connected account for an
// amount of the invoice (default its balance), which comes back as a payment through the webhook.

@InputType('InvoiceCheckoutInput')
export class InvoiceCheckoutInput {
  @InputField('amount', 'money', { nullable: true, description: 'default: the balance; at least 1.00 and at most the balance' }) amount?: number | null;
}

@ObjectType('CheckoutSession')
export class CheckoutSession {
  @ApiField('url', 'string', { description: "Stripe's payment page: send the customer there" }) url!: string;
  @ApiField('expires_at', 'datetime') expiresAt!: Date;
  @ApiField('session_id', 'string') sessionId!: string;
  @ApiField('amount', 'money', { description: 'What goes to the invoice' }) amount!: number;
  @ApiField('fee_amount', 'money', { description: 'The processing fee the customer pays on top when the company passes fees on (pass_fees); else 0' }) feeAmount!: number;
}

const MINIMUM_CENTS = 100;

/**
 * Metadata every session and its PaymentIntent carry: the webhook finds the invoice by them, and
 * `fee_cents` (present when a fee is passed on) is the part of the charge that is not the invoice's.
 */
export interface CheckoutMetadata {
  company_uuid: string;
  invoice_uuid: string;
  fee_cents?: string;
  [key: string]: string | undefined;
}

/** The fee a checkout of `cents` adds under these settings (0 unless pass_fees). */
export const checkoutFeeCents = (settings: PaymentSettings, cents: number) =>
  settings.passFees ? passedFeeCents(cents, { card: settings.acceptCard, ach: settings.acceptAch }) : 0;

/** The company's connected account, or 409 PAYMENTS_NOT_CONFIGURED. */
export async function connectedAccount(ctx: Pick<RequestContext, 'em' | 'companyId'>) {
  const settings = await paymentSettingsOf(ctx.em, ctx.companyId);
  if (!settings.stripeAccountId) throw new AppError('PAYMENTS_NOT_CONFIGURED', 'This company has no Stripe account: set payment_settings.stripe_account_id or onboard through onboarding_link');
  return { account: settings.stripeAccountId, settings };
}

/** A Checkout Session for `amountCents` of the invoice (the balance when null), back to `pageUrl`. */
export async function checkoutFor(ctx: Pick<RequestContext, 'em' | 'companyId'>, invoice: Invoice, amountCents: number | null, pageUrl: string): Promise<CheckoutSession> {
  const client = stripe();
  const { account, settings } = await connectedAccount(ctx);
  if (invoice.storedStatus === InvoiceStatus.DRAFT) throw AppError.field('invoiceUuid', 'is a draft invoice: send it before taking payments');
  if (invoice.balanceAmountCents <= 0) throw AppError.field('invoiceUuid', 'is paid: it has no balance');
  const cents = amountCents ?? invoice.balanceAmountCents;
  if (cents < Math.min(MINIMUM_CENTS, invoice.balanceAmountCents) || cents > invoice.balanceAmountCents) {
    throw AppError.field('amount', `must be between 1.00 and the balance (${centsToDecimal(invoice.balanceAmountCents)})`);
  }
  const fee = checkoutFeeCents(settings, cents);
  const metadata: CheckoutMetadata = { company_uuid: ctx.companyId, invoice_uuid: invoice.uuid, ...(fee > 0 ? { fee_cents: String(fee) } : {}) };
  const line = (unit: number, name: string) => ({ quantity: 1, price_data: { currency: 'usd', unit_amount: unit, product_data: { name } } });
  const methods = [...(settings.acceptCard ? ['card' as const] : []), ...(settings.acceptAch ? ['us_bank_account' as const] : [])];
  const session = await client.checkout.sessions.create(
    {
      mode: 'payment',
      client_reference_id: invoice.uuid,
      metadata: metadata as Record<string, string>,
      payment_intent_data: { metadata: metadata as Record<string, string> },
      allowed_payment_method_types: methods.length ? methods : ['card'],
      line_items: [line(cents, `Invoice ${invoice.invoiceNumber}`), ...(fee > 0 ? [line(fee, 'Processing fee')] : [])],
      success_url: `${pageUrl}?paid=1`,
      cancel_url: pageUrl,
    },
    { stripeAccount: account },
  );
  return Object.assign(new CheckoutSession(), { url: session.url!, expiresAt: new Date(session.expires_at * 1000), sessionId: session.id, amount: fromCents(cents), feeAmount: fromCents(fee) });
}

/**
 * The Pay button of this invoice's customer page, or null: shown when payments are configured, the
 * company has a connected account, and the invoice is sent and has a balance; `feeCents` is the
 * processing fee the customer pays on top of the balance (pass_fees).
 */
export async function payOffer(em: EntityManager, companyUuid: string, invoice: Pick<Invoice, 'storedStatus' | 'balanceAmountCents'>): Promise<{ feeCents: number } | null> {
  if (!paymentsConfigured() || invoice.storedStatus === InvoiceStatus.DRAFT || invoice.balanceAmountCents <= 0) return null;
  const settings = await paymentSettingsOf(em, companyUuid);
  return settings.stripeAccountId === null ? null : { feeCents: checkoutFeeCents(settings, invoice.balanceAmountCents) };
}

/** The Pay button of an invoice's customer page: a session for the balance, back to that page. */
export async function checkoutFromPage(em: EntityManager, companyUuid: string, invoiceUuid: string, pageUrl: string): Promise<CheckoutSession> {
  stripe();
  const invoice = await em.findOne(Invoice, { uuid: invoiceUuid, company: companyUuid, deletedAt: null }, { filters: false });
  if (!invoice) throw AppError.notFound('Invoice');
  return checkoutFor({ em, companyId: companyUuid }, invoice, null, pageUrl);
}

export const checkoutService = {
  async create(ctx: RequestContext, invoiceUuid: string, input: InvoiceCheckoutInput | null | undefined): Promise<CheckoutSession> {
    stripe();
    const invoice = await findActive(ctx, Invoice, invoiceUuid, 'Invoice');
    // Stripe sends the customer back to the invoice's own page.
    const page = await newShareLink(ctx, 'invoice', invoice.uuid);
    return checkoutFor(ctx, invoice, input?.amount == null ? null : toCents(input.amount)!, page.url);
  },
};
