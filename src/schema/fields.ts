import 'reflect-metadata';
import { Field, Float, Int } from 'type-graphql';
import type { FieldKind, FieldMeta, FieldOptions } from './field-types';
import { validatorsFor } from './validators';
import { DateScalar, DateTimeScalar, JSONScalar, UUIDScalar } from './scalars';

// One decorator declares a field for both surfaces: its GraphQL field (the property name) and its
// REST name, declared rather than computed (docs/conventions.md). Validation, REST case mapping and the
// OpenAPI document are all driven by this metadata (its types: ./field-types.ts).

export type { FieldKind, FieldMeta, FieldOptions } from './field-types';

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
    case 'url':
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

const otherReads = new Map<Function, Map<string, readonly string[]>>();

/** What a computed field declared by other means than @ApiField reads (the global `id`, src/schema/global-id.ts): see FieldOptions.reads. */
export function declareReads(cls: Function, prop: string, reads: readonly string[]): void {
  if (!otherReads.has(cls)) otherReads.set(cls, new Map());
  otherReads.get(cls)!.set(prop, reads);
}

/** On a `@FieldResolver` method: the properties of the root record (of the class `root` gives) that the field reads (FieldOptions.reads). */
export function Reads(root: () => Function, ...reads: string[]): MethodDecorator {
  return (_target, prop) => declareReads(root(), String(prop), reads);
}

/** The computed output fields of a class that declare what they read (FieldOptions.reads, declareReads), by property. */
export function fieldReads(cls: Function): Map<string, readonly string[]> {
  const out = new Map<string, readonly string[]>();
  for (let c: any = cls; c && c !== Object && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    for (const [prop, reads] of otherReads.get(c) ?? []) if (!out.has(prop)) out.set(prop, reads);
  }
  for (const f of fieldsOf(cls)) if (f.io === 'out' && f.reads) out.set(f.prop, f.reads);
  return out;
}

export function restFieldsOf(cls: Function): FieldMeta[] {
  return fieldsOf(cls).filter((f) => f.rest !== false);
}

export function restIndex(cls: Function): Map<string, FieldMeta> {
  return new Map(restFieldsOf(cls).map((f) => [f.restName, f]));
}
