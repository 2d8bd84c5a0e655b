import { validate } from './class-validator';
import { AppError, ErrorDetail } from '../errors/app-error';
import { fieldsOf, FieldMeta } from './fields';
import { isPlainObject, normalizePhone, parseTimestamp } from '../domain/values';

// One validation for both surfaces: presence and normalisation here, types and formats through the
// class-validator decorators that InputField puts on every input class.

export type Naming = 'rest' | 'graphql';

function nameOf(meta: FieldMeta, naming: Naming, prefix: string): string {
  return prefix + (naming === 'rest' ? meta.restName : meta.prop);
}

function normalizeString(meta: FieldMeta, value: string): string | null | Error {
  if (value.includes('\u0000')) return new Error('must not contain NUL characters');
  const v = value.trim();
  if (v === '') return meta.nullable ? null : new Error(meta.required ? 'is required' : 'must not be empty');
  if (meta.kind === 'phone') return normalizePhone(v) ?? new Error('must be a phone number with 10 digits (xxx-xxx-xxxx)');
  if (meta.kind === 'email') return v.toLowerCase();
  return meta.transform ? meta.transform(v) : v;
}

/** Validates and normalises an input instance in place; throws VALIDATION_ERROR naming every bad field. */
export async function validateInput(input: any, naming: Naming, prefix = ''): Promise<void> {
  const details = await collect(input, naming, prefix);
  if (details.length) throw AppError.validation(details);
}

/**
 * validateInput's work without the throw: normalises in place and returns the details it would
 * throw (none: valid). For a caller that keeps some of them (the custom fields' values, whose
 * input leaves the fields it does not use unset: custom-field.values.ts).
 */
export function inputProblems(input: any, naming: Naming, prefix = ''): Promise<ErrorDetail[]> {
  return collect(input, naming, prefix);
}

async function collect(input: any, naming: Naming, prefix: string): Promise<ErrorDetail[]> {
  const details: ErrorDetail[] = [];
  const metas = fieldsOf(input.constructor).filter((f) => f.io === 'in');
  const fail = (meta: FieldMeta, message: string) => {
    const field = nameOf(meta, naming, prefix);
    details.push({ field, message: `${field} ${message}` });
  };
  const bad = new Set<string>();
  for (const meta of metas) {
    let value = input[meta.prop];
    if (value === undefined) {
      if (meta.required) fail(meta, 'is required');
      continue;
    }
    if (value === null) {
      if (!meta.nullable) fail(meta, meta.required ? 'is required' : 'cannot be null');
      continue;
    }
    if (meta.list && !Array.isArray(value)) {
      // A list field takes a list (GraphQL wraps a single value itself; REST bodies must send one).
      fail(meta, meta.kind === 'object' ? 'must be an array of objects' : 'must be an array');
      bad.add(meta.prop);
      continue;
    }
    if (typeof value === 'string' && ['string', 'text', 'phone', 'email', 'url', 'time', 'uuid', 'date', 'enum'].includes(meta.kind)) {
      const n = normalizeString(meta, value);
      if (n instanceof Error) {
        fail(meta, n.message);
        bad.add(meta.prop);
        continue;
      }
      value = input[meta.prop] = meta.kind === 'uuid' && n ? n.toLowerCase() : n;
      if (value === null) continue;
    }
    if (meta.kind === 'datetime' && typeof value === 'string') {
      const d = parseTimestamp(value);
      if (!d) {
        fail(meta, 'must be an RFC 3339 timestamp with an offset');
        bad.add(meta.prop);
        continue;
      }
      input[meta.prop] = d;
    }
    if (meta.kind === 'object' && value !== null && typeof value === 'object') {
      const items = meta.list ? (Array.isArray(value) ? value : null) : [value];
      if (items) {
        for (let i = 0; i < items.length; i++) {
          const p = `${nameOf(meta, naming, prefix)}${meta.list ? `[${i}]` : ''}`;
          if (!isPlainObject(items[i]) && !(items[i] instanceof (meta.type!() as any))) {
            // Every element of a list of objects is an object: `[1]`, `["a"]`, `[null]` are refused here.
            if (meta.list) details.push({ field: p, message: `${p} must be an object` });
            bad.add(meta.prop);
            continue;
          }
          details.push(...(await collect(items[i], naming, `${p}.`)));
        }
      }
    }
  }
  const errors = await validate(input, { skipMissingProperties: true, forbidUnknownValues: false });
  for (const e of errors) {
    const meta = metas.find((m) => m.prop === e.property);
    if (!meta || bad.has(meta.prop)) continue;
    const message = Object.values(e.constraints ?? {})[0];
    if (message) fail(meta, message);
    bad.add(meta.prop);
  }
  for (const meta of metas) {
    const value = input[meta.prop];
    if (meta.check && value !== undefined && value !== null && !bad.has(meta.prop)) {
      const message = meta.check(value, input);
      if (message) fail(meta, message);
    }
  }
  return details;
}
