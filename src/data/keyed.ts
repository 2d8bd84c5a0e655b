import type { EntityMetadata } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Data, leanFind, mapperOf } from './record';

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

export const q = (id: string) => `"${id.replace(/"/g, '""')}"`;

/** The entity's table, schema-qualified when it has a schema of its own. */
export const tableOf = (meta: EntityMetadata) => (meta.schema && meta.schema !== '*' ? `${q(meta.schema)}.` : '') + q(meta.tableName);

/** A @Formula's SQL on the row under `alias`, given the table argument MikroORM's query builder passes (QueryBuilderHelper.createFormulaTable). */
export function formulaSql(meta: EntityMetadata, prop: any, alias: string): string {
  const a = q(alias);
  const table = { alias: a, name: meta.tableName, schema: undefined, qualifiedName: meta.tableName, toString: () => a };
  return (prop.formula as any)(table, meta.createColumnMappingObject());
}

/** `select e.*, <formulas> from <table> as e`: what em.find selects for the entity. */
export function selectOf(meta: EntityMetadata): string | null {
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
