import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../data/context';
import { nextSequence } from '../../data/crud';
import { companyToday } from '../../data/company-time';
import { completedSum, lockInvoice, syncInvoice } from '../invoice/invoice.balance';
import { Invoice } from '../invoice/invoice.entity';
import { Company } from '../company/company.entity';
import type { Customer } from '../customer/customer.entity';
import { actAs, type Actor } from '../event/event.actor';
import { Payment, PaymentStatus, PaymentType } from '../payment/payment.entity';

// The ledger's side of Stripe (docs/payments.md): one payment per PaymentIntent of a company, its
// status moving Pending → Completed / Failed only forward, and its refunded part. Every change runs
// under the invoice's row lock, like any payment change, in the caller's transaction; no Stripe
// call is made there (refunds are reserved here and made after the commit: refund-intents.ts).

/** What payment_details holds for an online payment. */
export interface StripeDetails {
  source: 'stripe';
  /** The connected account the payment was made in: its refunds go there. */
  account: string;
  checkout_session: string | null;
  charge: string | null;
  /** Refunded as Stripe's charge reports it (cents, cumulative). */
  charge_refunded_cents: number;
  /** A dispute's last state; a lost one counts as a refund of its amount. */
  dispute: { id: string; status: string; amount_cents: number; reason: string | null } | null;
  /** The processing fee the customer paid on top of `amount` (pass_fees), not counted to the invoice. */
  surcharge_cents?: number;
  /** Refunds counted in refunded_amount but not yet confirmed by Stripe (made after the commit). */
  pending_refunds?: PendingRefund[];
}

export const detailsOf = (p: Payment): StripeDetails => p.paymentDetails as StripeDetails;
export const isOnline = (p: Payment) => (p.paymentDetails as { source?: string } | null)?.source === 'stripe';

/** Actor `stripe`, for the work of the event (or task) `label`. */
export const stripeActor = (label: string): Actor => ({ type: 'stripe', key_id: null, user_id: null, request_id: label });

/** Marks the transactions begun on `em` as made by actor `stripe` (call before beginning one). */
export function actAsStripe(em: EntityManager, label: string): void {
  actAs(em, stripeActor(label));
}

/** The context a Stripe event works in, in its transaction: the company's tenant scope, no user or key. */
export function stripeContext(em: EntityManager, companyId: string, eventId: string): RequestContext {
  em.setFilterParams('tenant', { companyId });
  return { requestId: eventId, companyId, em, company: em.getReference(Company, companyId) } as unknown as RequestContext;
}

/** The company's payment for a PaymentIntent (deleted ones too: they still hold the intent). */
export function paymentOfIntent(tx: RequestContext, intent: string): Promise<Payment | null> {
  return tx.em.findOne(Payment, { company: tx.companyId, transactionId: intent, paymentDetails: { source: 'stripe' } }, { filters: false, refresh: true });
}

export interface IntentFacts {
  intent: string;
  amountCents: number;
  type: PaymentType;
  method: string | null;
  feeCents: number;
  /** The fee passed on to the customer: charged by Stripe beyond `amountCents`. */
  surchargeCents: number;
  charge: string | null;
  session: string | null;
}

/** The intent's new payment, Pending and not numbered yet (recordIntent's). */
export function newIntentPayment(company: Company, of: { invoice: Invoice; customer: Customer | null }, facts: IntentFacts, account: string, today: string): Payment {
  return Object.assign(intentPayment(facts, account, today), { company, invoice: of.invoice, customer: of.customer });
}

/**
 * newIntentPayment's values without its company, invoice and customer: recordFirstPayment's
 * (first-payment.ts), which hands those to the database as keys.
 */
export function intentPayment(facts: IntentFacts, account: string, today: string): Payment {
  return Object.assign(new Payment(), {
    createdBy: null,
    paymentType: facts.type,
    paymentMethod: facts.method,
    amountCents: facts.amountCents,
    processingFeeCents: Math.min(facts.feeCents, facts.amountCents),
    paymentDate: today,
    transactionId: facts.intent,
    status: PaymentStatus.PENDING,
    notes: 'Paid online',
    paymentDetails: {
      source: 'stripe',
      account,
      checkout_session: facts.session,
      charge: facts.charge,
      charge_refunded_cents: 0,
      dispute: null,
      ...(facts.surchargeCents > 0 ? { surcharge_cents: facts.surchargeCents } : {}),
    } satisfies StripeDetails,
  });
}

/**
 * Makes or moves the intent's payment to `status` on the locked invoice. Forward only: a Pending
 * payment may become Completed or Failed; a Completed, Failed or Refunded one stays. A payment that
 * becomes Completed beyond the balance has its excess refunded through Stripe at once.
 */
export async function recordIntent(tx: RequestContext, invoice: Invoice, facts: IntentFacts, status: PaymentStatus, account: string): Promise<Payment> {
  let payment = await paymentOfIntent(tx, facts.intent);
  if (!payment) {
    payment = newIntentPayment(tx.company, { invoice, customer: invoice.customer }, facts, account, await companyToday(tx));
    payment.paymentNumber = String(await nextSequence(tx, 'payment_number'));
    tx.em.persist(payment);
  } else if (payment.status !== PaymentStatus.PENDING) {
    return payment;
  }
  if (facts.method && !payment.paymentMethod) payment.paymentMethod = facts.method;
  if (facts.feeCents && !payment.processingFeeCents) payment.processingFeeCents = Math.min(facts.feeCents, payment.amountCents);
  if (facts.charge) payment.paymentDetails = { ...detailsOf(payment), charge: facts.charge };
  payment.status = status;
  if (status === PaymentStatus.COMPLETED) {
    payment.processedAt = new Date();
    await refundExcess(tx, invoice, payment);
  }
  await syncInvoice(tx, invoice);
  return payment;
}

/**
 * The part of a Completed payment above the invoice's balance, reserved as a refund whose key is
 * the PaymentIntent's: whoever makes it (the webhook after its commit, or the background task),
 * Stripe makes it once.
 */
async function refundExcess(tx: RequestContext, invoice: Invoice, payment: Payment): Promise<void> {
  await tx.em.flush();
  const others = await completedSum(tx, invoice.uuid, payment.uuid);
  const room = Math.max(0, invoice.totalAmountCents - others);
  const counted = payment.amountCents - payment.refundedAmountCents;
  if (counted <= room) return;
  reserveRefund(payment, counted - room, `excess-${payment.transactionId}`, 'invoice balance exceeded');
}

/** refunded_amount, capped at the amount; fully refunded: status Refunded (and back when it no longer is). */
export function setRefunded(payment: Payment, cents: number): void {
  payment.refundedAmountCents = Math.min(payment.amountCents, Math.max(0, cents));
  if (payment.refundedAmountCents === payment.amountCents && payment.status === PaymentStatus.COMPLETED) payment.status = PaymentStatus.REFUNDED;
  else if (payment.refundedAmountCents < payment.amountCents && payment.status === PaymentStatus.REFUNDED) payment.status = PaymentStatus.COMPLETED;
}

/** A refund reserved and not yet confirmed by Stripe (src/modules/online-payment/refund-intents.ts). */
export interface PendingRefund {
  /** Stripe's Idempotency-Key for this refund. */
  key: string;
  cents: number;
  /** When it was reserved (ISO): the task leaves fresh entries to the request making them. */
  at: string;
  reason?: string;
}

/** Step 1 (under the invoice's lock, in the caller's transaction): counts `cents` as refunded and lists the intent. */
export function reserveRefund(payment: Payment, cents: number, key: string, reason?: string): PendingRefund {
  const d = detailsOf(payment);
  const entry: PendingRefund = { key, cents, at: new Date().toISOString(), ...(reason ? { reason } : {}) };
  setRefunded(payment, payment.refundedAmountCents + cents);
  payment.paymentDetails = { ...d, pending_refunds: [...(d.pending_refunds ?? []), entry] };
  return entry;
}


/** The intent's payment with its invoice locked (then the payment re-read under the lock), or null. */
export async function lockedIntent(tx: RequestContext, intent: string): Promise<{ invoice: Invoice; payment: Payment } | null> {
  const found = await paymentOfIntent(tx, intent);
  if (!found) return null;
  const invoice = await lockInvoice(tx, found.invoiceUuid);
  const payment = (await paymentOfIntent(tx, intent))!;
  return { invoice, payment };
}

/**
 * Stripe's charge reports `refundedCents` refunded in all (dashboard, API or our excess refunds):
 * the payment records the larger of that and what it knew, plus a lost dispute.
 */
export async function applyChargeRefunded(tx: RequestContext, invoice: Invoice, payment: Payment, refundedCents: number): Promise<void> {
  const d = detailsOf(payment);
  const lost = d.dispute?.status === 'lost' ? d.dispute.amount_cents : 0;
  const known = Math.max(d.charge_refunded_cents, payment.refundedAmountCents - lost, refundedCents);
  payment.paymentDetails = { ...d, charge_refunded_cents: Math.max(d.charge_refunded_cents, refundedCents) };
  setRefunded(payment, known + lost);
  await syncInvoice(tx, invoice);
}

/** A dispute's state on its payment; closed as lost, its amount counts as refunded (once). */
export async function applyDispute(tx: RequestContext, invoice: Invoice, payment: Payment, dispute: { id: string; status: string; amount: number; reason: string | null }): Promise<void> {
  const d = detailsOf(payment);
  const wasLost = d.dispute?.status === 'lost' ? d.dispute.amount_cents : 0;
  const lost = dispute.status === 'lost' ? dispute.amount : 0;
  payment.paymentDetails = { ...d, dispute: { id: dispute.id, status: dispute.status, amount_cents: dispute.amount, reason: dispute.reason } };
  if (lost !== wasLost) setRefunded(payment, payment.refundedAmountCents - wasLost + lost);
  await syncInvoice(tx, invoice);
}
