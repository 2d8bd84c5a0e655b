import { InputField } from '../../../src/schema/fields';
import { validateInput } from '../../../src/schema/validation';
import { AppError, ErrorDetail } from '../../../src/errors/app-error';
import { isPlainObject } from '../../../src/domain/values';
import { CustomFieldType } from '../../../src/modules/custom-field/custom-field.entity';
import { KIND_OF, mergeValues, normaliseValue, normaliseValues, ValueDefinition, ValueRule } from '../../../src/modules/custom-field/custom-field.values';
import { createTenant, gql, rest, useTestApp } from '../../helpers/app';

// A record's custom field values are validated together, in one validation per value of a type
// (src/modules/custom-field/custom-field.values.ts). They must get the answers they got one at a
// time: `oneAtATime` below is that path as it was (a one-field input class per type, each value
// through validateInput alone), and every value, record, create and error is compared with it.

const t = useTestApp();

const holders = new Map<CustomFieldType, new () => { value: unknown }>();
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

async function oneValue(rule: ValueRule, value: unknown): Promise<{ value: unknown } | { error: string }> {
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
    const items = (v as string[]).map((x) => x.trim());
    const bad = items.find((x) => !rule.options?.includes(x));
    if (bad !== undefined) return { error: `must be a list of: ${(rule.options ?? []).join(', ')}` };
    v = (rule.options ?? []).filter((o) => items.includes(o));
  } else if (rule.type === CustomFieldType.SELECT && !rule.options?.includes(v as string)) {
    return { error: `must be one of: ${(rule.options ?? []).join(', ')}` };
  }
  return { value: v };
}

async function oneAtATime(defs: readonly ValueDefinition[], current: Record<string, unknown>, patch: unknown, creating: boolean, field = 'customFields'): Promise<Record<string, unknown>> {
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
    const out = await oneValue(def, value);
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

/** What a merge answers: the stored object, or the error's code, message and details. */
async function outcome(run: () => Promise<Record<string, unknown>>): Promise<unknown> {
  try {
    return { stored: await run() };
  } catch (err) {
    if (err instanceof AppError) return { code: err.code, message: err.message, details: err.details };
    throw err;
  }
}

const OPTIONS = ['heat pump', 'furnace', 'boiler'];
const long = (n: number) => 'x'.repeat(n);

// Every type: values a client may send, good and bad (whitespace, empty, NUL, too long, wrong JSON types).
const VALUES: Record<CustomFieldType, unknown[]> = {
  text: ['  4411 ', 'a', '', '   ', 'a\u0000b', long(255), ` ${long(255)} `, long(256), 12, true, ['a'], {}],
  number: [2.5, 0, -3, 1e300, '2', true, [], {}, Infinity, NaN],
  money: [12.5, 0, 10, 1.234, -1, 1e12, '12.50', false],
  boolean: [true, false, 'true', 1, 0, 'false'],
  date: ['2027-05-01', ' 2027-05-01 ', '2027-02-30', '2027-5-1', '', 20270501, '2027-05-01T00:00:00Z'],
  select: ['furnace', ' furnace ', 'Furnace', 'roofing', '', 3, ['furnace']],
  multi_select: [['furnace', 'boiler', 'furnace'], [' boiler '], [], ['roofing'], 'furnace', [1], [''], ['furnace', null]],
  url: ['https://portal.example/a', ' http://x.example ', 'portal.example', 'ftp://x.example', '', 5, `https://x.example/${long(2000)}`],
  email: ['Ops@Example.COM', ' a@b.co ', 'nope', '', 'a@b', 7],
  phone: ['(217) 555-0199', '217.555.0199', '+1 217 555 0199', '555', '', long(300), 2175550199],
};
const TYPES = Object.values(CustomFieldType);
const ruleOf = (type: CustomFieldType): ValueRule => ({ type, options: type === 'select' || type === 'multi_select' ? OPTIONS : null });

describe('custom field values validated together', () => {
  it('give every value of every type the answer it got alone', async () => {
    for (const type of TYPES) {
      for (const value of VALUES[type]) {
        const expected = await oneValue(ruleOf(type), structuredClone(value));
        expect({ type, value, out: await normaliseValue(ruleOf(type), structuredClone(value)) }).toEqual({ type, value, out: expected });
      }
    }
    // All of them at once, several of a type in one call (each type's k-th value in the k-th pass).
    const items = TYPES.flatMap((type) => VALUES[type].map((value) => ({ rule: ruleOf(type), value })));
    const expected = await Promise.all(items.map((i) => oneValue(i.rule, structuredClone(i.value))));
    expect(await normaliseValues(items.map((i) => ({ ...i, value: structuredClone(i.value) })))).toEqual(expected);
  });

  it('make the records and errors that one value at a time made: creates and updates, unknown keys, nulls, required fields, defaults', async () => {
    // Ten fields, one of each type, then a second text, a second phone (two passes) and a required date with a default.
    const defs: ValueDefinition[] = [
      ...TYPES.map((type) => ({ key: `f_${type}`, ...ruleOf(type), required: false, defaultValue: null })),
      { key: 'g_text', type: CustomFieldType.TEXT, options: null, required: true, defaultValue: null },
      { key: 'g_phone', type: CustomFieldType.PHONE, options: null, required: false, defaultValue: '217-555-0100' },
      { key: 'g_date', type: CustomFieldType.DATE, options: null, required: true, defaultValue: '2027-01-01' },
    ];
    const records: Array<Record<string, unknown>> = [];
    const rounds = Math.max(...TYPES.map((type) => VALUES[type].length));
    for (let i = 0; i < rounds; i++) {
      // Round i: the i-th value of each type (wrapping), and the second fields with the next ones.
      const at = (type: CustomFieldType, k: number) => VALUES[type][k % VALUES[type].length];
      const record: Record<string, unknown> = Object.fromEntries(TYPES.map((type) => [`f_${type}`, at(type, i)]));
      record.g_text = at(CustomFieldType.TEXT, i + 1);
      if (i % 2) record.g_phone = at(CustomFieldType.PHONE, i + 2);
      if (i % 3 === 0) record.nope = 'x';
      if (i % 4 === 1) record.f_text = null;
      if (i % 5 === 2) record.g_date = null;
      records.push(record);
    }
    // Some records all good, in another key order.
    records.push(Object.fromEntries(Object.entries({ ...records[0], nope: undefined, g_text: 'b' }).filter(([, v]) => v !== undefined).reverse()));
    records.push({ g_text: ' gate ', f_phone: '(217) 555-0199' }, {}, { f_money: 5 }, { g_text: null });
    const current = { f_text: 'kept', g_text: 'old', f_number: 4 };
    let errors = 0;
    for (const record of records) {
      for (const creating of [true, false]) {
        for (const field of ['customFields', 'custom_fields']) {
          const expected = await outcome(() => oneAtATime(defs, creating ? {} : current, structuredClone(record), creating, field));
          if ('details' in (expected as object)) errors++;
          expect({ record, creating, got: await outcome(() => mergeValues(defs, creating ? {} : current, structuredClone(record), creating, field)) }).toEqual({ record, creating, got: expected });
        }
      }
    }
    // The cases refuse some records and take others.
    expect(errors).toBeGreaterThan(4);
    expect(errors).toBeLessThan(records.length * 4);
  });

  it('store over REST and GraphQL what one value at a time stored, and refuse with the same details', async () => {
    const a = await createTenant(t);
    const defs: ValueDefinition[] = [];
    for (const type of TYPES) {
      const r = await rest(t, a).post('/custom_fields', { resource: 'customer', key: `f_${type}`, label: type, type, ...(ruleOf(type).options ? { options: OPTIONS } : {}) });
      expect(r.status).toBe(200);
    }
    for (const body of [
      { key: 'g_text', label: 'Second text', type: 'text', required: true },
      { key: 'g_phone', label: 'Second phone', type: 'phone', default: '(217) 555-0100' },
    ]) expect((await rest(t, a).post('/custom_fields', { resource: 'customer', ...body })).status).toBe(200);
    for (const d of (await rest(t, a).get('/custom_fields?resource=customer')).body.data.custom_fields) {
      defs.push({ key: d.key, type: d.type, options: d.options, required: d.required, defaultValue: d.default });
    }
    const good = { f_text: ' 4411 ', f_number: 2.5, f_money: 12.5, f_boolean: true, f_date: '2027-05-01', f_select: ' furnace ', f_multi_select: ['boiler', 'furnace', 'boiler'], f_url: 'https://portal.example/a', f_email: 'Ops@Example.COM', f_phone: '(217) 555-0199', g_text: 'gate' };
    const bad = { ...good, f_text: long(256), f_money: 1.234, f_date: '2027-02-30', f_select: 'roofing', f_phone: '555', g_phone: '', g_text: '  ', nope: 1 };
    const stored = await oneAtATime(defs, {}, structuredClone(good), true, 'custom_fields');
    const refused = (await outcome(() => oneAtATime(defs, {}, structuredClone(bad), true, 'custom_fields'))) as { details: ErrorDetail[] };
    expect(refused.details.length).toBe(8);
    const customer = { first_name: 'Ada', last_name: 'Lovelace' };

    const made = await rest(t, a).post('/customers', { ...customer, custom_fields: good });
    expect(made.status).toBe(200);
    expect(made.body.data.custom_fields).toEqual(stored);
    expect((await rest(t, a).get(`/customers/${made.body.data.uuid}`)).body.data.custom_fields).toEqual(stored);
    const row = await t.orm.em.fork().getConnection().execute<{ custom_fields: unknown }[]>('select custom_fields from customers where uuid = ?', [made.body.data.uuid]);
    expect(row[0].custom_fields).toEqual(stored);
    const no = await rest(t, a).post('/customers', { ...customer, custom_fields: bad });
    expect(no.status).toBe(400);
    expect(no.body.error.details).toEqual(refused.details);

    const mutation = 'mutation($in: CustomerCreateInput!) { createCustomer(input: $in) { uuid customFields } }';
    const viaGql = await gql(t, a, mutation, { in: { firstName: 'Ada', lastName: 'Lovelace', customFields: good } });
    expect(viaGql.data.createCustomer.customFields).toEqual(stored);
    const gqlNo = await gql(t, a, mutation, { in: { firstName: 'Ada', lastName: 'Lovelace', customFields: bad } });
    const named = (await outcome(() => oneAtATime(defs, {}, structuredClone(bad), true, 'customFields'))) as { details: ErrorDetail[] };
    expect(gqlNo.errors?.[0].extensions.details).toEqual(named.details);
  });
});
