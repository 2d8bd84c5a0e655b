import { IsBoolean, IsDate, IsIn, IsInt, IsNumber, IsString, MaxLength, ValidateBy, validate } from 'class-validator';
import { AppError, ErrorDetail } from '../errors/app-error';
import { MAX_CENTS, toCents } from '../domain/money';
import { fieldsOf, FieldMeta } from './fields';
import { isDateOnly, isEmail, isPlainObject, isTime, isUuid, normalizePhone, parseTimestamp } from '../domain/values';

// One validation for both surfaces: presence and normalisation here, types and formats through the
// class-validator decorators that InputField puts on every input class.

export type Naming = 'rest' | 'graphql';

export const STRING_MAX: Partial<Record<FieldMeta['kind'], number>> = { string: 255, text: 10_000, phone: 255, email: 255, time: 5 };
const JSON_MAX_BYTES = 64 * 1024;

const rule = (name: string, message: string, test: (v: any) => boolean) =>
  ValidateBy({ name, validator: { validate: test, defaultMessage: () => message } });

export const IsMoney = () =>
  rule('isMoney', 'must be an amount ≥ 0 with at most two decimals', (v) => {
    const cents = typeof v === 'number' ? toCents(v) : null;
    return cents !== null && cents >= 0 && cents <= MAX_CENTS;
  });

/** Class-validator decorators for one declared input field, by kind. */
export function validatorsFor(meta: FieldMeta): PropertyDecorator[] {
  const each = { each: !!meta.list };
  const msg = (message: string) => ({ ...each, message });
  switch (meta.kind) {
    case 'string':
    case 'text':
    case 'phone':
      return [IsString(msg('must be a string')), MaxLength(STRING_MAX[meta.kind]!, msg(`must be at most ${STRING_MAX[meta.kind]} characters`))];
    case 'email':
      return [rule('isEmailAddress', 'must be a valid email address', (v) => typeof v === 'string' && isEmail(v))];
    case 'time':
      return [rule('isTime', 'must be a time HH:MM (24-hour)', isTime)];
    case 'uuid':
      // A list (assigned_user_ids): an array of at most 100 UUIDs.
      if (meta.list) return [rule('isUuidList', 'must be a list of at most 100 UUIDs', (v) => Array.isArray(v) && v.length <= 100 && v.every(isUuid))];
      return [rule('isUuid', 'must be a valid UUID', isUuid)];
    case 'int':
      return [IsInt(msg('must be an integer'))];
    case 'number':
      return [IsNumber({ allowNaN: false, allowInfinity: false }, msg('must be a number'))];
    case 'money':
      return [IsMoney()];
    case 'boolean':
      return [IsBoolean(msg('must be a boolean'))];
    case 'date':
      return [rule('isDateOnly', 'must be a date YYYY-MM-DD', isDateOnly)];
    case 'datetime':
      return [IsDate(msg('must be an RFC 3339 timestamp with an offset'))];
    case 'enum':
      return [IsIn(Object.values(meta.enum!), msg(`must be one of: ${Object.values(meta.enum!).join(', ')}`))];
    case 'json':
      return [
        rule('isJson', meta.jsonArray ? 'must be a JSON object or array' : 'must be a JSON object', (v) =>
          meta.jsonArray ? typeof v === 'object' && v !== null : isPlainObject(v),
        ),
        rule('jsonSize', 'must be at most 64 KiB of JSON', (v) => Buffer.byteLength(JSON.stringify(v) ?? '') <= JSON_MAX_BYTES),
        // PostgreSQL cannot store U+0000 in json text: refused like in any other string.
        rule('jsonNoNul', 'must not contain NUL characters', (v) => !hasNul(v)),
      ];
    case 'object':
      return [rule('isObject', meta.list ? 'must be an array of objects' : 'must be an object', (v) => (meta.list ? Array.isArray(v) : isPlainObject(v)))];
  }
}

/** Whether a JSON value holds a NUL character in any key or string, at any depth. */
function hasNul(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return true;
    } else if (Array.isArray(v)) {
      stack.push(...v);
    } else if (typeof v === 'object' && v !== null) {
      for (const [k, x] of Object.entries(v)) {
        if (k.includes('\u0000')) return true;
        stack.push(x);
      }
    }
  }
  return false;
}

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
    if (typeof value === 'string' && ['string', 'text', 'phone', 'email', 'time', 'uuid', 'date', 'enum'].includes(meta.kind)) {
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
