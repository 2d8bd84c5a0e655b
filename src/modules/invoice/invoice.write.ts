import { wrap } from '@mikro-orm/core';
import type { RequestContext } from '../../data/context';
import { aliasedColumns, insertParts, mappedColumns, perMetadata, recordOf } from '../../data/entity-sql';
import { isUuid } from '../../domain/values';
import { leanColumn } from '../../data/list';
import { markClean } from '../../data/orm-adapter';
import { leanRecord } from '../../data/record';
import { runStatement } from '../../data/prepared';
import { actorCte } from '../event/event.actor';
import { Customer } from '../customer/customer.entity';
import { Job } from '../job/job.entity';
import { numberingService } from '../numbering/numbering.service';
import { Invoice, InvoiceStatus } from './invoice.entity';
import { billedJobChange, billsJob } from './invoice.rules';
import { companyTodaySql } from '../company/company.rules';

// The two statements of an invoice create besides the key lookup (invoiceService.create): one
// reads what the create needs (loadParties), one writes the invoice with its job's changes and
// its number (writeNew). Between them the service checks and prices the invoice.

/** The statement of loadParties, written once from the metadata. */
const partiesQuery = perMetadata((metadata) => {
  const jobColumns = mappedColumns(metadata, Job);
  const customerColumns = mappedColumns(metadata, Customer);
  const select = [...aliasedColumns('j', jobColumns), ...aliasedColumns('c', customerColumns), `${companyTodaySql('"j"."company_uuid"')}::text as "company_today"`];
  const sql =
    `select ${select.join(', ')} from "${metadata.get(Job.name).tableName}" as "j" ` +
    `left join "${metadata.get(Customer.name).tableName}" as "c" on "c"."uuid" = ? and "c"."company_uuid" = "j"."company_uuid" and "c"."deleted_at" is null ` +
    `where "j"."uuid" = ? and "j"."company_uuid" = ? and "j"."deleted_at" is null`;
  return { sql, jobColumns, customerColumns };
});

/**
 * What a create needs besides the body, in one statement: the job, the customer sent, and the
 * company's today as invoices read it (companyTodaySql, src/modules/company/company.rules.ts). Both records must be the company's and
 * not deleted, as resolveRef requires; null when one is not (the caller then resolves them one by
 * one). They are lean instances (src/data/record.ts), not managed entities: em.map's hydration,
 * identity map and change tracking of the two, and then references to them, were about 0.3 ms of
 * the server's CPU per create (docs/benchmark.md, "Invoice create"). The new invoice, which is not
 * a managed entity and is written by hand (writeNew), holds them as its job and customer and reads
 * only their keys; the request's loaders answer them (Loaders.written); writeNew updates a managed
 * job the request already holds.
 */
export async function loadParties(tx: RequestContext, jobUuid: string, customerUuid: string): Promise<{ job: Job; customer: Customer; today: string } | null> {
  if (!isUuid(jobUuid) || !isUuid(customerUuid)) return null;
  const q = partiesQuery(tx.em.getMetadata());
  // Prepared (src/data/prepared.ts): one text, planned once per connection.
  const [row] = await runStatement<Record<string, unknown>[]>(tx.em, q.sql, [customerUuid.toLowerCase(), jobUuid.toLowerCase(), tx.companyId]);
  if (!row || row.c__uuid === null) return null;
  const customer = leanRecord(tx.em, Customer, recordOf(row, 'c', q.customerColumns));
  const job = leanRecord(tx.em, Job, recordOf(row, 'j', q.jobColumns));
  return { job, customer, today: row.company_today as string };
}

/**
 * What a new invoice changes on its job; nothing for a draft, which does not count (docs/invoices-and-payments.md).
 * The billing rule of update too (billsJob, billedJobChange in invoice.rules.ts), and the job has no
 * paid_at: a new invoice has no payments, so it is not 'Paid', even with a total of 0.
 */
function jobChange(job: Job, invoice: Invoice): Partial<Job> {
  if (!billsJob(null, { jobUuid: job.uuid, draft: invoice.storedStatus === InvoiceStatus.DRAFT })) return {};
  const change: Partial<Job> = billedJobChange(job);
  change.paidAt = null;
  const same = (a: unknown, b: unknown) => (a instanceof Date && b instanceof Date ? a.getTime() === b.getTime() : a === b);
  for (const key of Object.keys(change) as Array<keyof Job>) if (same(change[key], job[key])) delete change[key];
  return change;
}


/**
 * Writes a new invoice in one statement, with its job's changes (jobChange; `job` as the create read it), so that neither
 * happens without the other. The job row, as it was read (same updated_at), is updated, or only
 * locked when nothing changes; the invoice is inserted with its number assigned in the same
 * statement (numbering_assign, after the job). The company's numbering row is thus locked only
 * while this statement runs and commits, and a failed create uses no number. The job row lock
 * keeps paid_at right: a payment on another invoice of the job locks it before it counts
 * (syncJobPaidAt). Returns false, having written nothing, when the job changed since it was read.
 */
export async function writeNew(ctx: RequestContext, invoice: Invoice, job: Job | null): Promise<boolean> {
  const em = ctx.em;
  if (!job) return writeWithoutJob(ctx, invoice);
  const change = jobChange(job, invoice);
  const changed = Object.keys(change).length > 0;
  if (changed) change.updatedAt = new Date();
  const col = (property: string) => leanColumn(em, Job, property);
  const sets = Object.keys(change).map((key) => `${col(key)} = ?`);
  const asRead = `${col('uuid')} = ? and ${col('company')} = ? and ${col('updatedAt')} = ?`;
  const table = `"${em.getMetadata().get(Job.name).tableName}"`;
  const jobSql = changed ? `update ${table} set ${sets.join(', ')} where ${asRead} returning 1` : `select 1 from ${table} where ${asRead} for update`;
  const row = insertParts(em, invoice, { invoiceNumber: numberingService.assignSql(ctx, 'invoice') });
  // Outside a transaction the statement runs in autocommit: it sets the request's actor itself, for
  // the event its trigger writes (as src/data/insert.ts does; docs/events.md).
  const actor = actorCte(em);
  const sql = `with ${actor ? `${actor.sql}, ` : ''}"job" as (${jobSql}) insert into "invoices" (${row.columns}) select ${row.values} from "job"${actor ? ', "actor"' : ''} returning "invoice_number"`;
  const params = [...(actor?.params ?? []), ...Object.values(change), job.uuid, ctx.companyId, job.updatedAt, ...row.params];
  // Prepared (src/data/prepared.ts): a few texts (with or without the actor, the job's changed
  // columns), each planned once per connection; the values travel as parameters.
  const [written] = await runStatement<{ invoice_number: string }[]>(em, sql, params);
  if (!written) return false;
  invoice.invoiceNumber = written.invoice_number;
  if (changed) {
    // The job as read (lean, or the managed entity), and a managed job the request holds (a
    // conversion's, src/modules/conversion/conversion.service.ts), as the statement left it; the
    // managed one clean: no flush writes it again.
    Object.assign(job, change);
    const held = em.getUnitOfWork().getById(Job.name, job.uuid as never) as Job | undefined;
    if (held && wrap(held).isInitialized()) {
      if (held !== job) Object.assign(held, change);
      markClean(em, held);
    }
  }
  return true;
}

/**
 * An invoice of no job (a deposit asked when an estimate is accepted, docs/payments.md): the same
 * insert with its number assigned in the statement, and no job to change.
 */
async function writeWithoutJob(ctx: RequestContext, invoice: Invoice): Promise<boolean> {
  const row = insertParts(ctx.em, invoice, { invoiceNumber: numberingService.assignSql(ctx, 'invoice') });
  const actor = actorCte(ctx.em);
  const sql = `${actor ? `with ${actor.sql} ` : ''}insert into "invoices" (${row.columns}) select ${row.values}${actor ? ' from "actor"' : ''} returning "invoice_number"`;
  const [written] = await runStatement<{ invoice_number: string }[]>(ctx.em, sql, [...(actor?.params ?? []), ...row.params]);
  invoice.invoiceNumber = written.invoice_number;
  return true;
}
