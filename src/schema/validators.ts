import { IsBoolean, IsDate, IsIn, IsInt, IsNumber, IsString, MaxLength, ValidateBy } from './class-validator';
import { MAX_CENTS, toCents } from '../domain/money';
import type { FieldMeta } from './field-types';
import { isDateOnly, isEmail, isHttpUrl, isPlainObject, isTime, isUuid } from '../domain/values';

// The class-validator decorators that InputField (src/schema/fields.ts) puts on every input class:
// types and formats by field kind. Presence and normalisation are in src/schema/validation.ts.

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
    case 'url':
      return [rule('isHttpUrl', 'must be an absolute http:// or https:// URL of at most 2000 characters', (v) => typeof v === 'string' && isHttpUrl(v))];
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
          meta.jsonAny ? v !== undefined : meta.jsonArray ? typeof v === 'object' && v !== null : isPlainObject(v),
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

