import { IsolationLevel } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { REACH_ROWS } from '../../data/reach';
import { liveDefinitions } from '../custom-field/custom-data';
import { CustomFieldResource } from '../custom-field/custom-field.entity';
import { stringify } from 'csv-stringify/sync';
import { once } from 'node:events';
import type { RequestContext } from '../../data/context';
import type { ListConditions } from '../../data/list-where';
import { jsonShapeOf } from '../../data/json-shape';
import { tableOf } from '../../data/columns';
import { companyToday } from '../../data/company-time';
import { AppError } from '../../errors/app-error';
import { restFieldsOf } from '../../schema/fields';
import { withholdsMoney } from '../../schema/withheld';
import { restWriterOf } from '../../rest/case-map';
import type { RouteDef, StreamAnswer } from '../../rest/route';

// Exports (docs/import-export.md): every record a list would show, in its order, streamed from
// one REPEATABLE READ snapshot through a cursor read in batches, at constant memory.

export enum ExportFormat {
  CSV = 'csv',
  NDJSON = 'ndjson',
}

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = { csv: 'text/csv; charset=utf-8', ndjson: 'application/x-ndjson' };

/**
 * Rows fetched from the cursor at a time: the only rows held in memory. Few enough that a batch's
 * rows, records and cells die young: exports of 500,000 customers to CSV (bench/imports.ts) went at
 * 39–40k rows/s in batches of 1,000, 50k in 500, 56k in 200, 55–57k in 100.
 */
export const EXPORT_BATCH = 200;

/** The list's conditions and order for `args`, as its service sets them (RequestContext.exportList). */
async function listOf(ctx: RequestContext, list: RouteDef, args: unknown): Promise<{ entity: Function; conditions: ListConditions }> {
  let captured: { entity: Function; conditions: ListConditions } | undefined;
  // A copy of the context: em and loaders are the request's (getters of its class, read here).
  const probe: RequestContext = { ...ctx, em: ctx.em, loaders: ctx.loaders, exportList: (entity, conditions) => (captured = { entity, conditions }) };
  await list.call(probe, { params: {}, body: undefined, query: args });
  if (!captured) throw new Error(`the list ${list.path} is not read by listPage: it cannot be exported`);
  return captured;
}

/** The REST field names a row of `output` is written with: the CSV header (embedded summaries are not fields). */
export function exportColumns(output: Function): string[] {
  return restFieldsOf(output)
    .filter((f) => f.io === 'out')
    .map((f) => f.restName);
}

/** A REST value as CSV text: JSON fields and objects as JSON text, null as an empty cell. */
function cell(v: unknown): string | number | boolean {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return v as string | number | boolean;
}

/**
 * The export of the list route `list` for its validated `args` in `format`: every matching record,
 * in the list's order, each written as the list writes it (money withheld from a technician).
 */
export async function exportList(ctx: RequestContext, list: RouteDef, args: unknown, format: ExportFormat): Promise<StreamAnswer> {
  const { entity, conditions } = await listOf(ctx, list, args);
  const em = ctx.em;
  const meta = em.getMetadata().find(entity.name)!;
  const shape = jsonShapeOf(em, meta, null);
  if (!shape) throw new AppError('INTERNAL', `${meta.className} cannot be exported`);
  const order = conditions.order ?? `e."created_at" desc, e.${tableKey(meta)} desc`;
  // A technician's jobs are read from their kept reach, whose row the conditions name (src/data/reach.ts).
  const source = conditions.driven ? `"job_reach" as "${REACH_ROWS}" join ${tableOf(meta)} as e on e.${tableKey(meta)} = "${REACH_ROWS}"."job_uuid"` : `${tableOf(meta)} as e`;
  const sql = `declare fsc_export no scroll cursor for select ${shape.build('e')} as r from ${source} where ${conditions.sql} order by ${order}`;
  const write = restWriterOf(list.output, withholdsMoney(ctx.access));
  const columns = await withCustomFieldColumns(ctx, meta.tableName, exportColumns(list.output));
  const filename = `${list.plural}-${await companyToday(ctx)}.${format}`;
  return {
    contentType: EXPORT_CONTENT_TYPES[format],
    filename,
    write: (out) =>
      streamRows(em, sql, conditions.params, async (rows, first) => {
        const records = rows.map((r) => write(shape.map(r)));
        const text =
          format === ExportFormat.CSV
            ? csvText(records.map((o) => columns.map((c) => cell(c.startsWith(CF) ? (o.custom_fields as Record<string, unknown> | undefined)?.[c.slice(CF.length)] : o[c]))), first ? columns : null)
            : records.map((o) => JSON.stringify(o) + '\n').join('');
        if (text && !out.write(text)) await once(out, 'drain');
      }),
  };
}

const CF = 'cf.';

/**
 * CSV text of `rows` (RFC 4180: CRLF between records; a field holding a comma, a quote, a CR or an
 * LF quoted), after a header line of `header` when given. csv-stringify quotes a field with a bare
 * LF only when told to (quote_record_delimiter) once the record delimiter is CRLF.
 */
export function csvText(rows: unknown[][], header: string[] | null): string {
  return stringify(rows, { header: !!header, columns: header ?? undefined, bom: false, record_delimiter: 'windows', quote_record_delimiter: true, cast: { boolean: (b) => String(b) } });
}

/**
 * A CSV's columns with the record's custom fields as one `cf.<key>` column per live definition of
 * the company, in their order, where the list's records have custom fields (docs/import-export.md);
 * NDJSON keeps the `custom_fields` object.
 */
async function withCustomFieldColumns(ctx: RequestContext, table: string, columns: string[]): Promise<string[]> {
  const at = columns.indexOf('custom_fields');
  const resource = Object.values(CustomFieldResource).find((r) => `${r}s` === table);
  if (at < 0 || !resource) return columns;
  const defs = await liveDefinitions(ctx, resource);
  return [...columns.slice(0, at), ...defs.map((d) => `${CF}${d.key}`), ...columns.slice(at + 1)];
}

function tableKey(meta: { primaryKeys: string[]; properties: Record<string, any> }): string {
  return `"${meta.properties[meta.primaryKeys[0]].fieldNames[0]}"`;
}

/**
 * Runs `sql` (a DECLARE of the cursor fsc_export) in a read-only REPEATABLE READ transaction and
 * hands its rows to `each`, EXPORT_BATCH at a time, waiting for it before the next fetch (the
 * response's backpressure). `each` is called once with no rows when there are none (the header).
 */
export async function streamRows(em: EntityManager, sql: string, params: unknown[], each: (rows: unknown[][], first: boolean) => Promise<void>): Promise<void> {
  await em.fork().transactional(
    async (tx) => {
      const conn = tx.getConnection();
      const trx = tx.getTransactionContext();
      await conn.execute(sql, params, 'run', trx);
      let first = true;
      for (;;) {
        const rows = (await conn.execute(`fetch ${EXPORT_BATCH} from fsc_export`, [], 'all', trx)) as Array<{ r: unknown[] }>;
        if (rows.length || first) await each(rows.map((x) => x.r), first);
        first = false;
        if (rows.length < EXPORT_BATCH) break;
      }
      await conn.execute('close fsc_export', [], 'run', trx);
    },
    { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true },
  );
}
