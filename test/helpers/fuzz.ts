import fc from 'fast-check';
import {
  GraphQLInputType,
  GraphQLSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
} from 'graphql';
import { FieldMeta, restFieldsOf } from '../../src/schema/fields';

// Generators of hostile and plausible input, derived from the field declarations (REST) and the
// schema (GraphQL), so that a new route or mutation is fuzzed without editing a test.

/** Runs of one property: its share of FUZZ_RUNS (default 2,000 cases in all). */
export function fuzzRuns(share: number): number {
  return Math.max(1, Math.round(Number(process.env.FUZZ_RUNS ?? 2000) * share));
}

/**
 * `levels` nested lists (`[[[]]]` for 3), written into the JSON text by `jsonText`: a value this
 * deep cannot go through JSON.stringify (superagent's or fast-check's printer) in the test.
 */
export class DeepJson {
  constructor(readonly levels: number) {}
  [fc.toStringMethod](): string {
    return `<${this.levels} nested lists>`;
  }
}

/** A request's JSON text, with each DeepJson written as its nested lists. */
export function jsonText(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (v instanceof DeepJson ? `\u0000deep:${v.levels}\u0000` : v)).replace(/"\\u0000deep:(\d+)\\u0000"/g, (_m, n: string) => '['.repeat(Number(n)) + ']'.repeat(Number(n)));
}

/**
 * JSON that PostgreSQL or a recursive walk cannot take: lone UTF-16 surrogates and NULs (in values
 * and keys, at any depth), and values nested far deeper than the JSON depth limit.
 */
export const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>('\ud800', 'a\udfffb', '\u0000', { k: '\udbff' }, { k: ['ok', 'x\u0000'] }, { 'k\u0000': 1 }, { '\ud800': 'x' }),
  fc.constantFrom(5000, 65).map((levels) => ({ k: new DeepJson(levels) })),
);

/** Strings PostgreSQL refuses as text: a lone surrogate, a NUL. */
export const hostileText = fc.constantFrom('\ud800', 'a\udfffb', 'x\u0000');

const odd = fc.oneof(
  fc.constantFrom(null, '', ' ', '\u0000', 'NaN', '-0', '1e400', '0x10', '[]', '{}', '😀'.repeat(300), 'x'.repeat(10_001), -1, 0, 1e21, -1e21, 2 ** 53, 0.1 + 0.2, true, false),
  fc.jsonValue({ maxDepth: 2 }),
  fc.array(fc.oneof(fc.integer(), fc.string(), fc.constant(null)), { maxLength: 3 }),
  hostileJson,
);

/** Path ids that are not valid percent-encoding (the router takes them as their text). */
export const undecodableIds = ['%ff', '%', '%C0%AF', '%E0%A4%A', 'a%zz'];

const dates = fc.oneof(
  fc.date({ min: new Date('1900-01-01'), max: new Date('2200-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  fc.constantFrom('2024-02-29', '2023-02-29', '2024-13-01', '0000-01-01', '9999-12-31', '2024-1-1', '20240101'),
);
const timestamps = fc.oneof(
  fc.date({ min: new Date('1900-01-01'), max: new Date('2200-01-01'), noInvalidDate: true }).map((d) => d.toISOString()),
  fc.constantFrom('2024-03-10T02:30:00-05:00', '2024-01-01T00:00:00', '2024-01-01', '+275760-09-13T00:00:00Z', 'yesterday'),
);
const amounts = fc.oneof(fc.integer({ min: -5, max: 1_000_000 }), fc.double({ min: -1, max: 1e13, noNaN: true }), fc.constantFrom(0.005, 9999999999.99, 10_000_000_000, 161.29));

/** A plausible-or-hostile value for one declared input field. */
function valueOf(meta: FieldMeta, uuids: string[], depth: number): fc.Arbitrary<unknown> {
  const uuid = fc.oneof(fc.constantFrom(...uuids), fc.uuid(), fc.constantFrom('not-a-uuid', uuids[0].toUpperCase()));
  let plain: fc.Arbitrary<unknown>;
  switch (meta.kind) {
    case 'string':
    case 'text':
      plain = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 40 }));
      break;
    case 'phone':
      plain = fc.constantFrom('(217) 555-0101', '217-555-0101', '+1 217 555 0101', '555', 'phone');
      break;
    case 'email':
      plain = fc.oneof(fc.emailAddress(), fc.constantFrom('a@b', '@', 'x@y.z'));
      break;
    case 'url':
      plain = fc.oneof(fc.webUrl(), fc.constantFrom('ftp://x.example', 'example.com', 'https://', ' https://a.example '));
      break;
    case 'uuid':
      plain = uuid;
      break;
    case 'int':
      plain = fc.oneof(fc.integer({ min: -3, max: 200 }), fc.constantFrom(2 ** 31, -(2 ** 31), 2 ** 53 + 1, 1.5));
      break;
    case 'number':
    case 'money':
      plain = amounts;
      break;
    case 'boolean':
      plain = fc.boolean();
      break;
    case 'date':
      plain = dates;
      break;
    case 'datetime':
      plain = timestamps;
      break;
    case 'time':
      plain = fc.constantFrom('08:00', '23:59', '24:00', '7:5', '12:60', '00:00');
      break;
    case 'enum':
      plain = fc.oneof(fc.constantFrom(...Object.values(meta.enum!)), fc.constant('Nope'), fc.constantFrom(...Object.values(meta.enum!).map((v) => v.toLowerCase())));
      break;
    case 'json':
      plain = fc.oneof({ weight: 3, arbitrary: fc.object({ maxDepth: 2 }) }, { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 2 }) }, { weight: 1, arbitrary: hostileJson });
      break;
    case 'object': {
      const one = depth > 2 ? fc.object({ maxDepth: 1 }) : restBody(meta.type!(), uuids, depth + 1);
      plain = meta.list ? fc.array(fc.oneof({ weight: 2, arbitrary: one }, { weight: 1, arbitrary: odd }), { maxLength: 4 }) : one;
      break;
    }
  }
  if (meta.list && meta.kind !== 'object') plain = fc.oneof(fc.array(plain, { maxLength: 3 }), plain);
  return fc.oneof({ weight: 5, arbitrary: plain }, { weight: 1, arbitrary: odd });
}

/** A JSON body for an input class: each declared field present or not, plus an occasional stranger. */
export function restBody(cls: Function, uuids: string[], depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const fields = restFieldsOf(cls).filter((f) => f.io === 'in');
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const f of fields) record[f.restName] = valueOf(f, uuids, depth);
  const known = fc.record(record, { requiredKeys: fields.filter((f) => f.required).map((f) => f.restName) });
  return fc.oneof({ weight: 9, arbitrary: known }, { weight: 1, arbitrary: fc.tuple(known, fc.string({ minLength: 1, maxLength: 8 }), odd).map(([b, k, v]) => ({ ...b, [k]: v })) });
}

/** Variables for a GraphQL argument of any input type: mostly well-typed, sometimes not. */
export function graphqlValue(type: GraphQLInputType, uuids: string[], depth = 0): fc.Arbitrary<unknown> {
  if (isNonNullType(type)) return graphqlValue(type.ofType, uuids, depth).filter((v) => v !== null);
  const nullable = <T>(a: fc.Arbitrary<T>) => fc.oneof({ weight: 6, arbitrary: a }, { weight: 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: odd });
  if (isListType(type)) return nullable(fc.array(graphqlValue(type.ofType, uuids, depth + 1), { maxLength: 3 }));
  const named = getNamedType(type);
  if (isEnumType(named)) return nullable(fc.constantFrom(...named.getValues().map((v) => v.name)));
  if (isInputObjectType(named)) {
    if (depth > 3) return fc.constant(null);
    const fields = Object.values(named.getFields());
    const record: Record<string, fc.Arbitrary<unknown>> = {};
    for (const f of fields) record[f.name] = graphqlValue(f.type, uuids, depth + 1);
    return nullable(fc.record(record, { requiredKeys: fields.filter((f) => isNonNullType(f.type)).map((f) => f.name) }));
  }
  if (isScalarType(named)) {
    const byName: Record<string, fc.Arbitrary<unknown>> = {
      Int: fc.integer({ min: -3, max: 200 }),
      Float: amounts,
      Boolean: fc.boolean(),
      UUID: fc.oneof(fc.constantFrom(...uuids), fc.uuid()),
      DateTime: timestamps,
      Date: dates,
      JSON: fc.oneof({ weight: 2, arbitrary: fc.object({ maxDepth: 2 }) }, { weight: 1, arbitrary: hostileJson }),
      // Text PostgreSQL refuses, in any string argument or input field.
      String: fc.oneof({ weight: 6, arbitrary: fc.string({ maxLength: 30 }) }, { weight: 1, arbitrary: hostileText }),
      ID: fc.string({ maxLength: 20 }),
    };
    return nullable(byName[named.name] ?? fc.string());
  }
  return odd;
}

/** Mutation fields of a schema, with the variable definitions and selection to call each. */
export function mutationCalls(schema: GraphQLSchema): Array<{ name: string; text: string; args: Array<{ name: string; type: GraphQLInputType }> }> {
  const fields = Object.values(schema.getMutationType()?.getFields() ?? {});
  return fields
    .filter((f) => !f.args.some((a) => getNamedType(a.type).name === 'Upload'))
    .map((f) => {
      const defs = f.args.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
      const call = f.args.map((a) => `${a.name}: $${a.name}`).join(', ');
      const leaf = isScalarType(getNamedType(f.type)) || isEnumType(getNamedType(f.type));
      const text = `mutation${defs ? `(${defs})` : ''} { ${f.name}${call ? `(${call})` : ''}${leaf ? '' : ' { __typename }'} }`;
      return { name: f.name, text, args: f.args.map((a) => ({ name: a.name, type: a.type })) };
    });
}

/**
 * Bodies that reach the services: a valid body (the record as GET shows it, cut to the input's
 * fields) with zero to two of its fields replaced by generated values.
 */
export function perturbed(cls: Function, base: Record<string, unknown>, uuids: string[]): fc.Arbitrary<Record<string, unknown>> {
  const fields = restFieldsOf(cls).filter((f) => f.io === 'in');
  const start: Record<string, unknown> = {};
  for (const f of fields) if (f.restName in base) start[f.restName] = base[f.restName];
  if (!fields.length) return fc.constant(start);
  // Nested objects and lists hide the most: they are picked three times as often.
  const weighted = fields.flatMap((f) => (f.kind === 'object' || f.list ? [f, f, f] : [f]));
  const change = fc.constantFrom(...weighted).chain((f) => fc.tuple(fc.constant(f.restName), valueOf(f, uuids, 0), fc.boolean()));
  return fc.array(change, { maxLength: 2 }).map((changes) => {
    const body = { ...start };
    for (const [k, v, drop] of changes) {
      if (drop && !(k in start)) continue;
      if (drop) delete body[k];
      else body[k] = v;
    }
    return body;
  });
}
