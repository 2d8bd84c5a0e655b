import { EntityMetadata, EntityProperty, helper, MetadataStorage, ReferenceKind } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { columns } from './columns';

// Statements written by hand from MikroORM's metadata, where the query builder or a flush would
// build the same SQL on every request, or cannot: joins that load several entities at once (their
// rows become managed entities with em.map, as em.find would make them), and an insert that is part
// of a larger statement or has a column computed by the database.


/** A value built from the metadata once per ORM (a statement written from it), then reused. */
export function perMetadata<T>(build: (metadata: MetadataStorage) => T): (metadata: MetadataStorage) => T {
  const built = new WeakMap<MetadataStorage, T>();
  return (metadata) => {
    let value = built.get(metadata);
    if (value === undefined) built.set(metadata, (value = build(metadata)));
    return value;
  };
}

/** The columns em.map reads for an entity: its scalars and many-to-one keys (no formulas). */
export function mappedColumns(metadata: MetadataStorage, cls: Function): string[] {
  return columns(metadata.get(cls.name)).stored.map((p) => p.fieldNames[0]);
}

/** Select-list entries for the columns of a table alias, renamed after it: `"c1"."uuid" as "c1__uuid"`. */
export function aliasedColumns(alias: string, columns: string[]): string[] {
  return columns.map((c) => `"${alias}"."${c}" as "${alias}__${c}"`);
}

/** The record of a table alias in a joined row, under its own column names (for em.map). */
export function recordOf(row: Record<string, unknown>, alias: string, columns: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const c of columns) out[c] = row[`${alias}__${c}`];
  return out;
}

/** SQL computed by the database for one property of an insert, e.g. `numbering_assign(?, …)`. */
export interface ColumnSql {
  sql: string;
  params: unknown[];
}

const insertShapes = new WeakMap<EntityMetadata, { columns: string; props: EntityProperty[] }>();

function insertShape(em: EntityManager, entity: object): { columns: string; props: EntityProperty[] } {
  const meta = em.getMetadata().get(entity.constructor.name) as EntityMetadata;
  let shape = insertShapes.get(meta);
  if (!shape) {
    const props = [...columns(meta).stored];
    shape = { columns: props.map((p) => `"${p.fieldNames[0]}"`).join(', '), props };
    insertShapes.set(meta, shape);
  }
  return shape;
}

/** Each column's value for an insert: `?` and its parameter (as a flush converts it), or the SQL in `computed`. */
function insertValues(em: EntityManager, props: EntityProperty[], entity: object, computed: Record<string, ColumnSql>, placeholder: (p: EntityProperty) => string): { values: string[]; params: unknown[] } {
  const platform = em.getPlatform();
  const values: string[] = [];
  const params: unknown[] = [];
  for (const p of props) {
    const sql = computed[p.name];
    const value = (entity as Record<string, unknown>)[p.name];
    if (sql) {
      values.push(sql.sql);
      params.push(...sql.params);
      continue;
    }
    values.push(placeholder(p));
    if (value === undefined || value === null) params.push(null);
    else if (p.kind !== ReferenceKind.SCALAR) params.push(helper(value as object).getPrimaryKey());
    else if (p.customType) params.push(p.customType.convertToDatabaseValue(value, platform, { key: p.name, mode: 'query-data' }));
    else params.push(value);
  }
  return { values, params };
}

/**
 * The row a flush would insert for a new entity, as the parts of an INSERT written by hand: the
 * column list, and the values (`?` each, with `params` in order) — every column; references as
 * their keys; custom types such as MoneyType and JSON converted as MikroORM converts them. The
 * properties in `computed` take the SQL given instead (a value the database decides).
 */
export function insertParts(em: EntityManager, entity: object, computed: Record<string, ColumnSql> = {}): { columns: string; values: string; params: unknown[] } {
  const shape = insertShape(em, entity);
  const { values, params } = insertValues(em, shape.props, entity, computed, () => '?');
  return { columns: shape.columns, values: values.join(', '), params };
}

/**
 * The same row as one `jsonb` value, `{column: value}` (each parameter cast to its column's type,
 * so that jsonb_populate_record gives back the values an insert would): for a row handed to a
 * function of the database (migration 0044's stripe_first_payment).
 */
export function insertObject(em: EntityManager, entity: object, computed: Record<string, ColumnSql> = {}): ColumnSql {
  const shape = insertShape(em, entity);
  // A function of PostgreSQL takes at most 100 arguments: 50 columns.
  if (shape.props.length > 50) throw new Error(`insertObject: ${entity.constructor.name} has more than 50 columns`);
  const { values, params } = insertValues(em, shape.props, entity, computed, (p) => `?::${p.columnTypes[0]}`);
  const pairs = shape.props.map((p, i) => `'${p.fieldNames[0]}', ${values[i]}`);
  return { sql: `jsonb_build_object(${pairs.join(', ')})`, params };
}
