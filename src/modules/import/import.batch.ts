import type { RequestContext } from '../../data/context';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Loaders } from '../../data/loaders';
import { AppError, ErrorDetail } from '../../errors/app-error';
import { asAppError } from '../../errors/db-error';
import { insertLater, PendingInserts } from '../../data/insert';
import { logger } from '../../logger';
import { bodyToInput } from '../../rest/case-map';
import { validateInput } from '../../schema/validation';
import type { FileLayout, FileRecord } from './import.file';
import { changesRecord, Matcher, rowBody, Target, Writers } from './import.targets';
import { liveDefinitions } from '../custom-field/custom-data';
import { CustomFieldResource } from '../custom-field/custom-field.entity';

// One batch of an import's rows (docs/import-export.md), written in the caller's transaction
// (src/modules/import/import.run.ts) through the REST rows' pipelines: in one savepoint, the new
// customers in one multi-row insert, or, when a row fails there, each row in a savepoint of its own.

export interface Counts {
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
}

export interface RowError {
  row: number;
  errors: ErrorDetail[];
  values: unknown;
}

export interface Plan {
  target: Target;
  writers: Writers;
  columns: Map<string, string | null>;
  matcher: Matcher | null;
  layout: FileLayout;
}

/** A failure of a row as its errors: the AppError's details (REST field names), a database refusal's, or one for the row. */
function rowErrors(err: unknown): ErrorDetail[] {
  const app = err instanceof AppError ? err : asAppError(err);
  if (app) return app.details?.length ? app.details : [{ field: 'row', message: app.message }];
  logger.warn({ err }, 'import row failed');
  return [{ field: 'row', message: 'could not be written (an unexpected error)' }];
}

/** A row failed while the batch was written without savepoints: it is written again with them. */
class WithSavepoints extends Error {}

let everyRowInSavepoint = false;

/** Tests: write every batch with a savepoint per row (the plain path the fast one must equal). */
export function alwaysRowSavepoints(on: boolean): void {
  everyRowInSavepoint = on;
}

/**
 * Writes one batch's rows in `tx`: a row with a record to update (match_on) goes through the PUT
 * row when it changes something, else through the POST row. Its counts and failed rows. First
 * the whole batch in one savepoint with no savepoint per row (two statements fewer per row) and
 * the records insertNew makes in one multi-row insert (one statement for the batch's creates);
 * when a row fails there, the batch is rolled back to it and written again with a savepoint and
 * an insert per row, so that a failed row leaves nothing behind. A batch whose rows all succeed is
 * the same either way (test/modules/import/import-batch.spec.ts and import-modes.spec.ts compare them).
 */
export async function writeBatch(tx: RequestContext, plan: Plan, batch: FileRecord[]): Promise<{ counts: Counts; errors: RowError[] }> {
  if (everyRowInSavepoint) return writeRows(tx, plan, batch, true);
  const conn = tx.em.getConnection();
  const trx = tx.em.getTransactionContext();
  await conn.execute('savepoint fsc_import_batch', [], 'run', trx);
  try {
    const out = await writeRows(tx, plan, batch, false);
    await conn.execute('release savepoint fsc_import_batch', [], 'run', trx);
    return out;
  } catch (err) {
    if (!(err instanceof WithSavepoints)) throw err;
    await conn.execute('rollback to savepoint fsc_import_batch', [], 'run', trx);
    return writeRows(tx, plan, batch, true);
  }
}

async function writeRows(batchTx: RequestContext, plan: Plan, batch: FileRecord[], savepoints: boolean): Promise<{ counts: Counts; errors: RowError[] }> {
  // The batch's rows read the custom-field definitions once, in the batch's transaction.
  const tx: RequestContext = { ...batchTx, readOnce: {} };
  const { target, matcher } = plan;
  const counts: Counts = { created: 0, updated: 0, unchanged: 0, failed: 0 };
  const errors: RowError[] = [];
  const fail = (r: FileRecord, details: ErrorDetail[]) => {
    counts.failed++;
    errors.push({ row: r.row, errors: details, values: r.raw });
  };
  const csv = plan.layout.format === 'csv';
  // The custom fields' types, for their columns' cells (cf.<key>).
  const types = new Map<string, string>();
  if (csv && [...plan.columns.values()].some((f) => f?.startsWith('cf.'))) {
    const resource = Object.values(CustomFieldResource).find((r) => `${r}s` === target.resource);
    if (resource) for (const d of await liveDefinitions(tx, resource)) types.set(d.key, d.type);
  }
  const rows: Array<{ r: FileRecord; body: Record<string, unknown>; key: string | null }> = [];
  for (const r of batch) {
    if (r.error || !r.values) {
      fail(r, [{ field: 'row', message: `row ${r.error ?? 'cannot be read'}` }]);
      continue;
    }
    const { body, unknown } = rowBody(target, plan.columns, r.values, csv, types);
    if (unknown.length) {
      fail(r, unknown.map((f) => ({ field: f, message: `${f} is not a known field` })));
      continue;
    }
    const key = matcher ? matcher.key(r.values) : null;
    if (key instanceof Error) {
      fail(r, [{ field: matcher!.column, message: `${matcher!.column} ${key.message}` }]);
      continue;
    }
    rows.push({ r, body, key });
  }
  const keys = [...new Set(rows.map((x) => x.key).filter((k): k is string => !!k))];
  const found = matcher && keys.length ? await matcher.find(tx, target.table, keys) : new Map<string, string[]>();
  const matched = [...found.values()].filter((u) => u.length === 1).map((u) => u[0]);
  const current = new Map<string, Record<string, unknown>>();
  if (matched.length) for (const e of (await fresh(tx.em).find(target.entity as never, { uuid: { $in: matched } } as never)) as Array<Record<string, unknown>>) current.set(e.uuid as string, e);
  // Records this batch created, by key: a later row of the file with the same key updates them.
  const made = new Map<string, string>();
  // Without row savepoints, the records a create inserts by insertNew (customers) wait for one
  // multi-row insert (src/data/insert.ts): written before a row that updates (it may update one of
  // them) and at the batch's end, so that every write happens in the rows' order. A row the
  // database refuses there sends the batch back to be written with savepoints, as a row does.
  const pending = savepoints ? null : new PendingInserts();
  const flush = async () => {
    if (!pending?.size) return;
    try {
      await pending.flush(tx.em);
    } catch {
      throw new WithSavepoints();
    }
  };
  const inOwnRow = (fn: (rowCtx: RequestContext) => Promise<void>) => (pending ? inRow(tx, pending, fn) : inSavepoint(tx, fn));
  for (const { r, body, key } of rows) {
    const uuids = key ? (found.get(key) ?? (made.has(key) ? [made.get(key)!] : [])) : [];
    const updateBody = () => Object.fromEntries(Object.entries(body).filter(([k]) => target.updateFields.has(k)));
    let refused: ErrorDetail[] | null = null;
    if (uuids.length > 1) refused = AppError.field(matcher!.column, `matches ${uuids.length} ${target.resource}: make it unique, or match on uuid`).details!;
    else if (key && !uuids.length && matcher!.missing === 'error') refused = AppError.field(matcher!.column, `does not match any ${target.resource.replace(/s$/, '')} of this company`).details!;
    // Without row savepoints, a row the validation refuses is left out before anything is written
    // (the same conversion and validation its request runs first), so that it does not send the
    // batch back to be written with savepoints.
    else if (!savepoints) refused = uuids.length ? await refusal(target.updateBody, updateBody()) : await refusal(target.createBody, body);
    if (refused) {
      fail(r, refused);
      continue;
    }
    if (uuids.length) await flush();
    try {
      await inOwnRow(async (rowCtx) => {
        if (uuids.length) {
          const input = bodyToInput(target.updateBody, updateBody());
          await validateInput(input, 'rest');
          const record = current.get(uuids[0]) ?? ((await rowCtx.em.findOne(target.entity as never, { uuid: uuids[0] } as never)) as Record<string, unknown> | null);
          if (record && !changesRecord(record, input)) {
            counts.unchanged++;
            return;
          }
          await plan.writers.update(rowCtx, { params: { uuid: uuids[0] }, query: {}, body });
          counts.updated++;
          return;
        }
        const out = await plan.writers.create(rowCtx, { params: {}, query: {}, body });
        counts.created++;
        if (key) made.set(key, ((out as { data: { uuid: string } }).data).uuid);
      });
    } catch (err) {
      if (!savepoints) throw new WithSavepoints();
      fail(r, rowErrors(err));
    }
  }
  await flush();
  return { counts, errors };
}

/** The errors the conversion and validation of a body give (REST names), or null. */
async function refusal(cls: new () => object, body: Record<string, unknown>): Promise<ErrorDetail[] | null> {
  try {
    await validateInput(bodyToInput(cls, body), 'rest');
    return null;
  } catch (err) {
    if (err instanceof AppError) return err.details?.length ? err.details : [{ field: 'row', message: err.message }];
    throw err;
  }
}

/** A fork of `em` in its transaction with an empty identity map (and the same filters, actor and logger context). */
function fresh(em: EntityManager): EntityManager {
  return em.fork({ clear: true, keepTransactionContext: true });
}

/** Runs `fn` for one row with an EntityManager of its own, in the batch's savepoint; the rows it gives insertNew wait in `pending`. */
async function inRow(tx: RequestContext, pending: PendingInserts, fn: (rowCtx: RequestContext) => Promise<void>): Promise<void> {
  const em = fresh(tx.em);
  insertLater(em, pending);
  await fn({ ...tx, em, loaders: new Loaders(em, { companyId: tx.companyId, access: tx.access }) });
}

/**
 * Runs `fn` for one row in a savepoint of the batch's transaction, with an EntityManager of its
 * own: a failed row leaves neither rows nor managed records behind. (A nested em.transactional
 * would copy and flush the batch's whole identity map for every row: quadratic in the batch.)
 */
async function inSavepoint(tx: RequestContext, fn: (rowCtx: RequestContext) => Promise<void>): Promise<void> {
  const em = fresh(tx.em);
  const conn = em.getConnection();
  const trx = em.getTransactionContext();
  await conn.execute('savepoint fsc_import_row', [], 'run', trx);
  try {
    await fn({ ...tx, em, loaders: new Loaders(em, { companyId: tx.companyId, access: tx.access }) });
  } catch (err) {
    await conn.execute('rollback to savepoint fsc_import_row', [], 'run', trx);
    throw err;
  }
  await conn.execute('release savepoint fsc_import_row', [], 'run', trx);
}

