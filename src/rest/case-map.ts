import { AppError, ErrorDetail } from '../errors/app-error';
import { FieldMeta, restFieldsOf, restIndex } from '../core/fields';
import { isPlainObject } from '../core/values';

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
export function queryToInput<T>(cls: new () => T, query: Record<string, unknown>): T {
  const index = inputIndex(cls);
  const details: ErrorDetail[] = [];
  const out: Record<string, unknown> = {};
  const fail = (field: string, message: string) => details.push({ field, message: `${field} ${message}` });
  for (const [key, raw] of Object.entries(query)) {
    const meta = index.get(key);
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

/** An output object (entity or result) into its REST shape, by the declared REST names. */
export function toRest(cls: Function, obj: any): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const meta of restFieldsOf(cls)) {
    if (meta.io !== 'out') continue;
    out[meta.restName] = restValue(meta, obj[meta.prop]);
  }
  return out;
}

function restValue(meta: FieldMeta, v: any): unknown {
  if (v === undefined || v === null) return null;
  if (meta.list && Array.isArray(v)) return v.map((x) => restValue({ ...meta, list: false }, x));
  switch (meta.kind) {
    case 'datetime':
      return v instanceof Date ? v.toISOString() : v;
    case 'object':
      return toRest(meta.type!(), v);
    default:
      return v;
  }
}
