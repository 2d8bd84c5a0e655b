import { EntityMetadata, ReferenceKind } from '@mikro-orm/core';
import type { EntityManager, EntityName } from '@mikro-orm/postgresql';
import { runStatement } from './prepared';
import { KeptCount, keptCountSql } from './kept-counts';
import { recall, remember as rememberTotal, rememberedKey, rememberedTotalSql, REMEMBERED_TABLES } from './remembered-totals';
import { buildSteps, compileMapper } from './record';
import { columnOf, formulaSql, q, tableOf } from './columns';
import { autoFlush } from './orm-adapter';

// The read model's list statements (src/data/crud.ts listPage): the page, its count and the related
// records the request will read, from conditions on `e`, in one statement. Rows become lean
// instances (src/data/record.ts); batched loads by key are in src/data/keyed.ts; the statements
// are committed as SQL under src/data/queries/ (npm run sql).

function metaOf(em: EntityManager, entity: EntityName<any>): EntityMetadata {
  return em.getMetadata().find(entity as any)!;
}

/** The quoted column of a single-column property of an entity (`customer` → "customer_uuid"). */
export function leanColumn(em: EntityManager, entity: EntityName<any>, property: string): string {
  return columnOf(metaOf(em, entity), property);
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
export const DEEP_OFFSET = 1000;

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

/**
 * The text of the statement for `where`; `kept`: the total is the company's kept count (its one `?`
 * the company); else with `remember`, a total remembered under the same change count (src/data/remembered-totals.ts).
 */
function statementText(meta: EntityMetadata, st: PageStatement, where: string, kept: KeptCount | null, deep: boolean, remember: boolean): { sql: string; kept: boolean; remembered: boolean } {
  // The company's live rows or all its rows: their total may be kept (src/data/kept-counts.ts).
  const keptSql = kept && !meta.schema ? keptCountSql(meta.tableName, kept) : null;
  const [before, after] = deep ? st.deepRows : st.rows;
  const rows = `${before}${where}${after} as "rows"`;
  if (!keptSql && remember && !meta.schema && REMEMBERED_TABLES.has(meta.tableName)) {
    const [total, from] = rememberedTotalSql(meta.tableName, st.count.join(where));
    return { sql: `select ${total}${rows}${from}`, kept: false, remembered: true };
  }
  const total = keptSql ?? st.count.join(where);
  return { sql: `select ${total} as "total", ${rows}`, kept: keptSql !== null, remembered: false };
}

/**
 * The statement leanList runs for `where` and these options, a page from row DEEP_OFFSET on with
 * `deep` (src/data/queries.ts writes them all under src/data/queries/, npm run sql).
 */
export function listSql(em: EntityManager, entity: EntityName<any>, where: string, { related = [], props = null, kept = null, order = null, remember = false }: LeanListOptions = {}, deep = false): string {
  const meta = metaOf(em, entity);
  const st = pageStatement(em, meta, props, related, order);
  if (!st) throw new Error(`${meta.className} cannot be listed by the read model`);
  return statementText(meta, st, where, kept, deep, remember).sql;
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
  /** `where` selects exactly the company's live rows, or all its rows (no filter): its total is kept (src/data/kept-counts.ts). */
  kept?: KeptCount | null;
  /** ORDER BY on alias `e` (src/schema/sorting.ts), ending in the primary key; null: newest first. */
  order?: string | null;
  /** A total not kept may be remembered (a table in REMEMBERED_TABLES; `where` reads only the listed row). */
  remember?: boolean;
}

/**
 * One page of the company's rows matching `where` (SQL on alias `e`, its `?` taking `params`;
 * it must hold the rows to `company`, the company's key), newest first
 * (created_at desc, primary key desc), lean, with the number of rows matching and the `related`
 * records of each row; in one statement. With `props`, only those properties of the rows are read
 * (see Related). Prepared (src/data/prepared.ts) unless `prepare` is false: conditions whose plan
 * depends on their values. `kept`: `where` selects exactly the company's live rows or all its
 * rows (no filter), whose total a table with kept counts keeps (src/data/kept-counts.ts). Every
 * listed entity has a company and created_at (test/data/lean-read.test.ts lists each); a relation
 * this cannot write is left to the loaders.
 */
export async function leanList<T>(
  em: EntityManager,
  entity: EntityName<T>,
  company: string,
  where: string,
  params: unknown[],
  limit: number,
  offset: number,
  { related = [], props = null, prepare = true, kept = null, order = null, remember = false }: LeanListOptions = {},
): Promise<LeanList<T>> {
  const meta = metaOf(em, entity);
  const st = pageStatement(em, meta, props, related, order);
  if (!st) throw new Error(`${meta.className} cannot be listed by the read model (no company, created_at or row mapper)`);
  await autoFlush(em, meta.className);
  const shape = jsonShapeOf(em, meta, props)!;
  const { sql, kept: keptTotal, remembered } = statementText(meta, st, where, kept, offset >= DEEP_OFFSET, remember);
  const key = remembered ? rememberedKey(meta.tableName, where, params) : '';
  const values = [...(keptTotal ? [company] : remembered ? [...recall(key), ...params] : params), ...Array(st.companyParams).fill(company), ...params, limit, offset];
  if (remembered) values.push(company);
  const row = await runStatement<{ total: string; changes?: string | null; rows: unknown[][] }>(em, sql, values, 'get', prepare);
  if (remembered) rememberTotal(key, row.changes ?? null, Number(row.total));
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
