import { EntityMetadata, ReferenceKind } from '@mikro-orm/core';
import type { EntityManager, EntityName } from '@mikro-orm/postgresql';
import { columns } from './columns';
import { findRows, identityMapDisabled } from './orm-adapter';

// The lean read path (lists and batched loaders): rows fetched with the same SQL MikroORM would
// run, turned into instances of the entity classes without MikroORM's hydration, identity map and
// change tracking. Getters, @ApiField serialization and GraphQL resolvers work on them as on
// managed entities; they are read-only snapshots: never persist, flush or assign them to a
// managed entity's relation (writes load managed entities with findActive / resolveRef). A new
// entity that is never managed and is written by hand may hold them as its relations, reading only
// their keys (an invoice create's job and customer, src/modules/invoice/invoice.write.ts).
//
// A profile of the GraphQL invoices page put ~40% of the server's CPU in hydration (one
// Object.defineProperty per property and per reference, a WrappedEntity per instance, identity
// map registration). Here a row costs one object and its properties.

export type Data = Record<string, unknown>;
type Mapper = (data: Data) => any;

const mappers = new WeakMap<EntityMetadata, Mapper | null>();
const prototypes = new WeakMap<EntityMetadata, object>();

/**
 * The getters and methods entity classes declare, as declared: MikroORM replaces each with a
 * wrapper when it discovers the entity (a no-op when called on the prototype itself), which hides
 * the function's source and costs a rest-parameter call per read. Kept before the ORM starts
 * (src/db/entities.ts); lean instances read through them, and the feed's fast renderer
 * (src/modules/event/event.render-fast.ts) asks which properties a getter computes.
 */
const declared = new WeakMap<object, Map<string, PropertyDescriptor>>();

export function keepDeclaredAccessors(classes: readonly Function[]): void {
  for (const cls of classes) {
    for (let o = cls.prototype; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
      if (declared.has(o)) continue;
      const own = new Map<string, PropertyDescriptor>();
      for (const [name, d] of Object.entries(Object.getOwnPropertyDescriptors(o))) {
        const fn = d.get ?? d.value;
        if (name !== 'constructor' && typeof fn === 'function' && !(fn as { __guarded?: boolean }).__guarded) own.set(name, d);
      }
      declared.set(o, own);
    }
  }
}

/** A getter's or method's function as the class declares it, on the prototype chain; null if none (or not kept). */
export function declaredAccessor(proto: object, name: string): Function | null {
  for (let o: object | null = proto; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    const own = declared.get(o);
    if (!own) return null;
    const d = own.get(name);
    if (d) return d.get ?? d.value;
    if (Object.prototype.hasOwnProperty.call(o, name)) return null;
  }
  return null;
}

/**
 * The prototype of lean instances of an entity: the entity class's prototype (getters, methods),
 * with each persistent property shadowed by a plain writable data property. MikroORM puts
 * change-tracking setters for those properties on the class's prototype; assigning through them
 * would build the per-instance state this path avoids.
 */
function leanPrototype(meta: EntityMetadata): object {
  let proto = prototypes.get(meta);
  if (!proto) {
    const shadows: PropertyDescriptorMap = { constructor: { value: meta.class, writable: true, configurable: true } };
    // The declared getters and methods, nearest class first, without MikroORM's wrappers.
    for (let o = meta.class.prototype; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
      for (const [name, d] of declared.get(o) ?? []) if (!(name in shadows)) shadows[name] = d;
    }
    for (const prop of meta.props) shadows[prop.name] = { value: undefined, writable: true, enumerable: false, configurable: true };
    proto = Object.create(meta.class.prototype, shadows) as object;
    prototypes.set(meta, proto);
  }
  return proto;
}

/**
 * Makes references to related records of `meta` carrying their primary key only, as MikroORM's
 * uninitialized references do; the prototype and the key's name are looked up once per maker, not
 * once per row.
 */
function referenceMaker(meta: EntityMetadata): (pk: unknown) => any {
  const key = meta.primaryKeys[0];
  let proto: object | undefined;
  return (pk) => {
    const ref = Object.create((proto ??= leanPrototype(meta)));
    ref[key] = pk;
    return ref;
  };
}

/**
 * One property of a row as the mapper sets it, from MikroORM's metadata: a scalar column (custom
 * types such as MoneyType through their convertToJSValue, booleans, timestamps as Date), a
 * @Formula value, or a many-to-one relation as a reference. The same conversions as MikroORM's
 * ObjectHydrator applies when it hydrates query results.
 */
type Step = { prop: any } & ({ kind: 'plain' | 'bool' | 'date' } | { kind: 'custom'; type: any } | { kind: 'ref'; target: EntityMetadata });

/**
 * The steps of an entity's mapper; null for shapes they do not cover (composite keys,
 * embeddables, collections owned by the row, …): callers then use managed entities.
 */
export function buildSteps(em: EntityManager, meta: EntityMetadata): Step[] | null {
  if (meta.primaryKeys.length !== 1 || meta.embeddable || meta.virtual || meta.discriminatorColumn) return null;
  // Entities with onLoad hooks or eagerly loaded relations need what MikroORM does on load.
  if (meta.hooks?.onLoad?.length || meta.props.some((p) => p.eager)) return null;
  const platform = em.getPlatform();
  const steps: Step[] = [];
  // Shapes the mapper does not cover: embedded properties, wrapped references (Ref).
  if (meta.props.some((p) => p.embedded || p.kind === ReferenceKind.EMBEDDED)) return null;
  for (const prop of columns(meta).read) {
    if (prop.ref) return null;
    if (prop.kind !== ReferenceKind.SCALAR) {
      const target = prop.targetMeta;
      if (!target || target.primaryKeys.length !== 1) return null;
      steps.push({ prop, kind: 'ref', target });
    } else if (prop.customType) {
      steps.push({ prop, kind: 'custom', type: prop.customType });
    } else if (prop.runtimeType === 'boolean') {
      steps.push({ prop, kind: 'bool' });
    } else if (prop.runtimeType === 'Date' && !platform.isNumericProperty(prop)) {
      steps.push({ prop, kind: 'date' });
    } else {
      steps.push({ prop, kind: 'plain' });
    }
  }
  return steps;
}

/**
 * A mapper compiled from the steps (one function per entity and source, with each property named
 * in its code, so that V8 sees one object shape per entity): `source(i, step)` is the expression
 * reading step i's value from `d`, the row keyed by property (the driver's mapped rows) or the
 * array of values (leanList's JSON). An undefined value (not in the row) leaves the property unset.
 */
export function compileMapper(em: EntityManager, meta: EntityMetadata, steps: Step[], source: (i: number, step: Step) => string): Mapper {
  const platform = em.getPlatform();
  const options = { mode: 'serialization' };
  const helpers: unknown[] = [];
  const use = (x: unknown) => `h[${helpers.push(x) - 1}]`;
  const lines = steps.map((st, i) => {
    const to = `e[${JSON.stringify(st.prop.name)}]`;
    let set: string;
    if (st.kind === 'plain') return `v = ${source(i, st)}; if (v !== undefined) ${to} = v;`;
    if (st.kind === 'bool') set = '!!v';
    else if (st.kind === 'date') set = 'v instanceof Date ? v : new Date(v)';
    else if (st.kind === 'custom') set = `${use(st.type)}.convertToJSValue(v, ${use(platform)}, ${use(options)})`;
    else if (st.kind === 'ref') {
      const target = st.target;
      const ref = use(referenceMaker(target));
      set = `typeof v === 'object' ? ${ref}(v[${JSON.stringify(target.primaryKeys[0])}]) : ${ref}(v)`;
    } else throw new Error('unknown step');
    return `v = ${source(i, st)}; if (v === null) ${to} = null; else if (v !== undefined) ${to} = ${set};`;
  });
  const code = `return function map_${meta.className}(d) {\n  const e = Object.create(proto);\n  let v;\n  ${lines.join('\n  ')}\n  return e;\n};`;
  return new Function('proto', 'h', code)(leanPrototype(meta), helpers) as Mapper;
}

function buildMapper(em: EntityManager, meta: EntityMetadata): Mapper | null {
  const steps = buildSteps(em, meta);
  return steps && compileMapper(em, meta, steps, (_, st) => `d[${JSON.stringify(st.prop.name)}]`);
}

export function mapperOf(em: EntityManager, entityName: string): Mapper | null {
  const meta = em.getMetadata().get(entityName);
  let mapper = mappers.get(meta);
  if (mapper === undefined) {
    mapper = buildMapper(em, meta);
    mappers.set(meta, mapper);
  }
  return mapper;
}

/** A lean (read-only) instance of one row as the driver returns it, keyed by column names. */
export function leanRecord<T>(em: EntityManager, entity: new (...args: any[]) => T, row: Data): T {
  const meta = em.getMetadata().get(entity.name);
  const data = em.getDriver().mapResult(row, meta) as Data;
  const mapper = mapperOf(em, entity.name);
  if (!mapper) throw new Error(`${entity.name} has no lean mapper`);
  return mapper(data);
}

const columnMappers = new WeakMap<EntityMetadata, Mapper | null>();

/**
 * A compiled mapper of rows keyed by column names (a stored row image, `to_jsonb` of the row):
 * leanRecord's conversions without the driver's generic mapResult per row (the event feed).
 */
export function leanColumnMapper<T>(em: EntityManager, entity: new (...args: any[]) => T): (row: Data) => T {
  const meta = em.getMetadata().get(entity.name);
  let mapper = columnMappers.get(meta);
  if (mapper === undefined) {
    const steps = buildSteps(em, meta);
    mapper = steps && compileMapper(em, meta, steps, (_, st) => `d[${JSON.stringify(st.prop.fieldNames[0])}]`);
    columnMappers.set(meta, mapper);
  }
  if (!mapper) throw new Error(`${entity.name} has no lean mapper`);
  return mapper;
}

/**
 * `em.find(entity, where, options)` without hydration: the statement is the one em.find runs
 * (src/data/orm-adapter.ts findRows); only the rows are mapped lean. Covers the options the
 * loaders use (where, orderBy); the lean-path test compares the results with em.find's for every entity.
 */
export async function leanFind<T>(em: EntityManager, entity: new (...args: any[]) => T, where: object, options: Record<string, unknown> = {}): Promise<T[]> {
  const mapper = mapperOf(em, entity.name);
  const rows = mapper && !identityMapDisabled(em) ? await findRows(em, entity.name, where, options) : null;
  if (!rows) return em.find(entity, where as any, options as any) as Promise<T[]>;
  return rows.map(mapper!);
}
