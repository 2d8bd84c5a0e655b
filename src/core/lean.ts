import { EntityMetadata, ReferenceKind } from '@mikro-orm/core';
import type { EntityManager, EntityName } from '@mikro-orm/postgresql';
import { runStatement } from './prepared';
import { COUNTED_TABLES, countedTotalSql } from './document-counts';

// The lean read path (lists and batched loaders): rows fetched with the same SQL MikroORM would
// run, turned into instances of the entity classes without MikroORM's hydration, identity map and
// change tracking. Getters, @ApiField serialization and GraphQL resolvers work on them as on
// managed entities; they are read-only snapshots: never persist, flush or assign them to a
// managed entity's relation (writes load managed entities with findActive / resolveRef).
//
// A profile of the GraphQL invoices page put ~40% of the server's CPU in hydration (one
// Object.defineProperty per property and per reference, a WrappedEntity per instance, identity
// map registration). Here a row costs one object and its properties.

type Data = Record<string, unknown>;
type Mapper = (data: Data) => any;

const mappers = new WeakMap<EntityMetadata, Mapper | null>();
const prototypes = new WeakMap<EntityMetadata, object>();

/**
 * The getters and methods entity classes declare, as declared: MikroORM replaces each with a
 * wrapper when it discovers the entity (a no-op when called on the prototype itself), which hides
 * the function's source and costs a rest-parameter call per read. Kept before the ORM starts
 * (src/db/entities.ts); lean instances read through them, and src/graphql/prefetch.ts reads
 * their source.
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

/** A reference to a related record carrying its primary key only, as MikroORM's uninitialized references do. */
function referenceTo(meta: EntityMetadata, pk: unknown): any {
  const ref = Object.create(leanPrototype(meta));
  ref[meta.primaryKeys[0]] = pk;
  return ref;
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
function buildSteps(em: EntityManager, meta: EntityMetadata): Step[] | null {
  if (meta.primaryKeys.length !== 1 || meta.embeddable || meta.virtual || meta.discriminatorColumn) return null;
  // Entities with onLoad hooks or eagerly loaded relations need what MikroORM does on load.
  if (meta.hooks?.onLoad?.length || meta.props.some((p) => p.eager)) return null;
  const platform = em.getPlatform();
  const steps: Step[] = [];
  for (const prop of meta.props) {
    if (prop.getter && !prop.setter && prop.persist === false) continue;
    if (prop.kind === ReferenceKind.ONE_TO_MANY || prop.kind === ReferenceKind.MANY_TO_MANY) continue; // not columns of the row
    if (prop.embedded || prop.kind === ReferenceKind.EMBEDDED || prop.ref) return null;
    if (prop.kind === ReferenceKind.MANY_TO_ONE || (prop.kind === ReferenceKind.ONE_TO_ONE && prop.owner)) {
      const target = prop.targetMeta;
      if (!target || target.primaryKeys.length !== 1 || prop.fieldNames?.length !== 1) return null;
      steps.push({ prop, kind: 'ref', target });
    } else if (prop.kind === ReferenceKind.ONE_TO_ONE) {
      continue; // the inverse side has no column
    } else if (prop.kind !== ReferenceKind.SCALAR) {
      return null;
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
function compileMapper(em: EntityManager, meta: EntityMetadata, steps: Step[], source: (i: number, step: Step) => string): Mapper {
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
      const ref = use((pk: unknown) => referenceTo(target, pk));
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

function mapperOf(em: EntityManager, entityName: string): Mapper | null {
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
 * `em.find(entity, where, options)` without hydration: the statement is built by the same steps
 * EntityManager.find takes (filters, including the joins that apply the tenant filter to
 * relations, populate hints, auto-flush), so it is the one em.find runs; only the rows are mapped
 * lean. Covers the options the loaders use (where, orderBy); MikroORM is pinned (6.6.16) and the
 * lean-path test compares the results with em.find's for every entity.
 */
export async function leanFind<T>(em: EntityManager, entity: new (...args: any[]) => T, where: object, options: Record<string, unknown> = {}): Promise<T[]> {
  const mapper = mapperOf(em, entity.name);
  if (!mapper || (em as any).config.get('disableIdentityMap')) return em.find(entity, where as any, options as any) as Promise<T[]>;
  const ctx = (em as any).getContext();
  const meta = em.getMetadata().get(entity.name);
  let opts: any = { ...options };
  ctx.prepareOptions(opts);
  await ctx.tryFlush(entity.name, opts);
  const cond = await ctx.processWhere(entity.name, where, opts, 'read');
  ctx.validator.validateParams(cond);
  opts.orderBy = opts.orderBy || {};
  opts.populate = await ctx.preparePopulate(entity.name, opts);
  // The only hints allowed are the reference joins that apply filters to relations (`x:ref`):
  // anything to populate goes through em.find.
  if (!opts.populate.every((h: { field: string; filter?: boolean; children?: unknown[] }) => h.filter && h.field.endsWith(':ref') && !h.children?.length)) {
    return em.find(entity, where as any, options as any) as Promise<T[]>;
  }
  opts = { ...opts };
  opts._populateWhere = opts.populateWhere ?? ctx.config.get('populateWhere');
  opts.populateWhere = ctx.createPopulateWhere({ ...cond }, opts);
  opts.populateFilter = await ctx.getJoinedFilters(meta, opts);
  const rows: Data[] = await ctx.driver.find(entity.name, cond, { ctx: ctx.transactionContext, em: ctx, ...opts });
  return rows.map(mapper);
}

// ---------------------------------------------------------------------------------------------
// Batched loads by key (the loaders): their statements only vary in the company and the keys, so
// each is written once per entity and relation from the metadata and run with parameters (the
// keys as one array), instead of going through em.find's criteria pipeline on every request.
// The rows are those em.find returns: the same columns and @Formula values, mapped by the
// driver's result mapper, then lean. Tenancy: the company's rows only (every company-owned
// entity carries company_uuid; related records of one company are always that company's).

interface KeyedStatement {
  sql: string;
  /** Postgres type of the key column, for the array parameter. */
  keyType: string;
}

const keyedStatements = new Map<string, KeyedStatement | null>();

const q = (id: string) => `"${id.replace(/"/g, '""')}"`;

/** The entity's table, schema-qualified when it has a schema of its own. */
const tableOf = (meta: EntityMetadata) => (meta.schema && meta.schema !== '*' ? `${q(meta.schema)}.` : '') + q(meta.tableName);

/** A @Formula's SQL on the row under `alias`, given the table argument MikroORM's query builder passes (QueryBuilderHelper.createFormulaTable). */
function formulaSql(meta: EntityMetadata, prop: any, alias: string): string {
  const a = q(alias);
  const table = { alias: a, name: meta.tableName, schema: undefined, qualifiedName: meta.tableName, toString: () => a };
  return (prop.formula as any)(table, meta.createColumnMappingObject());
}

/** `select e.*, <formulas> from <table> as e`: what em.find selects for the entity. */
function selectOf(meta: EntityMetadata): string | null {
  const cols = ['e.*'];
  for (const prop of meta.props) {
    if (!prop.formula) continue;
    if (prop.lazy) return null;
    cols.push(`${formulaSql(meta, prop, 'e')} as ${q(prop.fieldNames[0])}`);
  }
  return `select ${cols.join(', ')} from ${tableOf(meta)} as e`;
}

function keyedStatement(em: EntityManager, entityName: string, keyProp: string, live: boolean): KeyedStatement | null {
  const cacheKey = `${entityName}\u0000${keyProp}\u0000${live}`;
  let st = keyedStatements.get(cacheKey);
  if (st !== undefined) return st;
  st = null;
  const meta = em.getMetadata().get(entityName);
  const key = meta.properties[keyProp as keyof typeof meta.properties] as any;
  const company = meta.properties['company' as keyof typeof meta.properties] as any;
  const select = mapperOf(em, entityName) ? selectOf(meta) : null;
  const keyType = key?.columnTypes?.[0];
  if (select && key && key.fieldNames?.length === 1 && company?.fieldNames?.length === 1 && /^(uuid|text|int|integer|bigint)$/.test(keyType ?? '')) {
    let sql = `${select} where e.${q(company.fieldNames[0])} = ? and e.${q(key.fieldNames[0])} = any(?::${keyType}[])`;
    if (live) sql += ` and e."deleted_at" is null order by e."created_at" desc, e."uuid" desc`;
    st = { sql, keyType };
  }
  keyedStatements.set(cacheKey, st);
  return st;
}

/** A Postgres array literal of keys (each element quoted). */
function arrayLiteral(keys: readonly string[]): string {
  return `{${keys.map((k) => `"${String(k).replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}

/**
 * Records of the request's company whose `keyProp` (the primary key, or a many-to-one relation)
 * is one of `keys`; with `live`, only records that are not deleted, newest first. Falls back to
 * em.find (through leanFind) where the shortcut does not apply: no tenant filter on the request,
 * or an entity shape the lean mapper does not handle.
 */
export async function leanByKeys<T>(em: EntityManager, entity: new (...args: any[]) => T, keyProp: string, keys: readonly string[], live: boolean): Promise<T[]> {
  const companyId = (em.getFilterParams('tenant') as { companyId?: string } | undefined)?.companyId;
  const st = companyId && !(em as any).config.get('disableIdentityMap') ? keyedStatement(em, entity.name, keyProp, live) : null;
  if (!st) {
    const where = live ? { [keyProp]: { $in: [...keys] }, deletedAt: null } : { [keyProp]: { $in: [...keys] } };
    return leanFind(em, entity, where, live ? { orderBy: { createdAt: 'desc', uuid: 'desc' } } : {});
  }
  await (em as any).getContext().tryFlush(entity.name, {});
  const meta = em.getMetadata().get(entity.name);
  const driver = em.getDriver();
  const mapper = mapperOf(em, entity.name)!;
  const rows = (await em.getConnection().execute(st.sql, [companyId, arrayLiteral(keys)], 'all', em.getTransactionContext())) as Data[];
  return rows.map((row) => mapper(driver.mapResult(row, meta) as Data));
}

// ---------------------------------------------------------------------------------------------
// List pages (src/core/crud.ts listPage): the page and its count, from conditions on `e`.

function metaOf(em: EntityManager, entity: EntityName<any>): EntityMetadata {
  return em.getMetadata().find(entity as any)!;
}

const columns = new WeakMap<EntityMetadata, Map<string, string>>();

/** The quoted column of a single-column property of an entity (`customer` → "customer_uuid"). */
export function leanColumn(em: EntityManager, entity: EntityName<any>, property: string): string {
  const meta = metaOf(em, entity);
  let byProp = columns.get(meta);
  if (!byProp) columns.set(meta, (byProp = new Map()));
  let col = byProp.get(property);
  if (col === undefined) {
    const prop = meta.properties[property as keyof typeof meta.properties] as any;
    if (!prop || prop.fieldNames?.length !== 1) throw new Error(`${meta.className}.${property} is not a single-column property`);
    col = q(prop.fieldNames[0]);
    byProp.set(property, col);
  }
  return col;
}

const pageSelects = new WeakMap<EntityMetadata, string>();

/**
 * One page of the rows matching `where` (SQL on alias `e`), in `sorted` order (ORDER BY on `e`), by
 * default newest first (created_at desc, primary key desc), lean.
 */
export async function leanPage<T>(em: EntityManager, entity: EntityName<T>, where: string, params: unknown[], limit: number, offset: number, sorted: string | null = null): Promise<T[]> {
  const meta = metaOf(em, entity);
  const mapper = mapperOf(em, meta.className);
  let select = pageSelects.get(meta);
  if (select === undefined) {
    const base = mapper ? selectOf(meta) : null;
    if (!base) throw new Error(`${meta.className} cannot be listed on the lean path`);
    select = base;
    pageSelects.set(meta, select);
  }
  await (em as any).getContext().tryFlush(meta.className, {});
  const order = `order by ${sorted ?? `e.${leanColumn(em, entity, 'createdAt')} desc, e.${leanColumn(em, entity, meta.primaryKeys[0])} desc`}`;
  const rows = (await em.getConnection().execute(`${select} where ${where} ${order} limit ? offset ?`, [...params, limit, offset], 'all', em.getTransactionContext())) as Data[];
  const driver = em.getDriver();
  return rows.map((row) => mapper!(driver.mapResult(row, meta) as Data));
}

/** How many rows match `where` (SQL on alias `e`). */
export async function leanCount(em: EntityManager, entity: EntityName<any>, where: string, params: unknown[]): Promise<number> {
  const meta = metaOf(em, entity);
  const [row] = (await em.getConnection().execute(`select count(*) as count from ${tableOf(meta)} as e where ${where}`, params, 'all', em.getTransactionContext())) as Data[];
  return Number(row.count);
}

// ---------------------------------------------------------------------------------------------
// A page in one statement: its rows, their count, and the related records the request will ask
// for (the GraphQL selection, the REST embeds), each record built by PostgreSQL as one JSON array
// of its columns. One statement and one JSON text instead of a statement per set and the
// driver's parsing of every column: the page of 100 invoices with their customers and payments
// cost the server ~16 ms of CPU in five statements, most of it parsing and mapping rows.

/**
 * A relation to load with a page: a many-to-one of the listed entity, or the live records (newest
 * first) whose many-to-one `prop` is the listed one. `props`: the only properties of the related
 * records to read (their primary key always), for a caller that knows every property it will read
 * (src/graphql/prefetch.ts); the others stay undefined.
 */
export type Related = ({ kind: 'one'; prop: string } | { kind: 'children'; entity: EntityName<any>; prop: string }) & { props?: readonly string[] | null };

interface JsonShape {
  /**
   * `json_build_array(<column values of the row under alias>)`. With `company` (an SQL expression
   * of the company every row belongs to), a formula that reads nothing of its row but the
   * company is computed once for the statement from it, not once per row (see companyFormula).
   */
  build(alias: string, company?: string): string;
  /** An instance from such an array (the same values the row path gives, through the same steps). */
  map(values: unknown[]): any;
}

const jsonShapes = new WeakMap<EntityMetadata, Map<string, JsonShape | null>>();

/**
 * How a column travels in the JSON so that the steps get what the driver gives for it: JSON's own
 * booleans, numbers of integer and float columns, json values, arrays and timestamps (ISO text,
 * made Date by the step); every other column as its text (numeric, bigint, date, uuid, text), as
 * pg returns it.
 */
function jsonValue(em: EntityManager, prop: any, expr: string): string {
  const type = String(prop.columnTypes?.[0] ?? '').toLowerCase();
  const native =
    prop.runtimeType === 'boolean' ||
    (prop.runtimeType === 'Date' && /^timestamp/.test(type) && !em.getPlatform().isNumericProperty(prop)) ||
    /^(jsonb?|int[24]?|integer|smallint|double precision|float[48]|real)$/.test(type) ||
    type.endsWith('[]');
  return native ? expr : `(${expr})::text`;
}

/** The JSON form of an entity's rows: every property, or only `props` (and the primary key). */
function jsonShapeOf(em: EntityManager, meta: EntityMetadata, props?: readonly string[] | null): JsonShape | null {
  let byProps = jsonShapes.get(meta);
  if (!byProps) jsonShapes.set(meta, (byProps = new Map()));
  const key = props ? props.join(',') : '*';
  let shape = byProps.get(key);
  if (shape !== undefined) return shape;
  shape = null;
  const only = props && new Set([...props, ...meta.primaryKeys]);
  const steps = buildSteps(em, meta)?.filter((st) => !only || only.has(st.prop.name));
  const columns = steps?.map((st) => {
    const prop = st.prop;
    if (prop.formula) {
      if (prop.lazy) return null;
      const perCompany = companyFormula(meta, prop);
      return (alias: string, company?: string) => jsonValue(em, prop, company && perCompany ? perCompany(company) : formulaSql(meta, prop, alias));
    }
    if (prop.persist === false || prop.fieldNames?.length !== 1) return null;
    return (alias: string) => jsonValue(em, prop, `${q(alias)}.${q(prop.fieldNames[0])}`);
  });
  // json_build_array takes at most 100 arguments; a wider entity keeps the row path.
  if (steps && columns && columns.every(Boolean) && steps.length <= 90) {
    shape = {
      build: (alias, company) => `json_build_array(${columns.map((c) => c!(alias, company)).join(', ')})`,
      map: compileMapper(em, meta, steps, (i) => `d[${i}]`) as unknown as (values: unknown[]) => any,
    };
  }
  byProps.set(key, shape);
  return shape;
}

/**
 * A formula that reads nothing of its row but the row's company (the invoice's "today" in the
 * company timezone), written as an uncorrelated subquery on the company `company` gives:
 * PostgreSQL computes it once per statement. Per row, the invoice page's primary-location lookup
 * and timezone conversion cost ~0.7 ms of the database's time for 100 rows. Null for any other formula.
 */
function companyFormula(meta: EntityMetadata, prop: any): ((company: string) => string) | null {
  const column = (meta.properties['company' as never] as any)?.fieldNames?.[0];
  if (!column) return null;
  const probe = formulaSql(meta, prop, '\u0000row');
  const reads = new RegExp(`${q('\u0000row')}\\.(${q(column)}|${column})(?![\\w$])`, 'g');
  if (probe.replace(reads, '').includes('\u0000row')) return null;
  return (company) => `(select ${formulaSql(meta, prop, 'co')} from (select ${company} as ${q(column)}) as "co")`;
}

/** The placeholder of the company in a page statement (see companyFormula), made a `?` once written. */
const COMPANY = '\u0000company\u0000';

/** Pages starting this many rows in are read by their keys first (PageStatement.deepRows). */
const DEEP_OFFSET = 1000;

interface PageStatement {
  /** The count of the rows, around the place the conditions go. */
  count: [string, string];
  /** The page's rows, written once per entity and set of relations, around the place the conditions go. */
  rows: [string, string];
  /** The same for a page past DEEP_OFFSET rows. */
  deepRows: [string, string];
  width: number;
  related: Array<{ spec: Related; shape: JsonShape }>;
  /** How many `?` of the rows' part take the company (between the count's conditions and the rows'). */
  companyParams: number;
}

const pageStatements = new WeakMap<EntityMetadata, Map<string, PageStatement | null>>();

function pageStatement(em: EntityManager, meta: EntityMetadata, props: readonly string[] | null, related: readonly Related[], sorted: string | null): PageStatement | null {
  let byRelations = pageStatements.get(meta);
  if (!byRelations) pageStatements.set(meta, (byRelations = new Map()));
  const key = [sorted ?? '', props?.join(',') ?? '*', ...related.map((r) => `${r.kind === 'one' ? `1:${r.prop}` : `n:${metaOf(em, r.entity).className}.${r.prop}`}(${r.props?.join(',') ?? '*'})`)].join(';');
  let st = byRelations.get(key);
  if (st !== undefined) return st;
  st = null;
  const shape = jsonShapeOf(em, meta, props);
  const col = (m: EntityMetadata, property: string) => leanColumn(em, m.className, property);
  if (shape && meta.properties['company' as never] && meta.properties['createdAt' as never]) {
    const parts: string[] = [];
    const shapes: PageStatement['related'] = [];
    for (const [i, spec] of related.entries()) {
      const a = `r${i}`;
      const target = spec.kind === 'one' ? (meta.properties[spec.prop as never] as any)?.targetMeta : metaOf(em, spec.entity);
      const targetShape = target && jsonShapeOf(em, target, spec.props);
      // A relation this cannot write is left to its loader.
      if (!targetShape || !target.properties.company || target.primaryKeys.length !== 1) continue;
      const sameCompany = `${q(a)}.${col(target, 'company')} = e.${col(meta, 'company')}`;
      if (spec.kind === 'one') {
        const prop = meta.properties[spec.prop as never] as any;
        if (prop.kind !== ReferenceKind.MANY_TO_ONE) continue;
        parts.push(`(select ${targetShape.build(a, COMPANY)} from ${tableOf(target)} as ${q(a)} where ${sameCompany} and ${q(a)}.${col(target, target.primaryKeys[0])} = e.${col(meta, spec.prop)})`);
      } else {
        const prop = target.properties[spec.prop] as any;
        if (prop?.kind !== ReferenceKind.MANY_TO_ONE || prop.targetMeta !== meta || !target.properties.deletedAt || !target.properties.createdAt) continue;
        const order = `${q(a)}.${col(target, 'createdAt')} desc, ${q(a)}.${col(target, target.primaryKeys[0])} desc`;
        parts.push(
          `(select coalesce(json_agg(${targetShape.build(a, COMPANY)} order by ${order}), '[]'::json) from ${tableOf(target)} as ${q(a)}` +
            ` where ${sameCompany} and ${q(a)}.${col(target, spec.prop)} = e.${col(meta, meta.primaryKeys[0])} and ${q(a)}.${col(target, 'deletedAt')} is null)`,
        );
      }
      shapes.push({ spec, shape: targetShape });
    }
    const order = sorted ?? `e.${col(meta, 'createdAt')} desc, e.${col(meta, meta.primaryKeys[0])} desc`;
    const written = parts.length ? `json_build_array(${shape.build('e', COMPANY)}, json_build_array(${parts.join(', ')}))` : shape.build('e', COMPANY);
    const companyParams = written.split(COMPANY).length - 1;
    const row = written.split(COMPANY).join(`?::${(meta.properties['company' as never] as any).columnTypes[0]}`);
    st = {
      count: [`(select count(*) from ${tableOf(meta)} as e where `, ')'],
      rows: [`(select coalesce(json_agg(${row} order by ${order}), '[]'::json) from (select * from ${tableOf(meta)} as e where `, ` order by ${order} limit ? offset ?) as e)`],
      // A deep page finds its keys first (the list indexes hold created_at and the key: an
      // index-only walk past the skipped rows), then reads its rows; reading whole rows while
      // skipping cost ~3× more at page 2000 of 100,000 customers.
      deepRows: [
        `(select coalesce(json_agg(${row} order by ${order}), '[]'::json) from ${tableOf(meta)} as e ` +
          `where e.${col(meta, meta.primaryKeys[0])} = any(array(select e.${col(meta, meta.primaryKeys[0])} from ${tableOf(meta)} as e where `,
        ` order by ${order} limit ? offset ?)))`,
      ],
      width: parts.length,
      related: shapes,
      companyParams,
    };
  }
  byRelations.set(key, st);
  return st;
}

export interface LeanList<T> {
  items: T[];
  total: number;
  /** For each relation asked, in order: per item, the related record (or null), or the list of related records. */
  related: Array<{ spec: Related; values: unknown[] }>;
}

export interface LeanListOptions {
  /** Related records to bring with the page (see Related). */
  related?: readonly Related[];
  /** The only properties of the rows to read (null: all). */
  props?: readonly string[] | null;
  /** Run as a prepared statement (false: conditions whose plan depends on their values). */
  prepare?: boolean;
  /** `where` selects exactly the company's rows that are not deleted (no filter). */
  live?: boolean;
  /** ORDER BY on alias `e` (src/core/sorting.ts), ending in the primary key; null: newest first. */
  order?: string | null;
}

/**
 * One page of the company's rows matching `where` (SQL on alias `e`, its `?` taking `params`;
 * it must hold the rows to `company`, the company's key), newest first
 * (created_at desc, primary key desc), lean, with the number of rows matching and the `related`
 * records of each row; in one statement. With `props`, only those properties of the rows are read
 * (see Related). Prepared (src/core/prepared.ts) unless `prepare` is false: conditions whose plan
 * depends on their values. `live`: `where` selects exactly the company's rows that are not
 * deleted (no filter), whose total a counted table keeps. Null for an entity or relation this
 * does not cover (the caller then uses leanPage and the loaders).
 */
export async function leanList<T>(
  em: EntityManager,
  entity: EntityName<T>,
  company: string,
  where: string,
  params: unknown[],
  limit: number,
  offset: number,
  { related = [], props = null, prepare = true, live = false, order = null }: LeanListOptions = {},
): Promise<LeanList<T> | null> {
  const meta = metaOf(em, entity);
  const st = pageStatement(em, meta, props, related, order);
  if (!st) return null;
  await (em as any).getContext().tryFlush(meta.className, {});
  const shape = jsonShapeOf(em, meta, props)!;
  // The company's live rows of a counted table: their total is kept (src/core/document-counts.ts).
  const kept = live && COUNTED_TABLES.has(meta.tableName) && !meta.schema;
  const total = kept ? countedTotalSql(meta.tableName) : st.count.join(where);
  const [before, after] = offset >= DEEP_OFFSET ? st.deepRows : st.rows;
  const sql = `select ${total} as "total", ${before}${where}${after} as "rows"`;
  const values = [...(kept ? [company] : params), ...Array(st.companyParams).fill(company), ...params, limit, offset];
  const row = await runStatement<{ total: string; rows: unknown[][] }>(em, sql, values, 'get', prepare);
  const out: LeanList<T> = { items: [], total: Number(row.total), related: st.related.map(({ spec }) => ({ spec, values: [] })) };
  if (!st.width) {
    out.items = row.rows.map(shape.map);
    return out;
  }
  for (const [values, rel] of row.rows as Array<[unknown[], unknown[]]>) {
    out.items.push(shape.map(values));
    for (let i = 0; i < st.related.length; i++) {
      const v = rel[i] as any;
      const map = st.related[i].shape.map;
      out.related[i].values.push(st.related[i].spec.kind === 'one' ? (v === null ? null : map(v)) : (v as unknown[][]).map(map));
    }
  }
  return out;
}
