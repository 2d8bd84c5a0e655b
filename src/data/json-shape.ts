import { EntityMetadata } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { buildSteps, compileMapper } from './record';
import { formulaSql, q } from './columns';

// A record as one JSON array of its columns, built by PostgreSQL (src/data/list.ts writes the
// page statements from it), and the mapper that makes it a lean instance (src/data/record.ts).

export interface JsonShape {
  /**
   * `json_build_array(<column values of the row under alias>)`. With `company` (an SQL expression
   * of the company every row belongs to), a formula that reads nothing of its row but the
   * company is computed once for the statement from it, not once per row (see companyFormula).
   */
  build(alias: string, company?: string): string;
  /** An instance from such an array (the same values the row path gives, through the same steps). */
  map(values: unknown[]): any;
  /** The positions in the array of created_at and of the key (-1: not read). */
  at: number;
  key: number;
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
export function jsonShapeOf(em: EntityManager, meta: EntityMetadata, props?: readonly string[] | null): JsonShape | null {
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
      at: steps.findIndex((st) => st.prop.name === 'createdAt'),
      key: steps.findIndex((st) => st.prop.name === meta.primaryKeys[0]),
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

