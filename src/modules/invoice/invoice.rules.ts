import { companyTodaySql } from '../company/company.rules';
import { JobStatus, JobStatusFields, statusChange } from '../job/job.rules';

// The invoice rules that exist in two places or two forms (docs/invoices-and-payments.md), each
// once here: TypeScript for a record in hand, SQL for statements over many rows. Both forms of a
// rule are evaluated over the same fixtures in test/modules/invoice/invoice-rules.spec.ts.

/**
 * Overdue, TS form: a 'Pending' invoice with a balance whose due date is before the company's
 * today. Never a draft or a paid invoice. `stored` is the stored status; `today` unknown: not overdue.
 */
export function isOverdue(stored: string, balance: number, dueDate: string, today: string | null | undefined): boolean {
  return stored === 'Pending' && balance > 0 && !!today && dueDate < today;
}

/** "Today" of the invoice row under `alias`: its company's (src/modules/company/company.rules.ts). */
export const invoiceTodaySql = (alias: string, now?: string): string => companyTodaySql(`${alias}.company_uuid`, now);

/** Overdue, SQL form, on the invoice row under `alias` (`today` an SQL date; the company's today unless given). Never null. */
export const overdueSql = (alias: string, today = invoiceTodaySql(alias)): string =>
  `(${alias}.status = 'Pending' and ${alias}.balance_amount > 0 and ${alias}.due_date < ${today})`;

/** An invoice as the billing rule sees it: its job and whether it is a draft. */
export interface Billing {
  jobUuid: string | null;
  draft: boolean;
}

/**
 * Whether a write bills the invoice's job, for create (`before` null) and update alike: an invoice
 * that is not a draft bills its job when it is new, when a draft is sent, or when it moves to
 * another job. A draft bills nothing.
 */
export function billsJob(before: Billing | null, after: Billing): boolean {
  if (!after.jobUuid || after.draft) return false;
  return before === null || before.draft || before.jobUuid !== after.jobUuid;
}

/**
 * What billing does to the job: a job becomes 'Invoiced' (invoiced_at set while null) unless it is
 * 'Complete', which it stays. Only the fields that change.
 */
export function billedJobChange(job: JobStatusFields, now = new Date()): Partial<JobStatusFields> {
  if (job.status === JobStatus.COMPLETE) return {};
  const next = statusChange(job, JobStatus.INVOICED, now);
  const change: Partial<JobStatusFields> = {};
  for (const key of Object.keys(next) as Array<keyof JobStatusFields>) if (next[key] !== job[key]) (change as Record<string, unknown>)[key] = next[key];
  return change;
}
