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
  const found = isUuid(uuid) ? await tx.em.findOne(Invoice, { uuid: uuid.toLowerCase(), company: tx.company }, ROW_LOCK) : null;
  if (!found) throw AppError.field(field, 'does not match any invoice of this company');
  return found;
}

/** Sum of `amount` over the invoice's Completed payments that are not deleted, in cents. */
export async function completedSum(tx: RequestContext, invoiceUuid: string, exceptPayment?: string): Promise<number> {
  const rows = await exec<{ amount: string }>(
    tx,
    `select coalesce(sum(amount), 0)::text as amount from payments
     where invoice_uuid = ? and status = 'Completed' and deleted_at is null and uuid <> coalesce(?::uuid, '00000000-0000-0000-0000-000000000000')`,
    [invoiceUuid, exceptPayment ?? null],
  );
  return toCents(rows[0].amount)!;
}

/** Balance and status from the paid amount: balance 0 with total > 0 is 'Paid', a balance again 'Pending'. */
export function settle(invoice: Invoice, paidCents: number): void {
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
  const job = await tx.em.findOne(Job, { uuid: jobUuid, company: tx.company }, ROW_LOCK);
  if (!job) return;
  const [row] = await exec<{ total: string; paid: string }>(
    tx,
    `select count(*) as total, count(*) filter (where status = 'Paid') as paid from invoices
     where job_uuid = ? and company_uuid = ? and deleted_at is null and status <> 'Draft'`,
    [jobUuid, tx.company.uuid],
  );
  const allPaid = Number(row.total) > 0 && row.total === row.paid;
  if (allPaid) job.paidAt ??= new Date();
  else job.paidAt = null;
  await tx.em.flush();
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
