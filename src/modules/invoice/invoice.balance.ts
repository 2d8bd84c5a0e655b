import { type Conditions, ofCompany, scopedWhere, type TenantScope } from '../../data/tenant';
import { LockMode } from '@mikro-orm/core';
import type { RequestContext } from '../../data/context';
import { restoreRecord } from '../../data/crud';
import { toCents } from '../../domain/money';
import { isUuid } from '../../domain/values';
import { AppError } from '../../errors/app-error';
import { Job } from '../job/job.entity';
import { Invoice, InvoiceStatus } from './invoice.entity';

// Balances follow payments in the same transaction as the change (docs/invoices-and-payments.md): every payment
// change locks its invoice row first, so concurrent payments on one invoice run one at a time and
// each sees the committed sum of the others.

function exec<T>(tx: RequestContext, sql: string, params: unknown[]): Promise<T[]> {
  return tx.em.getConnection().execute(sql, params, 'all', tx.em.getTransactionContext()) as Promise<T[]>;
}

// Row locks take the row itself and nothing else: the company is a condition (no tenant filter,
// whose joins would lock the customer row as well, FOR UPDATE OF both, and so deadlock with an
// invoice insert that needs that row for its foreign key while holding its job).
const ROW_LOCK = { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true, filters: false } as const;

/** SELECT … FOR UPDATE of the company's invoice (deleted ones too: their payments still change). */
export async function lockInvoice(tx: RequestContext, uuid: string, field = 'invoiceUuid'): Promise<Invoice> {
  if (!tx.em.getTransactionContext()) throw new Error('lockInvoice must run inside a transaction');
  const found = isUuid(uuid) ? await tx.em.findOne(Invoice, { uuid: uuid.toLowerCase(), company: tx.companyId }, ROW_LOCK) : null;
  if (!found) throw AppError.field(field, 'does not match any invoice of this company');
  return found;
}

/** The statement of completedSum (its one column, `amount`, decimal text), for a statement that reads more beside it. */
export function completedSumSql(tx: TenantScope, invoiceUuid: string, exceptPayment?: string): Conditions {
  const scope = scopedWhere(tx);
  return {
    sql: `select coalesce(sum(amount - refunded_amount), 0)::text as amount from payments
     where ${scope.sql} and invoice_uuid = ? and status = 'Completed' and uuid <> coalesce(?::uuid, '00000000-0000-0000-0000-000000000000')`,
    params: [...scope.params, invoiceUuid, exceptPayment ?? null],
  };
}

/** Sum of `amount − refunded_amount` over the invoice's Completed payments that are not deleted, in cents. */
export async function completedSum(tx: RequestContext, invoiceUuid: string, exceptPayment?: string): Promise<number> {
  const { sql, params } = completedSumSql(tx, invoiceUuid, exceptPayment);
  const rows = await exec<{ amount: string }>(tx, sql, params);
  return toCents(rows[0].amount)!;
}

/** What settle reads and writes of an invoice (a managed one, or the columns a statement read). */
export type Balance = Pick<Invoice, 'totalAmountCents' | 'paidAmountCents' | 'balanceAmountCents' | 'storedStatus'>;

/** Balance and status from the paid amount: balance 0 with total > 0 is 'Paid', a balance again 'Pending'. */
export function settle(invoice: Balance, paidCents: number): void {
  invoice.paidAmountCents = paidCents;
  invoice.balanceAmountCents = invoice.totalAmountCents - paidCents;
  if (invoice.storedStatus === InvoiceStatus.DRAFT) return;
  if (invoice.totalAmountCents > 0 && invoice.balanceAmountCents === 0) invoice.storedStatus = InvoiceStatus.PAID;
  else if (invoice.balanceAmountCents > 0) invoice.storedStatus = InvoiceStatus.PENDING;
}

/** Recomputes the locked invoice from its payments (flushed first), then its job's paid_at. */
export async function syncInvoice(tx: RequestContext, invoice: Invoice): Promise<void> {
  await tx.em.flush();
  settle(invoice, await completedSum(tx, invoice.uuid));
  await tx.em.flush();
  await syncJobPaidAt(tx, invoice.jobUuid);
}

/**
 * A job has paid_at while all its invoices that are neither deleted nor drafts (at least one) are
 * 'Paid', and loses it when that stops being true.
 */
export async function syncJobPaidAt(tx: RequestContext, jobUuid: string | null): Promise<void> {
  if (!jobUuid) return;
  await tx.em.flush();
  // The job row first, then the count: changes to invoices of one job (an invoice create locks
  // the job too) take their turns, and each counts the invoices the others committed.
  const job = await tx.em.findOne(Job, ofCompany(tx, { uuid: jobUuid }), ROW_LOCK);
  if (!job) return;
  const { sql, params } = jobInvoicesSql(tx, jobUuid);
  const [counts] = await exec<JobInvoices>(tx, sql, params);
  job.paidAt = jobPaidAt(job.paidAt, counts);
  await tx.em.flush();
}

/** How many of a job's invoices count (neither deleted nor drafts), and how many of them are 'Paid'. */
export interface JobInvoices {
  total: string;
  paid: string;
}

/** The statement of JobInvoices (run once the job row is locked: see syncJobPaidAt). */
export function jobInvoicesSql(tx: TenantScope, jobUuid: string): Conditions {
  const scope = scopedWhere(tx);
  return {
    sql: `select count(*) as total, count(*) filter (where status = 'Paid') as paid from invoices
     where ${scope.sql} and job_uuid = ? and status <> 'Draft'`,
    params: [...scope.params, jobUuid],
  };
}

/** A job's paid_at given its invoices: kept (or now) while all of them, at least one, are 'Paid'; else null. */
export function jobPaidAt(current: Date | null, counts: JobInvoices, now = new Date()): Date | null {
  const allPaid = Number(counts.total) > 0 && counts.total === counts.paid;
  return allPaid ? (current ?? now) : null;
}

/**
 * Restores a deleted invoice under a live customer (docs/invoices-and-payments.md): it counts
 * again for its job's paid_at. Its row lock first, then the job's, as a delete takes them.
 */
export function restoreInvoice(ctx: RequestContext, uuid: string): Promise<Invoice> {
  return restoreRecord(ctx, Invoice, uuid, 'Invoice', {
    parents: [{ relation: 'customer', field: 'customerUuid', label: 'customer' }],
    apply: (tx, invoice) => syncJobPaidAt(tx, invoice.jobUuid),
  });
}
