import { InputField } from '../../schema/fields';
import type { FieldKind } from '../../schema/field-types';
import { validateInput } from '../../schema/validation';
import { AppError, ErrorDetail } from '../../errors/app-error';
import { isPlainObject } from '../../domain/values';
import { CustomFieldType } from './custom-field.entity';

// A custom field's value is validated and normalised by the very rules of the built-in field of
// its kind (src/schema/validation.ts and validators.ts: trimming, phones to xxx-xxx-xxxx, emails
// lower-cased, money ≥ 0 with two decimals, dates YYYY-MM-DD): each type has a one-field input
// class declared with @InputField, and a value runs through validateInput like any body field.
// Only what no built-in field has is here: a select's options.

/** The built-in field kind each type is validated as. */
export const KIND_OF: Record<CustomFieldType, FieldKind> = {
  text: 'string',
  number: 'number',
  money: 'money',
  boolean: 'boolean',
  date: 'date',
  select: 'string',
  multi_select: 'string',
  url: 'url',
  email: 'email',
  phone: 'phone',
};

/** What a value is checked against: its type, and a select's options. */
export interface ValueRule {
  type: CustomFieldType;
  options?: readonly string[] | null;
}

const holders = new Map<string, new () => { value: unknown }>();

/** The one-field input class of a type (graphql: false: it is never a GraphQL input). */
function holderOf(type: CustomFieldType): new () => { value: unknown } {
  let cls = holders.get(type);
  if (!cls) {
    class Holder {
      value: unknown;
    }
    InputField('value', KIND_OF[type], { required: true, graphql: false, list: type === CustomFieldType.MULTI_SELECT })(Holder.prototype, 'value');
    holders.set(type, (cls = Holder));
  }
  return cls;
}

/** The value normalised, or the message (without the field's name) that refuses it. */
export async function normaliseValue(rule: ValueRule, value: unknown): Promise<{ value: unknown } | { error: string }> {
  const holder = new (holderOf(rule.type))();
  holder.value = value;
  try {
    await validateInput(holder, 'rest');
  } catch (err) {
    if (err instanceof AppError && err.details?.length) return { error: err.details[0].message.replace(/^value /, '') };
    throw err;
  }
  let v = holder.value;
  if (rule.type === CustomFieldType.MULTI_SELECT) {
    // The same trimming as a single string, each element; duplicates kept once, in the options' order.
    const items = (v as string[]).map((x) => x.trim());
    const bad = items.find((x) => !rule.options?.includes(x));
    if (bad !== undefined) return { error: `must be a list of: ${(rule.options ?? []).join(', ')}` };
    v = (rule.options ?? []).filter((o) => items.includes(o));
  } else if (rule.type === CustomFieldType.SELECT && !rule.options?.includes(v as string)) {
    return { error: `must be one of: ${(rule.options ?? []).join(', ')}` };
  }
  return { value: v };
}

/** The definition the value rules need, as stored. */
export interface ValueDefinition extends ValueRule {
  key: string;
  required: boolean;
  defaultValue: unknown;
}

/**
 * A record's custom_fields after a create or an update sent `patch` (docs/custom-fields.md): keys
 * merge into `current`, null clears one; an unknown key, a wrong value, or a required field
 * missing on create (no value, no default) or cleared is refused, naming `<field>.<key>` (field: the
 * property the caller's surface names). Returns the stored object, keys in the definitions' order.
 */
export async function mergeValues(defs: readonly ValueDefinition[], current: Record<string, unknown>, patch: unknown, creating: boolean, field = 'customFields'): Promise<Record<string, unknown>> {
  const details: ErrorDetail[] = [];
  const fail = (key: string, message: string) => details.push({ field: `${field}.${key}`, message: `${field}.${key} ${message}` });
  if (patch !== undefined && patch !== null && !isPlainObject(patch)) throw AppError.field(field, 'must be a JSON object');
  const sent = (patch ?? {}) as Record<string, unknown>;
  const byKey = new Map(defs.map((d) => [d.key, d]));
  const next: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(sent)) {
    const def = byKey.get(key);
    if (!def) {
      fail(key, 'is not a custom field of this resource');
      continue;
    }
    if (value === null) {
      delete next[key];
      continue;
    }
    const out = await normaliseValue(def, value);
    if ('error' in out) fail(key, out.error);
    else next[key] = out.value;
  }
  for (const def of defs) {
    if (creating && !(def.key in sent) && def.defaultValue !== null && def.defaultValue !== undefined) next[def.key] = def.defaultValue;
    if (def.required && (next[def.key] === undefined || next[def.key] === null) && (creating || def.key in sent)) {
      if (!details.some((d) => d.field === `${field}.${def.key}`)) fail(def.key, 'is required');
    }
  }
  if (details.length) throw AppError.validation(details);
  const ordered: Record<string, unknown> = {};
  for (const def of defs) if (next[def.key] !== undefined) ordered[def.key] = next[def.key];
  return ordered;
}
