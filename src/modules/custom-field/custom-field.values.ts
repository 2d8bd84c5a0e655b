import { InputField } from '../../schema/fields';
import type { FieldKind } from '../../schema/field-types';
import { inputProblems } from '../../schema/validation';
import { AppError, ErrorDetail } from '../../errors/app-error';
import { isPlainObject } from '../../domain/values';
import { CustomFieldType } from './custom-field.entity';

// A custom field's value is validated and normalised by the very rules of the built-in field of
// its kind (src/schema/validation.ts and validators.ts: trimming, phones to xxx-xxx-xxxx, emails
// lower-cased, money ≥ 0 with two decimals, dates YYYY-MM-DD): the input class `Values` below has
// one field per type, declared with @InputField as that kind, and a value runs through
// validateInput's checks as that field, like any body field. Only what no built-in field has is
// here: a select's options.

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

/**
 * The input class of custom field values (graphql: false: never a GraphQL input): one field per
 * type, named as the type. A record's values are validated together: the first value of each type
 * in one instance, a second value of a type in a second instance, and so on, so that a record
 * using each type at most once is one validation (one class-validator pass instead of one per
 * value: its metadata lookup per pass was most of a value's cost). The fields an instance does not
 * use stay unset and their "is required" is ignored; each field is checked on its own, so a value
 * gets the answer it would get alone.
 */
class Values {
  [type: string]: unknown;
}
for (const type of Object.values(CustomFieldType)) {
  InputField(type, KIND_OF[type], { required: true, graphql: false, list: type === CustomFieldType.MULTI_SELECT })(Values.prototype, type);
}

export type Normalised = { value: unknown } | { error: string };

/** Each value normalised, or the message (without the field's name) that refuses it; in the order given. */
export async function normaliseValues(items: ReadonlyArray<{ rule: ValueRule; value: unknown }>): Promise<Normalised[]> {
  const out: Normalised[] = new Array(items.length);
  // Instance k holds the (k+1)-th value of each type; `at` maps a type to its item.
  const passes: Array<{ input: Values; at: Map<CustomFieldType, number> }> = [];
  const used = new Map<CustomFieldType, number>();
  items.forEach(({ rule, value }, i) => {
    const k = used.get(rule.type) ?? 0;
    used.set(rule.type, k + 1);
    const pass = (passes[k] ??= { input: new Values(), at: new Map() });
    pass.input[rule.type] = value;
    pass.at.set(rule.type, i);
  });
  for (const { input, at } of passes) {
    // A field's detail is named by its REST name, the type: `<type> <message>`.
    const refused = new Map((await inputProblems(input, 'rest')).map((d) => [d.field, d.message]));
    for (const [type, i] of at) {
      const message = refused.get(type);
      out[i] = message !== undefined ? { error: message.slice(type.length + 1) } : withOptions(items[i].rule, input[type]);
    }
  }
  return out;
}

/** One value normalised, or the message (without the field's name) that refuses it. */
export async function normaliseValue(rule: ValueRule, value: unknown): Promise<Normalised> {
  return (await normaliseValues([{ rule, value }]))[0];
}

/** A value that passed its kind's validation, checked against a select's options. */
function withOptions(rule: ValueRule, v: unknown): Normalised {
  if (rule.type === CustomFieldType.MULTI_SELECT) {
    // The same trimming as a single string, each element; duplicates kept once, in the options' order.
    const items = (v as string[]).map((x) => x.trim());
    const bad = items.find((x) => !rule.options?.includes(x));
    if (bad !== undefined) return { error: `must be a list of: ${(rule.options ?? []).join(', ')}` };
    return { value: (rule.options ?? []).filter((o) => items.includes(o)) };
  }
  if (rule.type === CustomFieldType.SELECT && !rule.options?.includes(v as string)) {
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
  const entries = Object.entries(sent);
  // The values sent for known keys, validated together (normaliseValues), then applied in the order sent.
  const checked = entries.filter(([key, value]) => value !== null && byKey.has(key));
  const results = await normaliseValues(checked.map(([key, value]) => ({ rule: byKey.get(key)!, value })));
  const resultOf = new Map(checked.map(([key], i) => [key, results[i]]));
  for (const [key, value] of entries) {
    if (!byKey.has(key)) {
      fail(key, 'is not a custom field of this resource');
      continue;
    }
    if (value === null) {
      delete next[key];
      continue;
    }
    const out = resultOf.get(key)!;
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
