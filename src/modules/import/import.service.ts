import { randomUUID } from 'node:crypto';
import { createReadStream, promises as fs } from 'node:fs';
import type { EntityManager } from '@mikro-orm/postgresql';
import { once } from 'node:events';
import { requireScope } from '../../auth/require-scope';
import type { RequestContext } from '../../data/context';
import { isUuid } from '../../domain/values';
import { AppError } from '../../errors/app-error';
import { queueTask } from '../../jobs/engine';
import { logger } from '../../logger';
import { Page, pageOf, pageWindow } from '../../schema/pagination';
import type { StreamAnswer } from '../../rest/route';
import { csvText, streamRows } from '../export/export.service';
import { readLayout } from './import.file';
import { columnFields, ERROR_COLUMNS, matcherOf, targetOf } from './import.targets';
import { IMPORT_TASK, Import, ImportCreateInput, ImportFileFormat, ImportListArgs, ImportMode, ImportStatus } from './import.types';

// Imports (docs/import-export.md): the upload (checked, stored in the database, queued), its
// progress, its failed rows as a file to fix, and cancel. The rows are written by the background
// task (import.run.ts).

/** The file of an import as either surface receives it: staged (stageImportFile) when asked. */
export interface ImportUpload {
  /** The field naming the file in errors (`file`). */
  field: string;
  fileName: string | null;
  stage(): Promise<{ path: string; size: number }>;
}

/**
 * The file goes into the database in pieces of this size. Small ones keep the upload's buffers
 * (the file read's, the driver's message for each piece) small enough to be reused once free: in
 * pieces of 1 MiB a 24 MB file raised the server's RSS by 47 MB that it kept, in 64 KiB by 2 MB.
 */
const CHUNK = 64 * 1024;

const exec = <T>(em: EntityManager, sql: string, params: unknown[], method: 'all' | 'get' | 'run' = 'all') =>
  em.getConnection().execute(sql, params, method, em.getTransactionContext()) as Promise<T>;

const COLUMNS = `uuid, resource, mode, match_on, dry_run, all_or_nothing, file_name, status, message, rows_total, rows_done, created, updated, unchanged, failed, started_at, finished_at, created_at, updated_at`;

function toImport(r: Record<string, unknown>): Import {
  const at = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string));
  return Object.assign(new Import(), {
    uuid: r.uuid,
    resource: r.resource,
    mode: r.mode,
    matchOn: r.match_on,
    dryRun: r.dry_run,
    allOrNothing: r.all_or_nothing,
    fileName: r.file_name,
    status: r.status,
    message: r.message,
    rowsTotal: r.rows_total,
    rowsDone: r.rows_done,
    created: r.created,
    updated: r.updated,
    unchanged: r.unchanged,
    failed: r.failed,
    startedAt: at(r.started_at),
    finishedAt: at(r.finished_at),
    createdAt: at(r.created_at)!,
    updatedAt: at(r.updated_at)!,
  });
}

export const importService = {
  /**
   * Receives the file, checks the options, the format and the header (400 before anything is
   * stored), stores the import with its file and queues it: `queued`, rows_total known.
   */
  async create(ctx: RequestContext, input: ImportCreateInput, upload: ImportUpload): Promise<Import> {
    // Importing writes the resource: the caller needs its write scope besides imports:write.
    requireScope(ctx, `${input.resource}:write`);
    const mode = input.mode ?? ImportMode.CREATE;
    const matchOn = mode === ImportMode.UPSERT ? (input.matchOn ?? 'uuid') : null;
    if (matchOn) {
      const m = matcherOf(input.resource, matchOn);
      if (typeof m === 'string') throw AppError.field('match_on', m);
    } else if (input.matchOn) throw AppError.field('match_on', 'applies to mode upsert only');
    if (input.mapping !== undefined && input.mapping !== null && Object.values(input.mapping).some((v) => v !== null && typeof v !== 'string')) {
      throw AppError.field('mapping', 'must map each column to a field name or null');
    }
    const staged = await upload.stage();
    try {
      const layout = await readLayout(staged.path, upload.field);
      if (!layout.rows) throw AppError.field(upload.field, 'holds no rows');
      if (layout.format === 'csv') columnFields(targetOf(input.resource), layout.columns, input.mapping);
      const uuid = randomUUID();
      const caller = { key_id: ctx.key.id, user_id: ctx.access.userId, role: ctx.access.role, scopes: ctx.access.scopes, request_id: ctx.requestId };
      await ctx.em.fork().transactional(async (tx) => {
        const em = tx as EntityManager;
        await exec(
          em,
          `insert into imports (uuid, company_uuid, resource, mode, match_on, dry_run, all_or_nothing, mapping, format, delimiter, columns, file_name, file_bytes, rows_total, caller)
           values (?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?::jsonb, ?, ?, ?, ?::jsonb)`,
          [uuid, ctx.companyId, input.resource, mode, matchOn, !!input.dryRun, !!input.allOrNothing, input.mapping ? JSON.stringify(input.mapping) : null, layout.format, layout.delimiter, JSON.stringify(layout.columns), upload.fileName, staged.size, layout.rows, JSON.stringify(caller)],
          'run',
        );
        let seq = 0;
        for await (const chunk of createReadStream(staged.path, { highWaterMark: CHUNK })) {
          await exec(em, `insert into import_chunks (import_uuid, seq, data) values (?, ?, ?)`, [uuid, seq++, chunk], 'run');
        }
      });
      // Any process with the engine takes it; if the queue cannot be reached, imports-resume does.
      await queueTask(String(ctx.em.config.get('clientUrl')), IMPORT_TASK, { uuid }).catch((err) => logger.warn({ err, import: uuid }, 'import not queued: the resume task will take it'));
      return this.get(ctx, uuid);
    } finally {
      await fs.rm(staged.path, { force: true });
    }
  },

  async get(ctx: RequestContext, uuid: string): Promise<Import> {
    if (!isUuid(uuid)) throw AppError.notFound('Import');
    const row = await exec<Record<string, unknown> | null>(ctx.em, `select ${COLUMNS} from imports where uuid = ? and company_uuid = ?`, [uuid.toLowerCase(), ctx.companyId], 'get');
    if (!row) throw AppError.notFound('Import');
    return toImport(row);
  },

  /** The company's imports, newest first. */
  async list(ctx: RequestContext, args: ImportListArgs): Promise<Page<Import>> {
    const { page, limit, offset } = pageWindow(args);
    const rows = await exec<Array<Record<string, unknown>>>(ctx.em, `select ${COLUMNS}, count(*) over () as total from imports where company_uuid = ? order by created_at desc, uuid desc limit ? offset ?`, [ctx.companyId, limit, offset]);
    const total = rows.length ? Number(rows[0].total) : (await exec<{ n: string }>(ctx.em, `select count(*) as n from imports where company_uuid = ?`, [ctx.companyId], 'get')).n;
    return pageOf(rows.map(toImport), Number(total), page, limit);
  },

  /** Stops a queued or running import after the batch in progress (what batches wrote stays; dry_run and all_or_nothing write nothing). */
  async cancel(ctx: RequestContext, uuid: string): Promise<Import> {
    const current = await this.get(ctx, uuid);
    const row = await exec<Record<string, unknown> | null>(
      ctx.em,
      `update imports set status = 'cancelled', message = 'cancelled', finished_at = now(), updated_at = now() where uuid = ? and company_uuid = ? and status in ('queued', 'running') returning ${COLUMNS}`,
      [current.uuid, ctx.companyId],
      'get',
    );
    if (!row) throw AppError.field('uuid', `is ${(await this.get(ctx, uuid)).status}: only a queued or running import can be cancelled`);
    return toImport(row);
  },

  /**
   * The failed rows: `json`, one entry per error `{row, field, message, values}`; `csv`, one line
   * per row, the error columns then the row's values as sent: fix it and import it again.
   */
  async errors(ctx: RequestContext, uuid: string, format: ImportFileFormat): Promise<StreamAnswer> {
    const imp = await this.get(ctx, uuid);
    const { columns, format: fileFormat } = await exec<{ columns: string[]; format: string }>(ctx.em, `select columns, format from imports where uuid = ?`, [imp.uuid], 'get');
    const csvFile = fileFormat === 'csv';
    const sql = `declare fsc_export no scroll cursor for select json_build_array(row, errors, "values") as r from import_errors where import_uuid = '${imp.uuid}' order by row`;
    const header = [...ERROR_COLUMNS, ...(csvFile ? columns : ['values'])];
    const valuesOf = (raw: unknown): Record<string, unknown> => (csvFile && Array.isArray(raw) ? Object.fromEntries(columns.map((c, i) => [c, raw[i] ?? null])) : (raw as Record<string, unknown>));
    return {
      contentType: format === ImportFileFormat.CSV ? 'text/csv; charset=utf-8' : 'application/json',
      filename: `import-${imp.uuid}-errors.${format}`,
      async write(out) {
        const put = async (text: string) => {
          if (text && !out.write(text)) await once(out, 'drain');
        };
        let n = 0;
        if (format === ImportFileFormat.JSON) await put('{"success":true,"data":{"errors":[');
        await streamRows(ctx.em, sql, [], async (rows, first) => {
          const parsed = rows as Array<[number, Array<{ field: string; message: string }>, unknown]>;
          if (format === ImportFileFormat.CSV) {
            const lines = parsed.map(([row, errs, raw]) => {
              const values = csvFile && Array.isArray(raw) ? columns.map((_c, i) => (raw[i] as string) ?? '') : [typeof raw === 'string' ? raw : JSON.stringify(raw)];
              return [String(row), errs.map((e) => e.field).join('; '), errs.map((e) => e.message).join('; '), ...values];
            });
            await put(csvText(lines, first ? header : null));
            return;
          }
          const parts: string[] = [];
          for (const [row, errs, raw] of parsed) for (const e of errs) parts.push((n++ ? ',' : '') + JSON.stringify({ row, field: e.field, message: e.message, values: valuesOf(raw) }));
          await put(parts.join(''));
        });
        if (format === ImportFileFormat.JSON) await put(']}}');
      },
    };
  },
};

export { ImportStatus };
