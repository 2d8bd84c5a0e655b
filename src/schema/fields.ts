import 'reflect-metadata';
import { Field, Float, Int } from 'type-graphql';
import { validatorsFor } from './validation';
import { DateScalar, DateTimeScalar, JSONScalar, UUIDScalar } from './scalars';

// One decorator declares a field for both surfaces: its GraphQL field (the property name) and its
// REST name, declared rather than computed (docs/conventions.md). Validation, REST case mapping and the
// OpenAPI document are all driven by this metadata.

export type FieldKind =
  | 'string' // trimmed, at most 255 characters
  | 'text' // notes and descriptions: at most 10,000 characters
  | 'uuid'
  | 'int'
  | 'number'
  | 'money' // ≥ 0, two decimals, in whole dollars on the wire
  | 'boolean'
  | 'date' // YYYY-MM-DD
  | 'datetime' // RFC 3339 in, ISO UTC out
  | 'time' // HH:MM
  | 'json'
  | 'enum'
  | 'phone'
  | 'email'
  | 'object'; // a nested class

export interface FieldOptions {
  /** May be null (outputs) / may be sent as null (inputs). */
  nullable?: boolean;
  /** Must be present in an input. */
  required?: boolean;
  list?: boolean;
  enum?: Record<string, string>;
  /** Nested class for kind 'object'. */
  type?: () => Function;
  description?: string;
  /** Only on GraphQL (relations resolved there) or only on REST. */
  graphql?: boolean;
  rest?: boolean;
  /** JSON: object only (default) or any JSON value. */
  jsonArray?: boolean;
  /** Normalisation applied to a string after trimming (e.g. upper-casing a state code). */
  transform?: (value: string) => string;
  /** Extra validation run after the type checks; returns an error message or null. */
  check?: (value: any, input: any) => string | null;
  /** Default documented in OpenAPI. */
  default?: unknown;
  min?: number;
  max?: number;
  /** A query field whose values depend on the listed entity (a list's `sort`): its enum in the OpenAPI document. */
  valuesFor?: (entity: Function) => string[];
}

export interface FieldMeta extends FieldOptions {
  prop: string;
  restName: string;
  kind: FieldKind;
  io: 'in' | 'out';
}

const registry = new Map<Function, FieldMeta[]>();
const TRAILING = new Set(['createdAt', 'updatedAt', 'deletedAt']);
const cache = new Map<Function, FieldMeta[]>();

/** A field of an output (entity or result) class: GraphQL-nullable when `nullable`. */
export function ApiField(restName: string, kind: FieldKind, options: FieldOptions = {}): PropertyDecorator {
  return declare('out', restName, kind, options);
}

/** A field of an input class: GraphQL-nullable unless `required`, so it may be omitted. */
export function InputField(restName: string, kind: FieldKind, options: FieldOptions = {}): PropertyDecorator {
  return declare('in', restName, kind, options);
}

function declare(io: 'in' | 'out', restName: string, kind: FieldKind, options: FieldOptions): PropertyDecorator {
  return (target, prop) => {
    const ctor = target.constructor;
    const meta: FieldMeta = { ...options, prop: String(prop), restName, kind, io };
    if (!registry.has(ctor)) registry.set(ctor, []);
    registry.get(ctor)!.push(meta);
    cache.clear();
    if (io === 'in') for (const v of validatorsFor(meta)) v(target, prop);
    if (options.graphql !== false) {
      const type = graphqlType(meta);
      const nullable = io === 'in' ? !meta.required : !!meta.nullable;
      // Output fields are read off the object as they are (properties and getters): a simple
      // resolver (graphql's default) instead of TypeGraphQL's middleware pipeline per field and
      // per row. An output field that ever needs a middleware must be declared with @Field.
      Field(() => (meta.list ? [type()] : type()), { nullable, description: meta.description, ...(io === 'out' ? { simple: true } : {}) })(target, prop);
    }
  };
}

export function graphqlType(meta: FieldMeta): () => any {
  switch (meta.kind) {
    case 'string':
    case 'text':
    case 'time':
    case 'phone':
    case 'email':
      return () => String;
    case 'uuid':
      return () => UUIDScalar;
    case 'int':
      return () => Int;
    case 'number':
    case 'money':
      return () => Float;
    case 'boolean':
      return () => Boolean;
    case 'date':
      return () => DateScalar;
    case 'datetime':
      return () => DateTimeScalar;
    case 'json':
      return () => JSONScalar;
    case 'enum':
      return () => meta.enum!;
    case 'object':
      return meta.type!;
  }
}

/** All fields of a class, its ancestors' first. */
export function fieldsOf(cls: Function): FieldMeta[] {
  const hit = cache.get(cls);
  if (hit) return hit;
  const chain: Function[] = [];
  for (let c: any = cls; c && c !== Object && c !== Function.prototype; c = Object.getPrototypeOf(c)) chain.unshift(c);
  const byProp = new Map<string, FieldMeta>();
  for (const c of chain) for (const f of registry.get(c) ?? []) byProp.set(f.prop, f);
  // Record timestamps read best last, as the contract lists them.
  const list = [...byProp.values()].sort((a, b) => Number(TRAILING.has(a.prop)) - Number(TRAILING.has(b.prop)));
  cache.set(cls, list);
  return list;
}

export function restFieldsOf(cls: Function): FieldMeta[] {
  return fieldsOf(cls).filter((f) => f.rest !== false);
}

export function restIndex(cls: Function): Map<string, FieldMeta> {
  return new Map(restFieldsOf(cls).map((f) => [f.restName, f]));
}
