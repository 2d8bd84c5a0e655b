import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../db/orm';
import { systemContext } from '../../data/system-context';
import { fromCents } from '../../domain/money';
import { logger } from '../../logger';
import { mailService } from '../document/mail.service';
import { InvoiceCreateInput } from '../invoice/invoice.inputs';
import { BuiltInvoice, invoiceService } from '../invoice/invoice.service';
import { localParts } from '../visit/visit.time';
import { addDays, nextOccurrence, occurrenceDates, parseRule } from '../schedule/schedule.rrule';
import { RecurringInvoice, RecurringStatus } from './recurring.entity';
import { invoiceBody } from './recurring.service';

// The background half of service agreements (docs/recurring-work.md). An agreement is due when
// 06:00 of its next_issue_date (in its time zone) has come. Due agreements are claimed in
// transactions (FOR UPDATE SKIP LOCKED: processes running this at once share the agreements), up
// to ISSUE_BATCH of one company in each, and each agreement's invoices — every occurrence from
// next_issue_date to today, the 12 most recent — are created through the invoice create in that
// transaction, numbered as any invoice, with the agreement's next_issue_date moved past them. A
// process killed mid-way commits nothing of the agreements it held; the unique
// (recurring_invoice_uuid, issue_date) keeps each occurrence single whatever happens. Invoices of
// agreements with auto_send are mailed after the commit.

/** At most this many missed occurrences are created when an agreement is caught up. */
export const MAX_CATCH_UP = 12;
/** The local time an occurrence's invoice is due. */
export const ISSUE_TIME = '06:00';

/** An agreement due at the statement's first parameter (a timestamp): 06:00 of its next date, in its time zone, has come. */
const DUE = `status = 'active' and deleted_at is null and next_issue_date is not null
    and next_issue_date + time '${ISSUE_TIME}' <= (?::timestamptz at time zone timezone)`;

// The one statement that reads across companies, by design: the worker claims the next due
// agreement of any company (no request, no company scope), and everything after the claim runs in
// that agreement's company's system context (src/data/system-context.ts).
const CLAIM_SQL = `select uuid, company_uuid from recurring_invoices
  where ${DUE} and not (uuid = any(?::uuid[]))
  order by next_issue_date, uuid limit 1 for update skip locked`;

// More due agreements of the company the first claim found, for the same transaction (a batch).
const CLAIM_MORE_SQL = `select uuid from recurring_invoices
  where ${DUE} and company_uuid = ? and not (uuid = any(?::uuid[]))
  order by next_issue_date, uuid limit ? for update skip locked`;

// One agreement of a company again, by its key, when it is still due (a batch's fallback, below).
const CLAIM_ONE_SQL = `select uuid, company_uuid from recurring_invoices
  where ${DUE} and company_uuid = ? and uuid = ?
  for update skip locked`;

/** The last occurrence date whose time has come at `now` in `timezone`. */
export function lastDueDate(timezone: string, now: Date): string {
  const local = localParts(now, timezone);
  return local.time >= ISSUE_TIME ? local.date : addDays(local.date, -1);
}

/**
 * How many agreements one run of the task invoices at once: each a transaction of its own that
 * claims the next due agreements (FOR UPDATE SKIP LOCKED), as processes running the task at the
 * same time share the work. The company's invoice number is still taken one create at a time.
 */
export const ISSUE_PARALLEL = 4;

/**
 * How many due agreements of one company one transaction invoices (a batch). The company's
 * invoice-number lock is held from the first invoice's number to the commit, so one transaction
 * per agreement spent a commit and the agreement's update under that lock for every invoice;
 * a batch reads and prices all its invoices first and takes the lock only to write them.
 * 1: one agreement per transaction (the plain path, which a batch falls back to).
 */
export const ISSUE_BATCH = 25;

type Claimed = { uuid: string; company_uuid: string };
/** What one committed transaction issued, for the count and auto_send. */
type Issued = Array<{ uuid: string; invoices: string[]; autoSend: boolean }>;

const rows = <T>(tx: EntityManager, sql: string, params: unknown[]) => tx.getConnection().execute<T[]>(sql, params, 'all', tx.getTransactionContext());

/** The occurrences an agreement invoices at `now`: from next_issue_date to the last due, the 12 most recent. */
function plan(r: RecurringInvoice, now: Date) {
  const rule = parseRule(r.rrule, r.startsOn);
  const last = lastDueDate(r.timezone, now);
  return { rule, last, dates: occurrenceDates(rule, r.nextIssueDate!, last).slice(-MAX_CATCH_UP) };
}

/** The invoice create's body of an agreement's occurrence `date`. */
function inputFor(r: RecurringInvoice, date: string): InvoiceCreateInput {
  const body = invoiceBody(r);
  return Object.assign(new InvoiceCreateInput(), { ...body, jobUuid: r.jobUuid, customerUuid: r.customerUuid, issueDate: date, dueDate: addDays(date, r.dueDays), notes: r.notes, terms: r.terms, discountAmount: fromCents(r.discountAmountCents) });
}

/** The agreement after `issued` invoices of the plan: its next date past today's, ended when there is none. */
function advance(r: RecurringInvoice, p: ReturnType<typeof plan>, issued: number): void {
  r.nextIssueDate = nextOccurrence(p.rule, addDays(p.last, 1));
  if (!r.nextIssueDate) r.status = RecurringStatus.ENDED;
  if (issued) r.lastIssuedAt = new Date();
  r.invoicesCount += issued;
}

/** One claimed agreement, its invoices created one after the other (the plain path). */
async function issueOne(tx: EntityManager, row: Claimed, now: Date): Promise<Issued> {
  const ctx = systemContext(tx, row.company_uuid, 'recurring-invoices');
  const r = await tx.findOneOrFail(RecurringInvoice, { uuid: row.uuid, company: row.company_uuid });
  const p = plan(r, now);
  const invoices: string[] = [];
  for (const d of p.dates) invoices.push((await invoiceService.create(ctx, inputFor(r, d), { recurringInvoiceUuid: r.uuid })).uuid);
  advance(r, p, invoices.length);
  await tx.flush();
  return [{ uuid: r.uuid, invoices, autoSend: r.autoSend }];
}

/**
 * Claimed agreements of one company (in claim order), in one transaction: every invoice is built
 * first (read, checked, priced: invoiceService.build), then their jobs are locked in key order,
 * then each invoice is written (invoiceService.write: one statement, its number taken there), in
 * claim order and date order, and the agreements are updated in one flush. The company's number
 * lock is thus held from the first write to the commit, not through the reads; the jobs locked
 * before it, in one order, keep two batches whose agreements share jobs from deadlocking. All or
 * nothing: any error rolls the whole batch back, and the caller issues its agreements one by one.
 */
async function issueBatch(tx: EntityManager, companyId: string, uuids: string[], now: Date): Promise<Issued> {
  const ctx = systemContext(tx, companyId, 'recurring-invoices');
  const found = await tx.find(RecurringInvoice, { uuid: { $in: uuids }, company: companyId });
  const agreements = uuids.map((u) => found.find((r) => r.uuid === u)!);
  const plans = agreements.map((r) => plan(r, now));
  const built: BuiltInvoice[][] = [];
  for (const [i, r] of agreements.entries()) {
    const mine: BuiltInvoice[] = [];
    for (const d of plans[i].dates) mine.push(await invoiceService.build(ctx, inputFor(r, d), { recurringInvoiceUuid: r.uuid }));
    built.push(mine);
  }
  const jobs = [...new Set(built.flat().map((b) => b.job?.uuid).filter((u): u is string => !!u))].sort();
  if (jobs.length) await rows(tx, `select 1 from jobs where company_uuid = ? and uuid = any(?::uuid[]) order by uuid for update`, [companyId, `{${jobs.join(',')}}`]);
  const issued: Issued = [];
  for (const [i, r] of agreements.entries()) {
    const invoices: string[] = [];
    // An invoice whose job an earlier one of the batch changed (two occurrences of one agreement,
    // two agreements of one job) is built again by write, as a create whose job changed is.
    for (const b of built[i]) invoices.push((await invoiceService.write(ctx, b)).uuid);
    advance(r, plans[i], invoices.length);
    issued.push({ uuid: r.uuid, invoices, autoSend: r.autoSend });
  }
  await tx.flush();
  return issued;
}

/** Creates the invoices of every due agreement; returns how many it created. */
export async function issueDue(orm: Orm, now = new Date(), parallel = ISSUE_PARALLEL, batch = ISSUE_BATCH): Promise<number> {
  let created = 0;
  // Agreements whose invoices failed in this run (a deleted job, say): logged, left for the next run.
  const failed: string[] = [];
  const excluded = () => `{${failed.join(',')}}`;
  const committed = async (companyId: string, issued: Issued) => {
    for (const a of issued) {
      created += a.invoices.length;
      if (a.autoSend) await mailAll(orm, companyId, a.invoices);
    }
  };
  /** One agreement in a transaction of its own: the plain path, and a failed batch's fallback. */
  const single = async (claim: (tx: EntityManager) => Promise<Claimed | undefined>): Promise<boolean> => {
    let claimed: Claimed | undefined;
    try {
      const issued = await (orm.em.fork() as EntityManager).transactional(async (tx) => {
        claimed = await claim(tx);
        return claimed ? issueOne(tx, claimed, now) : null;
      });
      if (!issued) return false;
      await committed(claimed!.company_uuid, issued);
    } catch (err) {
      if (!claimed) throw err;
      logger.warn({ err, recurringInvoice: claimed.uuid }, 'recurring invoice: its invoices could not be created; retried at the next run');
      failed.push(claimed.uuid);
    }
    return true;
  };
  const claimNext = async (tx: EntityManager) => (await rows<Claimed>(tx, CLAIM_SQL, [now.toISOString(), excluded()]))[0];
  const claimLoop = async () => {
    for (;;) {
      if (batch <= 1) {
        if (!(await single(claimNext))) return;
        continue;
      }
      // The batch this transaction claimed, known to the catch below.
      const held: { companyId?: string; uuids: string[] } = { uuids: [] };
      try {
        const issued = await (orm.em.fork() as EntityManager).transactional(async (tx) => {
          const first = await claimNext(tx);
          if (!first) return null;
          const more = await rows<{ uuid: string }>(tx, CLAIM_MORE_SQL, [now.toISOString(), first.company_uuid, `{${[...failed, first.uuid].join(',')}}`, batch - 1]);
          held.companyId = first.company_uuid;
          held.uuids = [first.uuid, ...more.map((m) => m.uuid)];
          return issueBatch(tx, first.company_uuid, held.uuids, now);
        });
        if (!issued) return;
        await committed(held.companyId!, issued);
      } catch (err) {
        if (!held.uuids.length) throw err;
        // Rolled back whole: each agreement again in a transaction of its own, so that the one at
        // fault fails alone (logged, and left for the next run) and the others are invoiced. One
        // no longer due (another process took it meanwhile) is left alone.
        logger.info({ err, recurringInvoices: held.uuids.length }, 'recurring invoices: a batch failed; its agreements are issued one by one');
        for (const uuid of held.uuids) await single(async (tx) => (await rows<Claimed>(tx, CLAIM_ONE_SQL, [now.toISOString(), held.companyId, uuid]))[0]);
      }
    }
  };
  // A loop ends when it finds nothing due; the others finish the agreements they hold.
  await Promise.all(Array.from({ length: Math.max(1, parallel) }, claimLoop));
  return created;
}

/** Mails each invoice to its customer (the document mail of POST /invoices/{uuid}/send). */
async function mailAll(orm: Orm, companyId: string, uuids: string[]): Promise<void> {
  for (const uuid of uuids) {
    const ctx = systemContext(orm.em.fork() as EntityManager, companyId, 'recurring-invoices');
    await mailService.send(ctx, 'invoice', uuid, null).catch((err) => logger.warn({ err, invoice: uuid }, 'recurring invoice: auto_send failed'));
  }
}
