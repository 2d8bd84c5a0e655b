import type { RequestContext } from '../../data/context';
import { nextSequenceCte } from '../../data/crud';
import { insertParts } from '../../data/entity-sql';
import { runStatement } from '../../data/prepared';
import { companyIs } from '../../data/tenant';
import { centsToDecimal, toCents } from '../../domain/money';
import { AppError } from '../../errors/app-error';
import { companyTodaySql } from '../company/company.rules';
import { Customer } from '../customer/customer.entity';
import { type Balance, completedSumSql, type JobInvoices, jobInvoicesSql, jobPaidAt, settle } from '../invoice/invoice.balance';
import { Invoice, InvoiceStatus } from '../invoice/invoice.entity';
import { PaymentStatus } from '../payment/payment.entity';
import { type IntentFacts, newIntentPayment } from './online-ledger';

// The usual Stripe event, written by hand (docs/payments.md, "Speed"): the first event of a
// PaymentIntent, whose payment fits the invoice's balance. It writes what recordIntent and
// syncInvoice write (test/modules/online-payment/first-payment.spec.ts compares the rows and
// events), in a few prepared statements instead of the ORM's reads and flushes, and it takes the
// company's payment number (a row lock held until commit, which every payment of the company
// waits for) in the statement that inserts the payment, after every read. Anything else (the
// intent has a payment, an excess to refund) is left to recordIntent, before anything is written.

interface Locked {
  customer_uuid: string;
  job_uuid: string | null;
  deleted_at: Date | null;
  status: InvoiceStatus;
  total_amount: string;
  paid_amount: string;
  balance_amount: string;
}

/**
 * Records the intent's first payment on the invoice `invoiceUuid` (locked here, in the caller's
 * transaction) and settles the invoice and its job, as recordIntent would; false, having written
 * nothing, when recordIntent must do it (the invoice then stays locked).
 */
export async function recordFirstPayment(tx: RequestContext, invoiceUuid: string, facts: IntentFacts, status: PaymentStatus, account: string): Promise<boolean> {
  const company = companyIs(tx);
  // The invoice row lock first, as every payment change takes it (src/modules/invoice/invoice.balance.ts).
  const [invoice] = await runStatement<Locked[]>(
    tx.em,
    `select customer_uuid, job_uuid, deleted_at, status, total_amount::text, paid_amount::text, balance_amount::text
       from invoices where uuid = ? and ${company.sql} for update`,
    [invoiceUuid.toLowerCase(), ...company.params],
  );
  if (!invoice) throw AppError.field('metadata.invoice_uuid', 'does not match any invoice of this company');
  if (invoice.deleted_at) throw AppError.notFound('Invoice');
  // Under the lock: whether the intent has a payment (deleted ones too), the others' sum, today.
  const sum = completedSumSql(tx, invoiceUuid.toLowerCase());
  const [read] = await runStatement<{ known: boolean; completed: string; today: string }[]>(
    tx.em,
    `select exists (select 1 from payments where ${company.sql} and transaction_id = ? and payment_details->>'source' = 'stripe') as known,
            (${sum.sql}) as completed, ${companyTodaySql('?')}::text as today`,
    [...company.params, facts.intent, ...sum.params, tx.companyId],
  );
  const others = toCents(read.completed)!;
  const completed = status === PaymentStatus.COMPLETED;
  if (read.known || (completed && facts.amountCents > (toCents(invoice.total_amount)! - others))) return false;

  const payment = newIntentPayment(tx, { invoice: tx.em.getReference(Invoice, invoiceUuid.toLowerCase()), customer: tx.em.getReference(Customer, invoice.customer_uuid) }, facts, account, read.today);
  payment.status = status;
  if (completed) payment.processedAt = new Date();
  // syncInvoice's settle, from the sum read under the lock and this payment.
  const before: Balance = { totalAmountCents: toCents(invoice.total_amount)!, paidAmountCents: toCents(invoice.paid_amount)!, balanceAmountCents: toCents(invoice.balance_amount)!, storedStatus: invoice.status };
  const after = { ...before };
  settle(after, others + (completed ? payment.amountCents : 0));
  const changed = after.paidAmountCents !== before.paidAmountCents || after.balanceAmountCents !== before.balanceAmountCents || after.storedStatus !== before.storedStatus;

  // One statement: the number, the payment, then the invoice (the order of their events, as a flush writes them).
  const sequence = nextSequenceCte(tx, 'payment_number');
  const row = insertParts(tx.em, payment, { paymentNumber: { sql: '"sequence"."value"::text', params: [] } });
  const insert = `insert into payments (${row.columns}) select ${row.values} from "sequence"`;
  const target = companyIs(tx, 'invoices');
  if (changed) {
    await runStatement(
      tx.em,
      `with ${sequence.sql}, "payment" as (${insert} returning 1)
       update invoices set paid_amount = ?, balance_amount = ?, status = ?, updated_at = ? from "payment" where invoices.uuid = ? and ${target.sql}`,
      [...sequence.params, ...row.params, centsToDecimal(after.paidAmountCents), centsToDecimal(after.balanceAmountCents), after.storedStatus, new Date(), invoiceUuid.toLowerCase(), ...target.params],
    );
  } else {
    await runStatement(tx.em, `with ${sequence.sql} ${insert}`, [...sequence.params, ...row.params]);
  }
  if (invoice.job_uuid) await syncJob(tx, invoice.job_uuid);
  return true;
}

/** syncJobPaidAt's work in statements: the job row locked, then its invoices counted, paid_at written when it changes. */
async function syncJob(tx: RequestContext, jobUuid: string): Promise<void> {
  const company = companyIs(tx);
  const [job] = await runStatement<{ paid_at: Date | null }[]>(tx.em, `select paid_at from jobs where uuid = ? and ${company.sql} for update`, [jobUuid, ...company.params]);
  if (!job) return;
  const counts = jobInvoicesSql(tx, jobUuid);
  const [invoices] = await runStatement<JobInvoices[]>(tx.em, counts.sql, counts.params);
  const paidAt = jobPaidAt(job.paid_at, invoices);
  if (paidAt?.getTime() === job.paid_at?.getTime()) return;
  await runStatement(tx.em, `update jobs set paid_at = ?, updated_at = ? where uuid = ? and ${company.sql}`, [paidAt, new Date(), jobUuid, ...company.params]);
}
