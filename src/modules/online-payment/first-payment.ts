import type { EntityManager } from '@mikro-orm/postgresql';
import type Stripe from 'stripe';
import { insertObject } from '../../data/entity-sql';
import { runStatement } from '../../data/prepared';
import { companyTodaySql } from '../company/company.rules';
import { actorSetting } from '../event/event.actor';
import { PaymentStatus } from '../payment/payment.entity';
import { type IntentFacts, intentPayment, stripeActor } from './online-ledger';

// The usual Stripe event in one statement (docs/payments.md, "Speed"): the first event of a
// PaymentIntent, whose payment fits the invoice's balance. The database function
// stripe_first_payment (migrations 0044, 0045) writes what the ledger writes (the event's id, then
// recordIntent and syncInvoice: test/modules/online-payment/first-payment.spec.ts compares the rows
// and events) in the statement's own transaction. The company's payment number, whose row lock every
// payment of the company waits for, is taken after the invoice's update and so held for the
// payment's insert, the job's sync and the commit, not for the invoice's write or round trips
// between the server and the database.
// Anything else is left to the ledger, with nothing written.

/** SQLSTATE of stripe_first_payment's refusal: not the usual event (migration 0044). */
const NOT_USUAL = 'FS001';

const isNotUsual = (err: unknown): boolean => {
  const e = err as { code?: string; cause?: { code?: string } } | null;
  return e?.code === NOT_USUAL || e?.cause?.code === NOT_USUAL;
};

/**
 * Records the event `event` (its id, once) with the intent's first payment on the company's invoice
 * `invoiceUuid`, settling the invoice and its job: 'handled', or 'duplicate' for an event already
 * handled. null, having written nothing, when the ledger must do it (an invoice missing or deleted,
 * an intent that has a payment, a Completed payment beyond the balance). Runs outside any transaction.
 */
export async function recordFirstPayment(em: EntityManager, companyId: string, event: Pick<Stripe.Event, 'id' | 'type'>, invoiceUuid: string, facts: IntentFacts, status: PaymentStatus, account: string): Promise<'handled' | 'duplicate' | null> {
  const invoice = invoiceUuid.toLowerCase();
  // The company and the invoice go in as their keys (no entity is made for either). The customer
  // and the number are set by the function (the locked invoice's, the next), the date is the
  // company's today (now(): the statement's transaction's start).
  const payment = intentPayment(facts, account, '');
  payment.status = status;
  if (status === PaymentStatus.COMPLETED) payment.processedAt = new Date();
  const row = insertObject(em, payment, {
    company: { sql: '?::uuid', params: [companyId] },
    invoice: { sql: '?::uuid', params: [invoice] },
    paymentDate: { sql: companyTodaySql('?::uuid'), params: [companyId] },
  });
  try {
    const [result] = await runStatement<{ outcome: 'handled' | 'duplicate' }[]>(
      em,
      `select stripe_first_payment(?::uuid, ?, ?, ?, ?, ?::uuid, ${row.sql}, ?::timestamptz) as outcome`,
      [companyId, event.id, event.type, account, actorSetting(stripeActor(event.id)), invoice, ...row.params, new Date()],
    );
    return result.outcome;
  } catch (err) {
    if (isNotUsual(err)) return null;
    throw err;
  }
}
