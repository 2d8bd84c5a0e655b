import { EntityMetadata, ReferenceKind } from '@mikro-orm/core';
import type { EntityManager, EntityName } from '@mikro-orm/postgresql';

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
 * The prototype of lean instances of an entity: the entity class's prototype (getters, methods),
 * with each persistent property shadowed by a plain writable data property. MikroORM puts
 * change-tracking setters for those properties on the class's prototype; assigning through them
 * would build the per-instance state this path avoids.
 */
function leanPrototype(meta: EntityMetadata): object {
  let proto = prototypes.get(meta);
  if (!proto) {
    const shadows: PropertyDescriptorMap = { constructor: { value: meta.class, writable: true, configurable: true } };
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
 * Builds the mapper of an entity from MikroORM's metadata: scalar columns (custom types such as
 * MoneyType through their convertToJSValue, booleans, timestamps as Date), @Formula values, and
 * many-to-one relations as references. The same conversions as MikroORM's ObjectHydrator applies
 * when it hydrates query results. Returns null for shapes it does not handle (composite keys,
 * embeddables, collections owned by the row, …): callers then use managed entities.
 */
function buildMapper(em: EntityManager, meta: EntityMetadata): Mapper | null {
  if (meta.primaryKeys.length !== 1 || meta.embeddable || meta.virtual || meta.discriminatorColumn) return null;
  // Entities with onLoad hooks or eagerly loaded relations need what MikroORM does on load.
  if (meta.hooks?.onLoad?.length || meta.props.some((p) => p.eager)) return null;
  const platform = em.getPlatform();
  const proto = leanPrototype(meta);
  const steps: Array<(entity: any, data: Data) => void> = [];
  for (const prop of meta.props) {
    const name = prop.name;
    if (prop.getter && !prop.setter && prop.persist === false) continue;
    if (prop.kind === ReferenceKind.ONE_TO_MANY || prop.kind === ReferenceKind.MANY_TO_MANY) continue; // not columns of the row
    if (prop.embedded || prop.kind === ReferenceKind.EMBEDDED || prop.ref) return null;
    if (prop.kind === ReferenceKind.MANY_TO_ONE || (prop.kind === ReferenceKind.ONE_TO_ONE && prop.owner)) {
      const target = prop.targetMeta;
      if (!target || target.primaryKeys.length !== 1) return null;
      const pkName = target.primaryKeys[0];
      steps.push((entity, data) => {
        const v = data[name];
        if (v === null) entity[name] = null;
        else if (v !== undefined) entity[name] = typeof v === 'object' ? referenceTo(target, (v as Data)[pkName]) : referenceTo(target, v);
      });
      continue;
    }
    if (prop.kind === ReferenceKind.ONE_TO_ONE) continue; // the inverse side has no column
    if (prop.kind !== ReferenceKind.SCALAR) return null;
    const custom = prop.customType;
    if (custom) {
      const options = { mode: 'serialization' } as const;
      steps.push((entity, data) => {
        const v = data[name];
        if (v === null) entity[name] = null;
        else if (v !== undefined) entity[name] = custom.convertToJSValue(v, platform, options as any);
      });
    } else if (prop.runtimeType === 'boolean') {
      steps.push((entity, data) => {
        const v = data[name];
        if (v === null) entity[name] = null;
        else if (v !== undefined) entity[name] = !!v;
      });
    } else if (prop.runtimeType === 'Date' && !platform.isNumericProperty(prop)) {
      steps.push((entity, data) => {
        const v = data[name];
        if (v === null) entity[name] = null;
        else if (v !== undefined) entity[name] = v instanceof Date ? v : new Date(v as string);
      });
    } else {
      steps.push((entity, data) => {
        const v = data[name];
        if (v !== undefined) entity[name] = v;
      });
    }
  }
  return (data) => {
    const entity = Object.create(proto);
    for (let i = 0; i < steps.length; i++) steps[i](entity, data);
    return entity;
  };
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

/** `select e.*, <formulas> from <table> as e`: what em.find selects for the entity. */
function selectOf(meta: EntityMetadata): string | null {
  const cols = ['e.*'];
  for (const prop of meta.props) {
    if (!prop.formula) continue;
    if (prop.lazy) return null;
    // The table argument MikroORM's query builder passes (QueryBuilderHelper.createFormulaTable).
    const table = { alias: '"e"', name: meta.tableName, schema: undefined, qualifiedName: meta.tableName, toString: () => '"e"' };
    cols.push(`${(prop.formula as any)(table, meta.createColumnMappingObject())} as ${q(prop.fieldNames[0])}`);
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

/** One page of the rows matching `where` (SQL on alias `e`), newest first (created_at desc, primary key desc), lean. */
export async function leanPage<T>(em: EntityManager, entity: EntityName<T>, where: string, params: unknown[], limit: number, offset: number): Promise<T[]> {
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
  const order = `order by e.${leanColumn(em, entity, 'createdAt')} desc, e.${leanColumn(em, entity, meta.primaryKeys[0])} desc`;
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
