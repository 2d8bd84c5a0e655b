import type Stripe from 'stripe';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../data/context';
import { AppError } from '../../errors/app-error';
import { runStatement } from '../../data/prepared';
import { isUuid } from '../../domain/values';
import { lockInvoice } from '../invoice/invoice.balance';
import { Payment, PaymentStatus, PaymentType } from '../payment/payment.entity';
import { actorCteOf } from '../event/event.actor';
import { applyChargeRefunded, applyDispute, IntentFacts, lockedIntent, recordIntent, stripeActor, stripeContext } from './online-ledger';
import { recordFirstPayment } from './first-payment';
import { companyOfAccount, companyOfAccountSeen } from './payment-settings';
import { pendingRefunds, settlePayment, stripeOpener } from './refund-intents';
import { stripe } from './stripe.client';

// Stripe's events (docs/payments.md), each handled once: its id is inserted into stripe_events in
// the transaction that does its work, so a repeated delivery finds the row (a concurrent one waits
// on the first's insert, then finds it) and changes nothing. Events refused (another company's
// metadata, an unknown invoice or account) record nothing, not even their id.

export type Outcome = 'handled' | 'duplicate' | 'ignored';

const HANDLED = new Set([
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'charge.refunded',
  'charge.dispute.created',
  'charge.dispute.updated',
  'charge.dispute.closed',
]);

const idOf = (v: string | { id: string } | null | undefined): string | null => (typeof v === 'string' ? v : (v?.id ?? null));

/** Card brand, fee and charge of a PaymentIntent, read from Stripe (before any lock is taken). */
async function intentFacts(session: Stripe.Checkout.Session, account: string): Promise<IntentFacts> {
  const intent = idOf(session.payment_intent);
  if (!intent) throw AppError.field('payment_intent', 'is missing from the session');
  const pi = await stripe().paymentIntents.retrieve(intent, { expand: ['latest_charge.balance_transaction'] }, { stripeAccount: account });
  const charge = typeof pi.latest_charge === 'object' ? pi.latest_charge : null;
  const details = charge?.payment_method_details;
  // The fee passed on to the customer (pass_fees, metadata.fee_cents) is not the invoice's.
  const fee = Number(session.metadata?.fee_cents ?? 0);
  const surcharge = Number.isInteger(fee) && fee > 0 ? fee : 0;
  const ach = details?.type === 'us_bank_account' || (!details && session.payment_method_types?.includes('us_bank_account') && session.payment_status === 'unpaid');
  const balance = charge && typeof charge.balance_transaction === 'object' ? charge.balance_transaction : null;
  return {
    intent,
    amountCents: (session.amount_total ?? pi.amount) - surcharge,
    surchargeCents: surcharge,
    type: ach ? PaymentType.ACH : PaymentType.CREDIT_CARD,
    method: ach ? 'bank_transfer' : (details?.card?.brand ?? null),
    feeCents: balance?.fee ?? 0,
    charge: idOf(charge) ?? idOf(pi.latest_charge),
    session: session.id,
  };
}

function sessionStatus(event: Stripe.Event, session: Stripe.Checkout.Session): PaymentStatus {
  if (event.type === 'checkout.session.async_payment_succeeded') return PaymentStatus.COMPLETED;
  if (event.type === 'checkout.session.async_payment_failed') return PaymentStatus.FAILED;
  return session.payment_status === 'unpaid' ? PaymentStatus.PENDING : PaymentStatus.COMPLETED;
}

/**
 * Inserts the event's id; false when it was handled already (a concurrent insert waits for the
 * first). The transaction's first statement: it sets the transaction's actor too (`stripe`, for
 * the events its changes write: docs/events.md), which saves the statement MikroORM would send.
 */
async function firstTime(tx: RequestContext, event: Stripe.Event, outcome: Outcome): Promise<boolean> {
  const actor = actorCteOf(stripeActor(event.id));
  const rows = await runStatement<unknown[]>(
    tx.em,
    `with ${actor.sql} insert into stripe_events (id, type, account, company_uuid, outcome) select ?, ?, ?, ?, ? from "actor" on conflict (id) do nothing returning id`,
    [...actor.params, event.id, event.type, event.account ?? null, tx.companyId, outcome],
  );
  return rows.length > 0;
}

/**
 * The company of the event's connected account (404 for none), which a checkout session's metadata
 * must name, with its invoice. `remembered`: for a session, the company this process last read for
 * the account, when the metadata names it (companyOfAccountSeen: a hint, which the usual event's
 * statement checks), instead of a read.
 */
async function companyOf(em: EntityManager, account: string, session: Stripe.Checkout.Session | null, remembered: boolean): Promise<string> {
  const md = session?.metadata ?? {};
  const seen = session && remembered ? companyOfAccountSeen(account) : undefined;
  const companyId = seen !== undefined && seen === md.company_uuid ? seen : await companyOfAccount(em, account);
  if (!companyId) throw AppError.notFound('Company of this Stripe account');
  if (session) {
    if (md.company_uuid !== companyId) throw AppError.field('metadata.company_uuid', 'does not name the company of this Stripe account');
    if (!isUuid(md.invoice_uuid ?? '')) throw AppError.field('metadata.invoice_uuid', 'is missing');
  }
  return companyId;
}

/** An event about a payment this server did not make: rolled back, answered 200 'ignored'. */
class NotOurs extends Error {}

/** Handles one verified event in one transaction; throws AppError for events refused. */
export async function handleStripeEvent(root: EntityManager, event: Stripe.Event): Promise<Outcome> {
  try {
    return await handle(root, event);
  } catch (err) {
    if (err instanceof NotOurs) return 'ignored';
    throw err;
  }
}

async function handle(root: EntityManager, event: Stripe.Event): Promise<Outcome> {
  if (!HANDLED.has(event.type)) return 'ignored';
  const account = event.account;
  if (!account) throw AppError.field('account', 'is missing: only events of connected accounts are handled');
  const em = root.fork({ clear: true });
  const object = event.data.object as unknown as Record<string, unknown>;
  const session = event.type.startsWith('checkout.session.') ? (object as unknown as Stripe.Checkout.Session) : null;
  let companyId = await companyOf(em, account, session, true);
  let facts: IntentFacts | null = null;
  if (session) {
    // Stripe's refusal of a remembered company's read is answered as a fresh read would refuse it.
    facts = await intentFacts(session, account).catch(async (err: unknown) => {
      await companyOf(em, account, session, false);
      throw err;
    });
    // The usual event in one statement (first-payment.ts); any other by the ledger's transaction
    // below, with the account's company read now (the statement may have declined a remembered one).
    const outcome = await recordFirstPayment(em, companyId, event, session.metadata!.invoice_uuid, facts, sessionStatus(event, session), account);
    if (outcome) return outcome;
    companyId = await companyOf(em, account, session, false);
  }
  const result = await em.transactional(async (txEm): Promise<{ outcome: Outcome; payment?: Payment }> => {
    const tx = stripeContext(txEm as EntityManager, companyId, event.id);
    if (!(await firstTime(tx, event, 'handled'))) return { outcome: 'duplicate' };
    if (session && facts) {
      const status = sessionStatus(event, session);
      const invoice = await lockInvoice(tx, session.metadata!.invoice_uuid, 'metadata.invoice_uuid');
      if (invoice.deletedAt) throw AppError.notFound('Invoice');
      const payment = await recordIntent(tx, invoice, facts, status, account);
      return { outcome: 'handled', payment };
    }
    const intent = idOf(object.payment_intent as string | null);
    const found = intent ? await lockedIntent(tx, intent) : null;
    if (!found) {
      // A charge of one of our sessions whose checkout event is still to come: refused, so Stripe
      // retries it. Anything else (a sale the company made elsewhere, a dispute of one) is not ours.
      const ours = event.type === 'charge.refunded' && !!(object.metadata as Record<string, string> | undefined)?.invoice_uuid;
      if (ours) throw AppError.notFound('Payment of this PaymentIntent');
      throw new NotOurs();
    }
    if (event.type === 'charge.refunded') {
      await applyChargeRefunded(tx, found.invoice, found.payment, Number(object.amount_refunded ?? 0));
    } else {
      const d = object as unknown as Stripe.Dispute;
      await applyDispute(tx, found.invoice, found.payment, { id: d.id, status: d.status, amount: d.amount, reason: d.reason ?? null });
    }
    return { outcome: 'handled' };
  });
  // An excess refund reserved in the transaction is made now, outside it (refund-intents.ts).
  if (result.payment && pendingRefunds(result.payment).length) await settlePayment(stripeOpener(root, companyId, event.id), result.payment);
  return result.outcome;
}
