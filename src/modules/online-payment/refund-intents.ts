import type { EntityManager } from '@mikro-orm/postgresql';
import type Stripe from 'stripe';
import type { RequestContext } from '../../data/context';
import type { Orm } from '../../db/orm';
import { logger } from '../../logger';
import { syncInvoice } from '../invoice/invoice.balance';
import type { Invoice } from '../invoice/invoice.entity';
import { Payment } from '../payment/payment.entity';
import { actAsStripe, applyChargeRefunded, detailsOf, lockedIntent, type PendingRefund, setRefunded, stripeContext } from './online-ledger';
import { paymentsConfigured, stripe } from './stripe.client';

// Refunds are made outside the invoice's lock and transaction (docs/payments.md), in three steps:
// 1. under the lock, the refund is reserved: counted in refunded_amount at once and listed in the
//    payment's payment_details.pending_refunds with its idempotency key; committed;
// 2. Stripe is asked, with that key (Stripe makes one refund per key, however often it is asked);
// 3. under the lock again, the entry is removed and the charge's refunded total as Stripe reports
//    it is recorded; a refusal from Stripe gives the reserved amount back.
// A step 2 that cannot reach Stripe, or a process that dies between the steps, leaves the entry:
// the background task `stripe-refunds` asks again with the same key every minute.

/** Opens a transaction in the right context (the request's key, or actor `stripe`) for step 3. */
export type Opener = <T>(fn: (tx: RequestContext) => Promise<T>) => Promise<T>;

/** The refunds of a payment still to be made (or confirmed) in Stripe. */
export const pendingRefunds = (p: Payment): PendingRefund[] => detailsOf(p).pending_refunds ?? [];

/** A Stripe error that says the refund was not made (a 4xx other than a conflict or rate limit). */
function refused(err: unknown): boolean {
  const status = (err as { statusCode?: number }).statusCode;
  return typeof status === 'number' && status >= 400 && status < 500 && status !== 409 && status !== 429;
}

export type Settled = { state: 'made' | 'refused' | 'unsettled'; payment: Payment | null; message?: string };

/**
 * Steps 2 and 3 for one reserved refund of the payment of `intent`: no lock is held while Stripe is
 * asked. Settling an entry already settled (by a concurrent request or the task) changes nothing.
 */
export async function settleRefund(open: Opener, intent: string, account: string, entry: PendingRefund): Promise<Settled> {
  let chargeRefunded: number | null = null;
  let refusal: string | null = null;
  try {
    const refund = await stripe().refunds.create(
      { payment_intent: intent, amount: entry.cents, metadata: { reason: entry.reason ?? 'requested' }, expand: ['charge'] },
      { stripeAccount: account, idempotencyKey: entry.key },
    );
    const charge = refund.charge as Stripe.Charge | string | null;
    chargeRefunded = charge && typeof charge === 'object' ? charge.amount_refunded : null;
  } catch (err) {
    if (!refused(err)) {
      logger.warn({ err, intent, key: entry.key }, 'stripe refund not confirmed; the stripe-refunds task asks again');
      return { state: 'unsettled', payment: null };
    }
    refusal = (err as Error).message;
  }
  const payment = await open(async (tx) => {
    const found = await lockedIntent(tx, intent);
    if (!found) return null;
    const { invoice, payment } = found;
    const pending = pendingRefunds(payment);
    if (!pending.some((p) => p.key === entry.key)) return payment;
    const d = detailsOf(payment);
    payment.paymentDetails = { ...d, pending_refunds: pending.filter((p) => p.key !== entry.key) };
    if (refusal !== null) await giveBack(tx, invoice, payment, entry.cents);
    else await applyChargeRefunded(tx, invoice, payment, chargeRefunded ?? d.charge_refunded_cents);
    return payment;
  });
  return refusal !== null ? { state: 'refused', payment, message: refusal } : { state: 'made', payment };
}

/** A refused refund's reservation, given back (never below what Stripe's charge reported refunded). */
async function giveBack(tx: RequestContext, invoice: Invoice, payment: Payment, cents: number): Promise<void> {
  const d = detailsOf(payment);
  const lost = d.dispute?.status === 'lost' ? d.dispute.amount_cents : 0;
  setRefunded(payment, Math.max(d.charge_refunded_cents + lost, payment.refundedAmountCents - cents));
  await syncInvoice(tx, invoice);
}

/** Step 3's transaction for the webhook and the task: the company's scope, actor `stripe`. */
export function stripeOpener(root: EntityManager, companyId: string, label: string): Opener {
  return (fn) => {
    const em = root.fork({ clear: true });
    actAsStripe(em, label);
    return em.transactional((txEm) => fn(stripeContext(txEm as EntityManager, companyId, label)));
  };
}

/** Settles every reserved refund of a payment (after the webhook's commit); failures are left to the task. */
export async function settlePayment(open: Opener, payment: Payment, olderThan?: Date): Promise<void> {
  const account = detailsOf(payment).account;
  for (const entry of pendingRefunds(payment)) {
    if (olderThan && new Date(entry.at) > olderThan) continue;
    try {
      await settleRefund(open, payment.transactionId!, account, entry);
    } catch (err) {
      logger.warn({ err, payment: payment.uuid, key: entry.key }, 'stripe refund not settled; the stripe-refunds task asks again');
    }
  }
}

/** The background task: every reserved refund older than `graceSeconds`, asked again with its key. */
export async function settleStaleRefunds(orm: Orm, graceSeconds = 60): Promise<void> {
  if (!paymentsConfigured()) return;
  const em = orm.em.fork({ clear: true });
  const rows = (await em.getConnection().execute(
    `select uuid, company_uuid from payments
      where payment_details->>'source' = 'stripe' and jsonb_array_length(coalesce(payment_details->'pending_refunds', '[]'::jsonb)) > 0`,
    [],
    'all',
  )) as { uuid: string; company_uuid: string }[];
  const olderThan = new Date(Date.now() - graceSeconds * 1000);
  for (const row of rows) {
    const payment = await em.findOne(Payment, { uuid: row.uuid, company: row.company_uuid }, { filters: false, refresh: true });
    if (payment) await settlePayment(stripeOpener(orm.em, row.company_uuid, `stripe-refunds:${row.uuid}`), payment, olderThan);
  }
}
