import { FieldMeta, restFieldsOf } from '../schema/fields';
import { fromCents, MAX_CENTS } from '../domain/money';
import { STRING_MAX } from '../schema/validators';
import type { Embed } from './route';

// JSON Schemas (2020-12, as OpenAPI 3.1 uses them) of the declared fields: what the validation
// accepts on the way in, what toRest writes on the way out.

export type Schema = Record<string, unknown>;
export type Schemas = Record<string, Schema>;

const MONEY_TEXT = 'an amount in dollars with at most two decimals (e.g. 161.29), kept as integer cents';
// Phones in: ten digits (or eleven starting with 1) written with digits, spaces, (), ., - or +.
const PHONE_IN = { type: 'string', pattern: '^[0-9 ().+-]+$', maxLength: 255, description: 'ten digits (or eleven starting with 1), written with digits, spaces, (), ., - or +; stored as xxx-xxx-xxxx', examples: ['(217) 555-0101'] };

export function scalarSchema(f: FieldMeta): Schema {
  switch (f.kind) {
    case 'string':
    case 'text':
      // The limit is the input rule; outputs include computed strings (a presigned photo_url).
      return f.io === 'in' ? { type: 'string', maxLength: STRING_MAX[f.kind] } : { type: 'string' };
    case 'uuid':
      return { type: 'string', format: 'uuid' };
    case 'int':
      return { type: 'integer', ...(f.min !== undefined ? { minimum: f.min } : {}), ...(f.max !== undefined ? { maximum: f.max } : {}) };
    case 'number':
      return { type: 'number' };
    case 'money':
      // No multipleOf 0.01: in floating point 161.29 is not a multiple of 0.01.
      // An output may declare a lower minimum (a deducted deposit's negative line, docs/payments.md).
      return { type: 'number', minimum: f.min ?? 0, maximum: fromCents(MAX_CENTS), description: MONEY_TEXT };
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'datetime':
      return { type: 'string', format: 'date-time' };
    case 'time':
      return { type: 'string', pattern: '^([01]\\d|2[0-3]):[0-5]\\d$' };
    case 'json':
      if (f.jsonAny) return { type: ['object', 'array', 'string', 'number', 'boolean'] };
      return f.jsonArray ? { type: ['object', 'array'] } : { type: 'object' };
    case 'enum':
      return { type: 'string', enum: Object.values(f.enum!) };
    case 'phone':
      return f.io === 'in' ? PHONE_IN : { type: 'string', pattern: '^\\d{3}-\\d{3}-\\d{4}$' };
    case 'email':
      return { type: 'string', format: 'email' };
    case 'url':
      return { type: 'string', format: 'uri' };
    case 'object':
      return { $ref: `#/components/schemas/${f.type!().name}` };
  }
}

export function fieldSchema(f: FieldMeta): Schema {
  let s = scalarSchema(f);
  if (f.list) s = { type: 'array', items: s };
  if (f.nullable) {
    if (s.$ref) s = { oneOf: [s, { type: 'null' }] };
    else s = { ...s, type: [s.type, 'null'].flat(), ...(Array.isArray(s.enum) ? { enum: [...s.enum, null] } : {}) };
  }
  if (f.description) s = { ...s, description: s.description ? `${f.description}; ${String(s.description)}` : f.description };
  if (f.default !== undefined) s = { ...s, default: f.default };
  return s;
}

function objectSchema(cls: Function, io: 'in' | 'out', schemas: Schemas, extra: Record<string, Schema> = {}): Schema {
  const fields = restFieldsOf(cls).filter((f) => f.io === io);
  for (const f of fields) if (f.kind === 'object') register(f.type!(), io, schemas);
  const required = [...new Set([...fields.filter((f) => (io === 'in' ? f.required : true)).map((f) => f.restName), ...Object.keys(extra)])];
  return {
    type: 'object',
    additionalProperties: false,
    properties: { ...Object.fromEntries(fields.map((f) => [f.restName, fieldSchema(f)])), ...extra },
    ...(required.length ? { required } : {}),
  };
}

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

/** The schema of a class's declared fields, registered once under the class name. */
export function register(cls: Function, io: 'in' | 'out', schemas: Schemas): Schema {
  if (!schemas[cls.name]) {
    schemas[cls.name] = {};
    schemas[cls.name] = objectSchema(cls, io, schemas);
  }
  return ref(cls.name);
}

const pascal = (s: string) => s.replace(/(^|_)(\w)/g, (_m, _u, c: string) => c.toUpperCase());

/** A summary of a related record (`CustomerSummary`): exactly the embed's fields, or null. */
function summary(e: Embed, schemas: Schemas): Schema {
  const fields = restFieldsOf(e.entity).filter((f) => f.io === 'out' && e.fields.includes(f.restName));
  const schema: Schema = { type: 'object', additionalProperties: false, required: fields.map((f) => f.restName), properties: Object.fromEntries(fields.map((f) => [f.restName, fieldSchema(f)])) };
  // Two summaries of one entity with other fields get the extra fields in the name.
  let name = `${e.entity.name}Summary`;
  if (schemas[name] && JSON.stringify(schemas[name]) !== JSON.stringify(schema)) {
    const base = schemas[name].required as string[];
    name += 'With' + e.fields.filter((f) => !base.includes(f)).map(pascal).join('And');
  }
  schemas[name] ??= schema;
  return { oneOf: [ref(name), { type: 'null' }] };
}

/**
 * A record with its embedded summaries, as one closed object schema (`JobWithCustomerLocationAssignedUser`):
 * the record's fields and the summaries' keys, every one present.
 */
export function withEmbeds(cls: Function, embeds: Embed[] | undefined, schemas: Schemas): Schema {
  if (!embeds?.length) return register(cls, 'out', schemas);
  const name = `${cls.name}With${embeds.map((e) => pascal(e.key)).join('')}`;
  if (!schemas[name]) {
    schemas[name] = {};
    schemas[name] = objectSchema(cls, 'out', schemas, Object.fromEntries(embeds.map((e) => [e.key, summary(e, schemas)])));
  }
  return ref(name);
}

/** A query parameter: enum lists are arrays sent comma-separated (style form, explode false). */
export function queryParameter(f: FieldMeta, output: Function, prefixed?: FieldMeta): Schema {
  if (f.prefixed) {
    // Each filter is a parameter of its own (`cf.gate_code=4411`, `cf.tonnage[gte]=2`): an object
    // sent form-exploded, one parameter per property.
    const pattern = `^${f.restName}\\.[a-z][a-z0-9_]{0,39}(\\[(gte|lte|gt|lt)\\])?$`;
    return { name: f.restName, in: 'query', required: false, style: 'form', explode: true, description: f.description, schema: { type: 'object', patternProperties: { [pattern]: { type: 'string' } }, additionalProperties: false } };
  }
  // A list with custom fields also sorts by one (`sort=-cf.tonnage`).
  if (f.valuesFor && prefixed) return { name: f.restName, in: 'query', required: false, description: `${f.description}; or ${prefixed.restName}.<key> of a custom field`, schema: { anyOf: [{ type: 'string', enum: f.valuesFor(output) }, { type: 'string', pattern: `^-?${prefixed.restName}\\.[a-z][a-z0-9_]{0,39}$` }] } };
  // A field whose values depend on the route's records (`sort`: that resource's sortable fields).
  if (f.valuesFor) return { name: f.restName, in: 'query', required: false, description: f.description, schema: { type: 'string', enum: f.valuesFor(output) } };
  if (f.kind === 'enum' && f.list) {
    const values = Object.values(f.enum!);
    return {
      name: f.restName,
      in: 'query',
      required: false,
      style: 'form',
      explode: false,
      description: `one value or a comma-separated list of: ${values.join(', ')} (case-insensitive)`,
      schema: { type: 'array', items: { type: 'string', enum: values } },
    };
  }
  const schema = scalarSchema(f);
  const description = f.restName === 'limit' ? 'page size, default 50; above 100 it is 100' : f.restName === 'page' ? 'page number, default 1' : f.description;
  return { name: f.restName, in: 'query', required: false, schema, ...(description ? { description } : {}) };
}
