import { EntityMetadata, EntityProperty, ReferenceKind } from '@mikro-orm/core';

// Which properties of an entity are columns of its rows, defined once for the whole read model:
// the list and keyed statements (src/data/list.ts, src/data/keyed.ts), the row mappers
// (src/data/record.ts), the hand-written inserts and joins (src/data/entity-sql.ts) and the
// GraphQL prefetch (src/graphql/prefetch.ts) all ask `columns(meta)`.

export interface Columns {
  /** Stored in the table, one column each: scalars, many-to-one and owning one-to-one keys (what an insert writes, what em.map reads). */
  stored: readonly EntityProperty[];
  /** Read with a row: the stored ones and the @Formula values, in declaration order (what em.find selects). */
  read: readonly EntityProperty[];
  /** The quoted column of each single-column property by name (`customer` → "customer_uuid"). */
  column: ReadonlyMap<string, string>;
}

/** `"name"`: an SQL identifier, quoted. */
export const q = (id: string) => `"${id.replace(/"/g, '""')}"`;

const isRelationKey = (p: EntityProperty) => p.kind === ReferenceKind.MANY_TO_ONE || (p.kind === ReferenceKind.ONE_TO_ONE && !!p.owner);

/** A column stored in the table (no formula, no computed getter). */
export const isStored = (p: EntityProperty) =>
  p.fieldNames?.length === 1 && p.persist !== false && !p.formula && (p.kind === ReferenceKind.SCALAR || isRelationKey(p));

/** A value read with the row: a stored column or a @Formula. */
export const isRead = (p: EntityProperty) => isStored(p) || (p.kind === ReferenceKind.SCALAR && !!p.formula);

const built = new WeakMap<EntityMetadata, Columns>();

/** The columns of an entity (see Columns), computed once per metadata. */
export function columns(meta: EntityMetadata): Columns {
  let c = built.get(meta);
  if (!c) {
    const column = new Map<string, string>();
    for (const p of meta.props) if (p.fieldNames?.length === 1 && (isRead(p) || p.primary)) column.set(p.name, q(p.fieldNames[0]));
    c = { stored: meta.props.filter(isStored), read: meta.props.filter(isRead), column };
    built.set(meta, c);
  }
  return c;
}

/** The quoted column of a single-column property (`customer` → "customer_uuid"); throws for any other. */
export function columnOf(meta: EntityMetadata, property: string): string {
  const col = columns(meta).column.get(property);
  if (!col) throw new Error(`${meta.className}.${property} is not a single-column property`);
  return col;
}

/** The entity's table, schema-qualified when it has a schema of its own. */
export const tableOf = (meta: EntityMetadata) => (meta.schema && meta.schema !== '*' ? `${q(meta.schema)}.` : '') + q(meta.tableName);

/** A @Formula's SQL on the row under `alias`, given the table argument MikroORM's query builder passes (QueryBuilderHelper.createFormulaTable). */
export function formulaSql(meta: EntityMetadata, prop: any, alias: string): string {
  const a = q(alias);
  const table = { alias: a, name: meta.tableName, schema: undefined, qualifiedName: meta.tableName, toString: () => a };
  return (prop.formula as any)(table, meta.createColumnMappingObject());
}

/**
 * `select e."uuid", …, <formulas> from <table> as e`: the columns em.find selects for the entity,
 * each named (its read properties in declaration order), so that the statement can be a prepared
 * one, whose result columns must not change under it (src/data/prepared.ts); null with a lazy
 * formula. Columns no property maps (the customers' generated search columns) are not read:
 * nothing read them from `e.*` either.
 */
export function selectOf(meta: EntityMetadata): string | null {
  const cols: string[] = [];
  for (const prop of columns(meta).read) {
    if (!prop.formula) cols.push(`e.${q(prop.fieldNames[0])}`);
    else if (prop.lazy) return null;
    else cols.push(`${formulaSql(meta, prop, 'e')} as ${q(prop.fieldNames[0])}`);
  }
  return `select ${cols.join(', ')} from ${tableOf(meta)} as e`;
}
