import type { EntityMetadata } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Data, leanFind, mapperOf } from './record';
import { columnOf, q, selectOf } from './columns';
import { autoFlush, identityMapDisabled } from './orm-adapter';
import type { TenantScope } from './tenant';
import { isReachTable, reachOf, reachParams, reachSql } from './reach';
import { LIVE_FILTER } from './base.entity';
import { runStatement } from './prepared';

// Batched loads by key (the loaders): their statements only vary in the company and the keys, so
// each is written once per entity and relation from the metadata and run with parameters (the
// keys as one array) as a prepared statement, instead of going through em.find's criteria
// pipeline on every request, or being parsed and planned by PostgreSQL on every request.
// The rows are those em.find returns: the same columns and @Formula values, mapped by the
// driver's result mapper, then lean. Tenancy: the company's rows only (every company-owned
// entity carries company_uuid; related records of one company are always that company's).

export interface KeyedStatement {
  sql: string;
  /** Postgres type of the key column, for the array parameter. */
  keyType: string;
}

const keyedStatements = new Map<string, KeyedStatement | null>();

/** The statement of a batched load by `keyProp` (its keys one array parameter), null where em.find is used. */
export function keyedStatement(em: EntityManager, entityName: string, keyProp: string, live: boolean, reached = false): KeyedStatement | null {
  const cacheKey = `${entityName}\u0000${keyProp}\u0000${live}\u0000${reached}`;
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
    // A technician's loads: the records in their reach only (src/data/reach.ts), its `?` after the keys.
    if (reached && isReachTable(meta.tableName)) sql += ` and ${reachSql(meta.tableName, 'e')}`;
    if (live) sql += ` and e.${columnOf(meta, 'deletedAt')} is null order by e.${columnOf(meta, 'createdAt')} desc, e.${columnOf(meta, meta.primaryKeys[0])} desc`;
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
 * Records of `scope`'s company whose `keyProp` (the primary key, or a many-to-one relation) is one
 * of `keys`; with `live`, only records that are not deleted, newest first. Falls back to em.find
 * (through leanFind, under the em's tenant filter) where the shortcut does not apply: an entity
 * shape the lean mapper does not handle, or the identity map turned off.
 */
export async function leanByKeys<T>(em: EntityManager, scope: TenantScope, entity: new (...args: any[]) => T, keyProp: string, keys: readonly string[], live: boolean): Promise<T[]> {
  const reach = reachOf(scope);
  const st = !identityMapDisabled(em) ? keyedStatement(em, entity.name, keyProp, live, !!reach) : null;
  if (!st) {
    const own = em.getMetadata().get(entity.name).properties['company' as never] ? { company: scope.companyId } : {};
    const where = live ? { [keyProp]: { $in: [...keys] }, ...own, deletedAt: null } : { [keyProp]: { $in: [...keys] }, ...own };
    // By key, deleted records too (embedded summaries show their targets): the live filter is off.
    return leanFind(em, entity, where, live ? { orderBy: { createdAt: 'desc', uuid: 'desc' } } : { filters: { [LIVE_FILTER]: false } });
  }
  await autoFlush(em, entity.name);
  const meta = em.getMetadata().get(entity.name);
  const driver = em.getDriver();
  const mapper = mapperOf(em, entity.name)!;
  // A named prepared statement (src/data/prepared.ts): GET of one record runs it on every request.
  const table = meta.tableName;
  const rows = await runStatement<Data[]>(em, st.sql, [scope.companyId, arrayLiteral(keys), ...(reach && isReachTable(table) ? reachParams(table, reach) : [])]);
  return rows.map((row) => mapper(driver.mapResult(row, meta) as Data));
}
