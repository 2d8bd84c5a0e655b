import type { RequestContext } from '../../data/context';
import { isUuid } from '../../domain/values';
import { AppError } from '../../errors/app-error';
import { FieldMeta, fieldsOf, restFieldsOf } from '../../schema/fields';
import { routeRunner, RouteInput, RouteOutput } from '../../rest/pipeline';
import type { RouteDef } from '../../rest/route';
import { ImportResource } from './import.types';
import { SOURCE } from '../custom-field/custom-data';
import { EXTERNAL_ID_RESOURCES } from '../custom-field/external-id.resources';
import { Customer } from '../customer/customer.entity';
import { CustomerCreateInput, CustomerUpdateInput } from '../customer/customer.inputs';
import { Location } from '../location/location.entity';
import { LocationCreateInput, LocationUpdateInput } from '../location/location.inputs';
import { Job } from '../job/job.entity';
import { JobCreateInput, JobUpdateInput } from '../job/job.inputs';
import { Invoice } from '../invoice/invoice.entity';
import { InvoiceCreateInput, InvoiceUpdateInput } from '../invoice/invoice.inputs';
import { Payment } from '../payment/payment.entity';
import { PaymentCreateInput, PaymentUpdateInput } from '../payment/payment.inputs';

// What an import writes with (docs/import-export.md): for each resource, the REST rows that create
// and update one record, run through the same pipeline as a request (src/rest/pipeline.ts), so
// that a row is validated and written by exactly the rules of POST and PUT; the columns a file
// may carry; and how a row finds the record it updates (match_on).

/** The columns of an error file (the report), ignored when the file is imported again. */
export const ERROR_COLUMNS = ['error_row', 'error_field', 'error_message'] as const;

/**
 * How a row finds its record in upsert mode: the key of a row (null: no key, the row creates a
 * record), and the live records of the company with each of some keys. Adding a way to match
 * (external ids) is one more entry of MATCHERS.
 */
export interface Matcher {
  /** The file column holding the key. */
  column: string;
  /** The row's key, null for none, or an Error naming what is wrong with it. */
  key(values: Record<string, unknown>): string | null | Error;
  /** The uuids of the live records with each key (a key may match several). */
  find(ctx: RequestContext, table: string, keys: string[]): Promise<Map<string, string[]>>;
  /** A key with no record: created (email) or a row error (uuid: an id is never made up). */
  missing: 'create' | 'error';
}

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : v === null || v === undefined ? '' : String(v));

async function lookup(ctx: RequestContext, sql: string, params: unknown[]): Promise<Map<string, string[]>> {
  const rows = (await ctx.em.getConnection().execute(sql, params, 'all', ctx.em.getTransactionContext())) as Array<{ uuid: string; k: string }>;
  const out = new Map<string, string[]>();
  for (const r of rows) out.set(r.k, [...(out.get(r.k) ?? []), r.uuid]);
  return out;
}

export const MATCHERS: Record<string, (resource: ImportResource, arg: string | undefined) => Matcher | string> = {
  uuid: () => ({
    column: 'uuid',
    key: (values) => {
      const v = text(values.uuid);
      if (!v) return null;
      return isUuid(v) ? v.toLowerCase() : new Error('must be a UUID');
    },
    find: (ctx, table, keys) => lookup(ctx, `select uuid, uuid::text as k from "${table}" where company_uuid = ? and deleted_at is null and uuid in (select jsonb_array_elements_text(?::jsonb)::uuid)`, [ctx.companyId, JSON.stringify(keys)]),
    missing: 'error',
  }),
  email: (resource) =>
    resource !== ImportResource.CUSTOMERS
      ? 'email matches customers only'
      : {
          column: 'email',
          key: (values) => text(values.email).toLowerCase() || null,
          find: (ctx, table, keys) => lookup(ctx, `select uuid, lower(email) as k from "${table}" where company_uuid = ? and deleted_at is null and lower(email) in (select jsonb_array_elements_text(?::jsonb))`, [ctx.companyId, JSON.stringify(keys)]),
          missing: 'create',
        },
  // `external_id:<source>`: the row's `external_ids` column (a JSON object, as an export writes it)
  // holds the record's id in that system (docs/custom-fields.md); a new id makes a record that
  // carries it.
  external_id: (resource, source) => {
    if (!source || !SOURCE.test(source)) return 'external_id needs its source: external_id:<source>, the source matching ^[a-z][a-z0-9_]{0,31}$';
    const kind = EXTERNAL_ID_RESOURCES.find((r) => r.plural === resource)?.spec.resource;
    if (!kind) return `${resource} carry no external ids`;
    return {
      column: 'external_ids',
      key: (values) => {
        let ids = values.external_ids;
        if (typeof ids === 'string') {
          if (!ids.trim()) return null;
          try {
            ids = JSON.parse(ids) as unknown;
          } catch {
            return new Error('must be a JSON object of ids by source');
          }
        }
        if (ids === null || ids === undefined) return null;
        if (typeof ids !== 'object' || Array.isArray(ids)) return new Error('must be an object of ids by source');
        const id = (ids as Record<string, unknown>)[source];
        return typeof id === 'string' && id !== '' ? id : null;
      },
      find: (ctx, table, keys) =>
        lookup(
          ctx,
          `select x.record_uuid as uuid, x.external_id as k from external_ids as x join "${table}" as r on r.uuid = x.record_uuid
            where x.company_uuid = ? and x.resource = ? and x.source = ? and r.deleted_at is null and x.external_id in (select jsonb_array_elements_text(?::jsonb))`,
          [ctx.companyId, kind, source, JSON.stringify(keys)],
        ),
      missing: 'create',
    };
  },
};

/** The matcher of `match_on` for a resource, or a message saying why there is none. */
export function matcherOf(resource: ImportResource, matchOn: string): Matcher | string {
  const [kind, ...rest] = matchOn.split(':');
  const make = MATCHERS[kind];
  return make ? make(resource, rest.length ? rest.join(':') : undefined) : `${kind} is not a way to match records`;
}

/** What each resource is imported with: the bodies of its POST and PUT rows, and its record. */
const RESOURCES: Record<ImportResource, { create: Function; update: Function; entity: Function }> = {
  customers: { create: CustomerCreateInput, update: CustomerUpdateInput, entity: Customer },
  locations: { create: LocationCreateInput, update: LocationUpdateInput, entity: Location },
  jobs: { create: JobCreateInput, update: JobUpdateInput, entity: Job },
  invoices: { create: InvoiceCreateInput, update: InvoiceUpdateInput, entity: Invoice },
  payments: { create: PaymentCreateInput, update: PaymentUpdateInput, entity: Payment },
};

export interface Target {
  resource: ImportResource;
  table: string;
  entity: Function;
  /** The create body's class; the update body's (what a row's values are compared with, for `unchanged`), and its fields by REST name. */
  createBody: new () => object;
  updateBody: new () => object;
  updateFields: Set<string>;
  /** The writable fields by REST name. */
  fields: Map<string, FieldMeta>;
  /** Read-only fields of the record (uuid, timestamps, totals): an export's columns, ignored. */
  readOnly: Set<string>;
}

const targets = new Map<ImportResource, Target>();

/** The target of a resource, made from its declarations once. */
export function targetOf(resource: ImportResource): Target {
  let t = targets.get(resource);
  if (t) return t;
  const r = RESOURCES[resource];
  const fields = new Map(restFieldsOf(r.create).filter((f) => f.io === 'in').map((f) => [f.restName, f]));
  const readOnly = new Set(restFieldsOf(r.entity).filter((f) => f.io === 'out' && !fields.has(f.restName)).map((f) => f.restName));
  const updateFields = new Set(restFieldsOf(r.update).filter((f) => f.io === 'in').map((f) => f.restName));
  t = { resource, table: resource, entity: r.entity, createBody: r.create as new () => object, updateBody: r.update as new () => object, updateFields, fields, readOnly };
  targets.set(resource, t);
  return t;
}

export interface Writers {
  create: (ctx: RequestContext, input: RouteInput) => Promise<RouteOutput>;
  update: (ctx: RequestContext, input: RouteInput) => Promise<RouteOutput>;
}

/**
 * The pipelines of the resource's `POST /<plural>` and `PUT /<plural>/{uuid}` rows of `table` (the
 * REST route table): a row is validated and written exactly as those requests are.
 */
export function writersOf(resource: ImportResource, table: RouteDef[]): Writers {
  const row = (method: RouteDef['method'], path: string) => {
    const r = table.find((x) => x.method === method && x.path === path);
    if (!r?.body) throw new Error(`no ${method} ${path} row to import ${resource} with`);
    return routeRunner(r, table);
  };
  return { create: row('POST', `/${resource}`), update: row('PUT', `/${resource}/:uuid`) };
}

/**
 * The columns of a file for a target: each column's field (null: ignored), after `mapping`; 400
 * naming `mapping` or the file for a column that is no field of the resource.
 */
export function columnFields(target: Target, columns: string[], mapping: Record<string, unknown> | null | undefined): Map<string, string | null> {
  const out = new Map<string, string | null>();
  const unknown: string[] = [];
  for (const c of columns) {
    const mapped = mapping && Object.hasOwn(mapping, c) ? mapping[c] : c;
    if (mapped === null || mapped === '') out.set(c, null);
    else if (typeof mapped !== 'string') throw AppError.field('mapping', `maps "${c}" to something other than a field name`);
    else if (target.fields.has(mapped)) out.set(c, mapped);
    // A custom field's column, as an export writes it (docs/import-export.md).
    else if (CF_COLUMN.test(mapped) && target.fields.has('custom_fields')) out.set(c, mapped);
    else if (target.readOnly.has(mapped) || (ERROR_COLUMNS as readonly string[]).includes(mapped)) out.set(c, mapped === 'uuid' ? 'uuid' : null);
    else unknown.push(c);
  }
  if (unknown.length) throw AppError.field('file', `has columns that are no field of ${target.resource}: ${unknown.join(', ')} (map them with mapping, or null to ignore)`);
  return out;
}

/**
 * A CSV cell as the JSON value a REST body would carry for the field: an empty cell is null (or
 * absent, for a field that takes no null); booleans, numbers and JSON from their text. Text that
 * is not of the field's kind is passed on as text: the validation names it, as for a request.
 */
export function cellValue(meta: FieldMeta, cell: string): unknown {
  const t = cell.trim();
  if (t === '') return meta.nullable ? null : undefined;
  if (meta.list || meta.kind === 'object' || meta.kind === 'json') {
    if (meta.list && meta.kind !== 'object' && !t.startsWith('[')) return t.split(',').map((s) => s.trim());
    try {
      return JSON.parse(t) as unknown;
    } catch {
      return t;
    }
  }
  switch (meta.kind) {
    case 'boolean': {
      const v = t.toLowerCase();
      return ['true', '1', 'yes'].includes(v) ? true : ['false', '0', 'no'].includes(v) ? false : t;
    }
    case 'int':
    case 'number':
    case 'money':
      return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t) ? Number(t) : t;
    default:
      return cell;
  }
}

/** A custom field's column: `cf.<key>`. */
export const CF_COLUMN = /^cf\.[a-z][a-z0-9_]{0,39}$/;

/**
 * A CSV cell of a custom field as the value a REST body would carry, by the definition's type
 * (`types`: key → type; null for an unknown key, which the validation then names). An empty cell
 * sets nothing.
 */
function customCell(type: string | undefined, cell: string): unknown {
  const t = cell.trim();
  if (t === '') return undefined;
  if ((type === 'number' || type === 'money') && /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return Number(t);
  if (type === 'boolean') return ['true', '1', 'yes'].includes(t.toLowerCase()) ? true : ['false', '0', 'no'].includes(t.toLowerCase()) ? false : t;
  if (type === 'multi_select') {
    if (!t.startsWith('[')) return t.split(',').map((x) => x.trim());
    try {
      return JSON.parse(t) as unknown;
    } catch {
      return t;
    }
  }
  return cell;
}

/** A row's REST body for the target: its mapped columns (CSV cells converted, NDJSON values as they are); `types`: the company's custom field types by key. */
export function rowBody(target: Target, columns: Map<string, string | null>, values: Record<string, unknown>, csv: boolean, types: ReadonlyMap<string, string> = new Map()): { body: Record<string, unknown> ; unknown: string[] } {
  const body: Record<string, unknown> = {};
  const unknown: string[] = [];
  for (const [column, value] of Object.entries(values)) {
    let field = columns.get(column);
    if (field === undefined && !csv) {
      // NDJSON: each line names its own fields.
      field = target.fields.has(column) ? column : target.readOnly.has(column) || (ERROR_COLUMNS as readonly string[]).includes(column) ? null : undefined;
      if (field === undefined) unknown.push(column);
    }
    if (!field || field === 'uuid') continue;
    if (field.startsWith('cf.')) {
      const key = field.slice(3);
      const v = csv ? customCell(types.get(key), value as string) : value;
      if (v !== undefined) body.custom_fields = { ...(body.custom_fields as Record<string, unknown> | undefined), [key]: v };
      continue;
    }
    const meta = target.fields.get(field)!;
    const v = csv ? cellValue(meta, value as string) : value;
    if (v !== undefined) body[field] = v;
  }
  return { body, unknown };
}

/** Whether an update body would change the record: each field it sets compared with the record's property. */
export function changesRecord(record: Record<string, unknown>, input: object): boolean {
  const source = input as Record<string, unknown>;
  for (const meta of fieldsOf(input.constructor)) {
    if (meta.io !== 'in' || source[meta.prop] === undefined) continue;
    if (!sameValue(record[meta.prop], source[meta.prop])) return true;
  }
  return false;
}

function sameValue(current: unknown, next: unknown): boolean {
  if (current === undefined) return false;
  if (current instanceof Date || next instanceof Date) return new Date(current as string).getTime() === new Date(next as string).getTime();
  if (typeof next === 'number' && (typeof current === 'string' || typeof current === 'number')) return Number(current) === next;
  if ((current === null) !== (next === null)) return false;
  if (typeof current === 'object' || typeof next === 'object') return canonical(current) === canonical(next);
  return current === next;
}

function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b))) : x));
}
