import { fieldsOf, InputField } from '../schema/fields';
import { EXPORT_CONTENT_TYPES, ExportFormat, exportList } from '../modules/export/export.service';
import type { RouteDef } from './route';

// The export routes (docs/import-export.md), made from the route table: each top-level list
// `GET /<plural>` gets `GET /<plural>/export` with the list's filters, sort, updated_since and
// include_deleted (no page or limit), the list's scope, and its records as CSV or NDJSON.

const PAGING = new Set(['page', 'limit']);

/** The export's query class of a list's: its fields but paging, and `format`. */
function exportArgsOf(listArgs: new () => any): new () => any {
  class ExportArgs {}
  Object.defineProperty(ExportArgs, 'name', { value: `${listArgs.name.replace(/Args$/, '')}ExportArgs` });
  for (const meta of fieldsOf(listArgs)) {
    if (meta.io !== 'in' || PAGING.has(meta.restName)) continue;
    const { prop, restName, kind, io: _io, ...options } = meta;
    InputField(restName, kind, { ...options, graphql: false })(ExportArgs.prototype, prop);
  }
  InputField('format', 'enum', { enum: ExportFormat, default: 'csv', graphql: false, description: 'csv (RFC 4180, a header of REST field names) or ndjson (one JSON object a line)' })(ExportArgs.prototype, 'format');
  return ExportArgs;
}

/** Whether a row is a list that has an export: a top-level GET list of business records. */
export const isExportedList = (r: RouteDef) => r.method === 'GET' && !!r.plural && !!r.query && r.exportable !== false && /^\/[a-z_]+$/.test(r.path);

/** The `/export` twin of each exported list of `table`, to be placed before the lists' `/:uuid` rows. */
export function exportRoutes(table: RouteDef[]): RouteDef[] {
  return table.filter(isExportedList).map((list) => ({
    method: 'GET',
    path: `${list.path}/export`,
    operationId: `export${list.plural!.replace(/(^|_)([a-z])/g, (_m, _u, c: string) => c.toUpperCase())}`,
    scope: list.scope,
    summary: `Every record of the ${list.plural!.replace(/_/g, ' ')} list as one CSV or NDJSON file (no pages)`,
    query: exportArgsOf(list.query!),
    output: list.output,
    stream: EXPORT_CONTENT_TYPES,
    call: (ctx, a) => {
      const { format, ...args } = a.query as { format?: ExportFormat };
      return exportList(ctx, list, Object.assign(new (list.query as new () => object)(), args), format ?? ExportFormat.CSV);
    },
  }));
}
