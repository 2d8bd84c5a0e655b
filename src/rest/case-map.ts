import { AppError, ErrorDetail } from '../errors/app-error';
import { FieldMeta, restFieldsOf, restIndex } from '../schema/fields';
import { isPlainObject } from '../domain/values';
import { isoTime } from './iso-time';
import { isMoneyField } from '../schema/withheld';

// The one generic converter between REST names and the classes both surfaces share. It maps names
// and, for query strings, parses text into the declared kind; validation happens afterwards.

export function bodyToInput<T>(cls: new () => T, body: unknown, prefix = ''): T {
  if (!isPlainObject(body)) {
    throw AppError.validation([{ field: prefix.replace(/\.$/, '') || 'body', message: `${prefix.replace(/\.$/, '') || 'body'} must be a JSON object` }]);
  }
  const index = inputIndex(cls);
  const details: ErrorDetail[] = [];
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    const meta = index.get(key);
    if (!meta) {
      details.push({ field: prefix + key, message: `${prefix + key} is not a known field` });
      continue;
    }
    out[meta.prop] = meta.kind === 'object' ? nested(meta, value, prefix + key, details) : value;
  }
  if (details.length) throw AppError.validation(details);
  return Object.assign(new cls() as object, out) as T;
}

function nested(meta: FieldMeta, value: unknown, name: string, details: ErrorDetail[]): unknown {
  const cls = meta.type!() as new () => unknown;
  const one = (v: unknown, n: string) => {
    if (!isPlainObject(v)) return v; // the type check reports it
    try {
      return bodyToInput(cls, v, `${n}.`);
    } catch (e) {
      if (e instanceof AppError && e.details) details.push(...e.details);
      return undefined;
    }
  };
  if (meta.list) return Array.isArray(value) ? value.map((v, i) => one(v, `${name}[${i}]`)) : value;
  return one(value, name);
}

function inputIndex(cls: Function): Map<string, FieldMeta> {
  const all = restIndex(cls);
  for (const [k, m] of all) if (m.io !== 'in') all.delete(k);
  return all;
}

const TRUE = new Set(['true', '1']);
const FALSE = new Set(['false', '0']);

/** Query-string parameters into an args class; text is parsed by kind, enums case-insensitively. */
const PREFIXED = /^([a-z_]+)\.([^[\]]+)(?:\[(gte|lte|gt|lt)\])?$/;

export function queryToInput<T>(cls: new () => T, query: Record<string, unknown>): T {
  const index = inputIndex(cls);
  const details: ErrorDetail[] = [];
  const out: Record<string, unknown> = {};
  const fail = (field: string, message: string) => details.push({ field, message: `${field} ${message}` });
  for (const [key, raw] of Object.entries(query)) {
    const meta = index.get(key);
    const prefixed = meta ? null : PREFIXED.exec(key);
    const list = prefixed ? index.get(prefixed[1]) : undefined;
    if (prefixed && list?.prefixed) {
      // `cf.<key>=a,b` and `cf.<key>[gte]=5`: one element of the list field per parameter.
      if (typeof raw !== 'string') fail(key, 'must be given once, as text');
      else {
        const filter = Object.assign(new (list.type!() as new () => object)(), { key: prefixed[2] }, prefixed[3] ? { [prefixed[3]]: raw.trim() } : { values: raw.split(',').map((v) => v.trim()) });
        ((out[list.prop] as object[] | undefined) ?? (out[list.prop] = [])).push(filter);
      }
      continue;
    }
    if (!meta) {
      fail(key, 'is not a known query parameter');
      continue;
    }
    if (typeof raw !== 'string') {
      fail(key, 'must be given once, as text');
      continue;
    }
    const parsed = parseQueryValue(meta, raw);
    if (parsed instanceof Error) fail(key, parsed.message);
    else out[meta.prop] = parsed;
  }
  if (details.length) throw AppError.validation(details);
  return Object.assign(new cls() as object, out) as T;
}

function parseQueryValue(meta: FieldMeta, raw: string): unknown {
  const text = raw.trim();
  switch (meta.kind) {
    case 'int':
      return /^[+-]?\d+$/.test(text) ? Number(text) : new Error('must be an integer');
    case 'boolean': {
      const v = text.toLowerCase();
      return TRUE.has(v) ? true : FALSE.has(v) ? false : new Error('must be true, false, 1 or 0');
    }
    case 'enum': {
      const allowed = Object.values(meta.enum!);
      const values = meta.list ? text.split(',').map((s) => s.trim()) : [text];
      const out: string[] = [];
      for (const v of values) {
        const hit = allowed.find((a) => a.toLowerCase() === v.toLowerCase());
        if (!hit) return new Error(`must be one of: ${allowed.join(', ')}`);
        out.push(hit);
      }
      return meta.list ? out : out[0];
    }
    case 'number':
    case 'money': {
      const n = Number(text);
      return text !== '' && Number.isFinite(n) ? n : new Error('must be a number');
    }
    default:
      return meta.list ? text.split(',').map((s) => s.trim()) : raw;
  }
}

/**
 * An output object (entity or result) into its REST shape, by the declared REST names; with
 * `withhold`, every money field null, nested ones too (src/schema/withheld.ts: a technician's answers).
 */
export function toRest(cls: Function, obj: any, withhold = false): Record<string, unknown> {
  return restWriterOf(cls, withhold)(obj);
}

/** toRest's writer of a class, for writing many objects (a list page) with one lookup. */
export function restWriterOf(cls: Function, withhold = false): (obj: any) => Record<string, unknown> {
  const cache = withhold ? moneyless : writers;
  let write = cache.get(cls);
  if (!write) cache.set(cls, (write = restWriter(cls, null, withhold)));
  return write;
}

const writers = new WeakMap<Function, (obj: any) => Record<string, unknown>>();
const moneyless = new WeakMap<Function, (obj: any) => Record<string, unknown>>();

/**
 * A function writing the REST object of a class's instance (toRest caches one per class): an
 * object literal of the REST names in declaration order, each value through its field's
 * conversion. A loop over the field metadata per object and field cost ~8% of a REST list's CPU.
 * With `only` (an embedded summary), just those REST names, as toRest writes them; a name the
 * class does not have is null.
 */
export function restWriter(cls: Function, only: readonly string[] | null, withhold = false): (obj: any) => Record<string, unknown> {
  const out = restFieldsOf(cls).filter((m) => m.io === 'out');
  const picked = only ? only.map((name) => out.find((m) => m.restName === name) ?? name) : out;
  const convert: Array<(v: any) => unknown> = [];
  const entries = picked.map((m) => {
    if (typeof m === 'string' || (withhold && isMoneyField(m))) return `${JSON.stringify(typeof m === 'string' ? m : m.restName)}: null`;
    const read = `(v = o[${JSON.stringify(m.prop)}])`;
    // The scalar conversions of restConversion written in place: a closure call per field and
    // object cost more than the rest of the writer on a list page.
    if (!m.list && m.kind === 'datetime') return `${JSON.stringify(m.restName)}: ${read} === undefined || v === null ? null : v instanceof Date ? iso(v) : v`;
    if (!m.list && m.kind !== 'object') return `${JSON.stringify(m.restName)}: ${read} === undefined ? null : v`;
    convert.push(restConversion(m, withhold));
    return `${JSON.stringify(m.restName)}: c[${convert.length - 1}](o[${JSON.stringify(m.prop)}])`;
  });
  return new Function('c', 'iso', `return function restOf(o) { let v; return { ${entries.join(', ')} }; };`)(convert, isoTime);
}

/** How a field's value is written: null for none, timestamps as ISO text, objects by their class, lists item by item. */
function restConversion(meta: FieldMeta, withhold: boolean): (v: any) => unknown {
  let one: (v: any) => unknown;
  switch (meta.kind) {
    case 'datetime':
      one = (v) => (v === undefined || v === null ? null : v instanceof Date ? isoTime(v) : v);
      break;
    case 'object':
      one = (v) => (v === undefined || v === null ? null : toRest(meta.type!(), v, withhold));
      break;
    default:
      one = (v) => (v === undefined ? null : v);
  }
  if (!meta.list) return one;
  return (v) => (Array.isArray(v) ? v.map(one) : one(v));
}
