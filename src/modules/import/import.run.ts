import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { Readable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../db/orm';
import { TENANT_FILTER } from '../../data/base.entity';
import { inTransaction, RequestContext } from '../../data/context';
import { Loaders } from '../../data/loaders';
import { holdToReach } from '../../data/reach';
import { callerOf, KeyScope, Role } from '../../domain/scopes';
import { AppError } from '../../errors/app-error';
import { logger } from '../../logger';
import type { RouteDef } from '../../rest/route';
import { ApiKey } from '../api-key/api-key.entity';
import { Company } from '../company/company.entity';
import { actAs } from '../event/event.actor';
import { User } from '../user/user.entity';
import { FileLayout, FileRecord, records } from './import.file';
import { Counts, Plan, RowError, writeBatch } from './import.batch';
import { columnFields, matcherOf, targetOf, writersOf } from './import.targets';
import { ImportResource } from './import.types';

// The background work of an import (docs/import-export.md). A process claims the import (its
// `worker` and a heartbeat), reads the file from the database and writes it in batches: each
// batch in one transaction that first locks the import's row and checks that this process still
// holds it at the row where it left off, writes the batch's records (src/modules/import/import.batch.ts),
// its failed rows and the new counts, and commits all of it together. A process killed mid-batch
// loses the batch's transaction whole; the next one resumes at rows_done, so no row is written
// twice. dry_run and all_or_nothing run in one transaction, rolled back unless it all succeeded.

/** Rows per batch transaction. */
export const IMPORT_BATCH = 500;
let batchRows = IMPORT_BATCH;

/** Tests: batches of `rows` (IMPORT_BATCH again without it), so that a short file makes several batches. */
export function importBatchRows(rows?: number): void {
  batchRows = rows ?? IMPORT_BATCH;
}

/** A running import whose heartbeat is older than this is taken over by another process. */
export const staleSeconds = () => Number(process.env.IMPORT_STALE_SECONDS ?? 60);

interface ImportRow {
  uuid: string;
  company_uuid: string;
  resource: ImportResource;
  mode: 'create' | 'upsert';
  match_on: string | null;
  dry_run: boolean;
  all_or_nothing: boolean;
  mapping: Record<string, unknown> | null;
  format: 'csv' | 'ndjson';
  delimiter: string | null;
  columns: string[];
  rows_total: number;
  rows_done: number;
  caller: { key_id: string; user_id: string; role: Role; scopes: KeyScope[]; request_id: string };
}

const exec = <T>(em: EntityManager, sql: string, params: unknown[], method: 'all' | 'get' | 'run' = 'all') =>
  em.getConnection().execute(sql, params, method, em.getTransactionContext()) as Promise<T>;

/** The context an import's rows are written in: its company, and the rights and actor of the key that uploaded it. */
function importContext(em: EntityManager, imp: ImportRow): RequestContext {
  const companyId = imp.company_uuid;
  const access = callerOf(imp.caller.user_id, imp.caller.role, imp.caller.scopes);
  em.setFilterParams(TENANT_FILTER, { companyId });
  holdToReach(em, { companyId, access });
  // Rows write events like any change, with the uploading key as actor (docs/events.md).
  actAs(em, { type: 'api_key', key_id: imp.caller.key_id, user_id: imp.caller.user_id, request_id: imp.caller.request_id });
  const key = { id: imp.caller.key_id, allowedIps: null, usageLimit: null, usagePeriod: null, lastUsedAt: null } as unknown as RequestContext['key'];
  return {
    requestId: imp.caller.request_id,
    companyId,
    key,
    access,
    company: em.getReference(Company, companyId),
    user: em.getReference(User, imp.caller.user_id),
    apiKey: em.getReference(ApiKey, imp.caller.key_id as never),
    em,
    loaders: new Loaders(em, { companyId, access }),
  };
}

/** The file of an import, read back chunk by chunk. */
function fileOf(orm: Orm, uuid: string): Readable {
  let seq = 0;
  return Readable.from(
    (async function* () {
      for (;;) {
        const row = await exec<{ data: Buffer } | null>(orm.em.fork(), `select data from import_chunks where import_uuid = ? and seq = ?`, [uuid, seq++], 'get');
        if (!row) return;
        yield row.data;
      }
    })(),
  );
}

async function* batchesOf(source: AsyncIterable<FileRecord>, size: number, skip: number): AsyncGenerator<FileRecord[]> {
  let batch: FileRecord[] = [];
  let n = 0;
  for await (const r of source) {
    if (n++ < skip) continue;
    batch.push(r);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

/** Claims the import for this process: queued, or running with a stale heartbeat. The atomic modes start again from the first row. */
async function claim(orm: Orm, uuid: string, worker: string): Promise<ImportRow | null> {
  const restart = `case when dry_run or all_or_nothing then 0 else`;
  return exec<ImportRow | null>(
    orm.em.fork(),
    `update imports set status = 'running', worker = ?, heartbeat_at = now(), started_at = coalesce(started_at, now()), updated_at = now(),
       rows_done = ${restart} rows_done end, created = ${restart} created end, updated = ${restart} updated end,
       unchanged = ${restart} unchanged end, failed = ${restart} failed end
     where uuid = ? and (status = 'queued' or (status = 'running' and (heartbeat_at is null or heartbeat_at < now() - make_interval(secs => ?))))
     returning *`,
    [worker, uuid, staleSeconds()],
    'get',
  );
}

/** Runs the import `uuid` in this process if no live process holds it (the task's handler), with the REST rows of `table`. */
export async function runImport(orm: Orm, uuid: string, table: RouteDef[]): Promise<void> {
  const worker = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const imp = await claim(orm, uuid, worker);
  if (!imp) return;
  const beat = setInterval(
    () => void exec(orm.em.fork(), `update imports set heartbeat_at = now() where uuid = ? and worker = ?`, [uuid, worker], 'run').catch(() => undefined),
    Math.max(500, (staleSeconds() * 1000) / 4),
  );
  try {
    if (imp.dry_run || imp.all_or_nothing) await runAtomic(orm, imp, worker, table);
    else await runInBatches(orm, imp, worker, table);
  } catch (err) {
    logger.warn({ err, import: uuid }, 'import failed');
    const message = err instanceof AppError ? err.message : 'the import stopped on an unexpected error';
    await exec(orm.em.fork(), `update imports set status = 'failed', message = ?, finished_at = now(), updated_at = now() where uuid = ? and worker = ? and status = 'running'`, [message, uuid, worker], 'run');
  } finally {
    clearInterval(beat);
  }
}

/** Takes over the imports no process is working: queued ones whose job was lost, running ones with a stale heartbeat. */
export async function resumeImports(orm: Orm, table: RouteDef[]): Promise<void> {
  const open = await exec<Array<{ uuid: string }>>(
    orm.em.fork(),
    `select uuid from imports where status in ('queued', 'running') and coalesce(heartbeat_at, created_at) < now() - make_interval(secs => ?) order by created_at`,
    [staleSeconds()],
  );
  for (const { uuid } of open) await runImport(orm, uuid, table);
}

function planOf(imp: ImportRow, table: RouteDef[]): Plan {
  const target = targetOf(imp.resource);
  const writers = writersOf(imp.resource, table);
  const layout: FileLayout = { format: imp.format, delimiter: imp.delimiter, columns: imp.columns, rows: imp.rows_total };
  const columns = imp.format === 'csv' ? columnFields(target, imp.columns, imp.mapping) : new Map<string, string | null>();
  const m = imp.mode === 'upsert' ? matcherOf(imp.resource, imp.match_on ?? 'uuid') : null;
  if (typeof m === 'string') throw AppError.field('match_on', m);
  return { target, writers, columns, matcher: m, layout };
}

async function runInBatches(orm: Orm, imp: ImportRow, worker: string, table: RouteDef[]): Promise<void> {
  const plan = planOf(imp, table);
  let done = imp.rows_done;
  for await (const batch of batchesOf(records(fileOf(orm, imp.uuid), plan.layout), batchRows, done)) {
    const ctx = importContext(orm.em.fork({ clear: true }), imp);
    const kept = await inTransaction(ctx, async (tx) => {
      // This process still holds the import, at the row it left off (else another took it over, or it was cancelled).
      const cur = await exec<{ status: string; worker: string; rows_done: number }>(tx.em, `select status, worker, rows_done from imports where uuid = ? for update`, [imp.uuid], 'get');
      if (cur.status !== 'running' || cur.worker !== worker || cur.rows_done !== done) return false;
      const { counts, errors } = await writeBatch(tx, plan, batch);
      await saveErrors(tx.em, imp.uuid, errors);
      await exec(
        tx.em,
        `update imports set rows_done = rows_done + ?, created = created + ?, updated = updated + ?, unchanged = unchanged + ?, failed = failed + ?, heartbeat_at = now(), updated_at = now() where uuid = ?`,
        [batch.length, counts.created, counts.updated, counts.unchanged, counts.failed, imp.uuid],
        'run',
      );
      return true;
    });
    if (!kept) return;
    done += batch.length;
  }
  await exec(orm.em.fork(), `update imports set status = 'succeeded', finished_at = now(), updated_at = now() where uuid = ? and worker = ? and status = 'running'`, [imp.uuid, worker], 'run');
}

class Rollback extends Error {}

async function runAtomic(orm: Orm, imp: ImportRow, worker: string, table: RouteDef[]): Promise<void> {
  const plan = planOf(imp, table);
  const total: Counts = { created: 0, updated: 0, unchanged: 0, failed: 0 };
  const errors: RowError[] = [];
  let done = 0;
  let stopped: 'cancelled' | 'lost' | null = null;
  const ctx = importContext(orm.em.fork({ clear: true }), imp);
  try {
    await inTransaction(ctx, async (tx) => {
      for await (const batch of batchesOf(records(fileOf(orm, imp.uuid), plan.layout), batchRows, 0)) {
        const cur = await exec<{ status: string; worker: string }>(orm.em.fork(), `select status, worker from imports where uuid = ?`, [imp.uuid], 'get');
        if (cur.status !== 'running' || cur.worker !== worker) {
          stopped = cur.status === 'cancelled' ? 'cancelled' : 'lost';
          throw new Rollback();
        }
        const r = await writeBatch(tx, plan, batch);
        for (const k of Object.keys(total) as Array<keyof Counts>) total[k] += r.counts[k];
        errors.push(...r.errors);
        done += batch.length;
        tx.em.clear();
        // Progress shows from outside the transaction (its rows do not, until it commits).
        await exec(orm.em.fork(), `update imports set rows_done = ?, failed = ?, heartbeat_at = now(), updated_at = now() where uuid = ? and worker = ?`, [done, total.failed, imp.uuid, worker], 'run');
      }
      if (imp.dry_run || errors.length) throw new Rollback();
    });
  } catch (err) {
    if (!(err instanceof Rollback)) throw err;
  }
  if (stopped) return;
  const rejected = imp.all_or_nothing && !imp.dry_run && errors.length > 0;
  const written = rejected ? { created: 0, updated: 0, unchanged: 0 } : total;
  const message = rejected ? `nothing was written: ${errors.length} rows failed (all_or_nothing)` : null;
  const em = orm.em.fork();
  await em.transactional(async (tx) => {
    const cur = await exec<{ status: string; worker: string }>(tx as EntityManager, `select status, worker from imports where uuid = ? for update`, [imp.uuid], 'get');
    if (cur.status !== 'running' || cur.worker !== worker) return;
    await saveErrors(tx as EntityManager, imp.uuid, errors);
    await exec(
      tx as EntityManager,
      `update imports set status = ?, message = ?, rows_done = ?, created = ?, updated = ?, unchanged = ?, failed = ?, finished_at = now(), updated_at = now() where uuid = ?`,
      [rejected ? 'failed' : 'succeeded', message, done, written.created, written.updated, written.unchanged, total.failed, imp.uuid],
      'run',
    );
  });
}

async function saveErrors(em: EntityManager, uuid: string, errors: RowError[]): Promise<void> {
  for (let i = 0; i < errors.length; i += 1000) {
    const part = errors.slice(i, i + 1000);
    await exec(
      em,
      `insert into import_errors (import_uuid, row, errors, "values") select ?, (x->>'row')::int, x->'errors', x->'values' from jsonb_array_elements(?::jsonb) as x on conflict do nothing`,
      [uuid, JSON.stringify(part)],
      'run',
    );
  }
}
