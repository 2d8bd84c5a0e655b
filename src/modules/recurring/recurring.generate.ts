import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../db/orm';
import { systemContext } from '../../data/system-context';
import { fromCents } from '../../domain/money';
import { logger } from '../../logger';
import { mailService } from '../document/mail.service';
import { InvoiceCreateInput } from '../invoice/invoice.inputs';
import { invoiceService } from '../invoice/invoice.service';
import { localParts } from '../visit/visit.time';
import { addDays, nextOccurrence, occurrenceDates, parseRule } from '../schedule/schedule.rrule';
import { RecurringInvoice, RecurringStatus } from './recurring.entity';
import { invoiceBody } from './recurring.service';

// The background half of service agreements (docs/recurring-work.md). An agreement is due when
// 06:00 of its next_issue_date (in its time zone) has come. Each due agreement is claimed alone in
// a transaction (FOR UPDATE SKIP LOCKED: processes running this at once share the agreements),
// and its invoices — every occurrence from next_issue_date to today, the 12 most recent — are
// created through the invoice create in that transaction, numbered as any invoice, with the
// agreement's next_issue_date moved past them. A process killed mid-way commits nothing of that
// agreement; the unique (recurring_invoice_uuid, issue_date) keeps each occurrence single whatever
// happens. Invoices of agreements with auto_send are mailed after the commit.

/** At most this many missed occurrences are created when an agreement is caught up. */
export const MAX_CATCH_UP = 12;
/** The local time an occurrence's invoice is due. */
export const ISSUE_TIME = '06:00';

// The one statement that reads across companies, by design: the worker claims the next due
// agreement of any company (no request, no company scope), and everything after the claim runs in
// that agreement's company's system context (src/data/system-context.ts).
const CLAIM_SQL = `select uuid, company_uuid from recurring_invoices
  where status = 'active' and deleted_at is null and next_issue_date is not null
    and next_issue_date + time '${ISSUE_TIME}' <= (?::timestamptz at time zone timezone)
    and not (uuid = any(?::uuid[]))
  order by next_issue_date, uuid limit 1 for update skip locked`;

/** The last occurrence date whose time has come at `now` in `timezone`. */
export function lastDueDate(timezone: string, now: Date): string {
  const local = localParts(now, timezone);
  return local.time >= ISSUE_TIME ? local.date : addDays(local.date, -1);
}

/**
 * How many agreements one run of the task invoices at once: each a transaction of its own that
 * claims the next due agreement (FOR UPDATE SKIP LOCKED), as processes running the task at the same
 * time share the work. The company's invoice number is still taken one create at a time.
 */
export const ISSUE_PARALLEL = 4;

/** Creates the invoices of every due agreement; returns how many it created. */
export async function issueDue(orm: Orm, now = new Date(), parallel = ISSUE_PARALLEL): Promise<number> {
  let created = 0;
  // Agreements whose invoices failed in this run (a deleted job, say): logged, left for the next run.
  const failed: string[] = [];
  const claimLoop = async () => {
    for (;;) {
      const em = orm.em.fork() as EntityManager;
      let claimed: string | null = null;
      try {
        const done = await em.transactional(async (tx) => {
          const [row] = await tx.getConnection().execute<Array<{ uuid: string; company_uuid: string }>>(CLAIM_SQL, [now.toISOString(), `{${failed.join(',')}}`], 'all', tx.getTransactionContext());
          if (!row) return null;
          claimed = row.uuid;
          const ctx = systemContext(tx as EntityManager, row.company_uuid, 'recurring-invoices');
          const r = await tx.findOneOrFail(RecurringInvoice, { uuid: row.uuid, company: row.company_uuid });
          const rule = parseRule(r.rrule, r.startsOn);
          const last = lastDueDate(r.timezone, now);
          const dates = occurrenceDates(rule, r.nextIssueDate!, last).slice(-MAX_CATCH_UP);
          const body = invoiceBody(r);
          const uuids: string[] = [];
          for (const d of dates) {
            const input = Object.assign(new InvoiceCreateInput(), { ...body, jobUuid: r.jobUuid, customerUuid: r.customerUuid, issueDate: d, dueDate: addDays(d, r.dueDays), notes: r.notes, terms: r.terms, discountAmount: fromCents(r.discountAmountCents) });
            uuids.push((await invoiceService.create(ctx, input, { recurringInvoiceUuid: r.uuid })).uuid);
          }
          r.nextIssueDate = nextOccurrence(rule, addDays(last, 1));
          if (!r.nextIssueDate) r.status = RecurringStatus.ENDED;
          if (uuids.length) r.lastIssuedAt = new Date();
          r.invoicesCount += uuids.length;
          await tx.flush();
          return { companyId: row.company_uuid, uuids, autoSend: r.autoSend };
        });
        if (!done) return;
        created += done.uuids.length;
        if (done.autoSend) await mailAll(orm, done.companyId, done.uuids);
      } catch (err) {
        if (!claimed) throw err;
        logger.warn({ err, recurringInvoice: claimed }, 'recurring invoice: its invoices could not be created; retried at the next run');
        failed.push(claimed);
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
