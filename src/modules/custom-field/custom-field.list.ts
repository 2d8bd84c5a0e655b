import type { RequestContext } from '../../data/context';
import type { ListWhere } from '../../data/list-where';
import type { ListArgs } from '../../schema/pagination';
import type { ParsedSort } from '../../schema/sorting';
import { AppError } from '../../errors/app-error';
import { liveDefinitions } from './custom-data';
import { CustomFieldDefinition, CustomFieldResource, CustomFieldType } from './custom-field.entity';
import type { CustomFieldFilter } from './custom-field.inputs';
import { normaliseValue } from './custom-field.values';

// Lists filtered and sorted by custom fields (docs/custom-fields.md, "Lists"). Equality filters are
// containment, `custom_fields @> '{"key": value}'`, which the GIN index (jsonb_path_ops, migration
// 0033) serves; bounds and sorts read the value typed (numeric for number and money, text for
// dates, which sort as ISO text). A value is normalised as a stored one is (a phone filter finds
// the stored xxx-xxx-xxxx). Keys are [a-z][a-z0-9_]* (checked on definition), so written inline.

const RANGED = [CustomFieldType.NUMBER, CustomFieldType.MONEY, CustomFieldType.DATE];
const OPS = { gte: '>=', lte: '<=', gt: '>', lt: '<' } as const;
const TRUE = new Set(['true', '1']);
const FALSE = new Set(['false', '0']);

/** The SQL of a field's value on the list's rows (alias e), typed for comparing and sorting. */
export function valueSql(def: Pick<CustomFieldDefinition, 'key' | 'type'>): string {
  const v = `e.custom_fields -> '${def.key}'`;
  switch (def.type) {
    case CustomFieldType.NUMBER:
    case CustomFieldType.MONEY:
      return `(${v})::numeric`;
    case CustomFieldType.BOOLEAN:
      return `(${v})::boolean`;
    default:
      return `(e.custom_fields ->> '${def.key}')`;
  }
}

export interface CustomFieldList {
  where(w: ListWhere): void;
  /** A sort by a custom field (`cf.<key>`), else null: the list's own sort. */
  sort: ParsedSort | null;
}

const NONE: CustomFieldList = { where: () => {}, sort: null };

/** A filter value as stored: parsed from its text, then normalised by the field's type. */
async function typed(def: CustomFieldDefinition, text: string, field: string): Promise<unknown> {
  let raw: unknown = text;
  if (def.type === CustomFieldType.NUMBER || def.type === CustomFieldType.MONEY) raw = text.trim() === '' ? NaN : Number(text);
  if (def.type === CustomFieldType.BOOLEAN) raw = TRUE.has(text.toLowerCase()) ? true : FALSE.has(text.toLowerCase()) ? false : text;
  // A multi_select matches a record holding the value among its values.
  const rule = def.type === CustomFieldType.MULTI_SELECT ? { type: CustomFieldType.SELECT, options: def.options } : def;
  const out = await normaliseValue(rule, raw);
  if ('error' in out) throw AppError.field(field, out.error);
  return out.value;
}

/**
 * The conditions of `args.customFields` and the order of a `sort=cf.<key>` for a list of a
 * resource; reads the definitions only when the list asks for either.
 */
export async function customFieldList(ctx: RequestContext, resource: CustomFieldResource, args: ListArgs & { customFields?: CustomFieldFilter[] }): Promise<CustomFieldList> {
  const sortKey = /^-?cf\.(.+)$/.exec(args.sort ?? '')?.[1];
  if (!args.customFields?.length && sortKey === undefined) return NONE;
  const defs = new Map((await liveDefinitions(ctx, resource)).map((d) => [d.key, d]));
  const conditions: Array<{ sql: string; params: unknown[] }> = [];
  for (const f of args.customFields ?? []) {
    const field = `customFields.${f.key}`;
    const def = defs.get(f.key);
    if (!def) throw AppError.field(field, `is not a custom field of ${resource}`);
    if (f.values?.length) {
      const anyOf = await Promise.all(f.values.map(async (v) => JSON.stringify({ [def.key]: def.type === CustomFieldType.MULTI_SELECT ? [await typed(def, v, field)] : await typed(def, v, field) })));
      conditions.push({ sql: anyOf.map(() => 'e.custom_fields @> ?::jsonb').join(' or '), params: anyOf });
    }
    for (const op of Object.keys(OPS) as Array<keyof typeof OPS>) {
      if (f[op] === undefined) continue;
      if (!RANGED.includes(def.type)) throw AppError.field(field, `is a ${def.type} field: only number, money and date fields take ${op}`);
      conditions.push({ sql: `${valueSql(def)} ${OPS[op]} ?`, params: [await typed(def, f[op]!, field)] });
    }
  }
  let sort: ParsedSort | null = null;
  if (sortKey !== undefined) {
    const def = defs.get(sortKey);
    if (!def || def.type === CustomFieldType.MULTI_SELECT) throw AppError.field('sort', `cf.${sortKey} is not a sortable custom field of ${resource}`);
    sort = { field: `cf.${sortKey}`, descending: args.sort!.startsWith('-'), exprs: [valueSql(def)] };
  }
  return { where: (w) => conditions.forEach((c) => w.and(c.sql, c.params)), sort };
}
