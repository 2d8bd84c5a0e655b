import { EntityMetadata, ReferenceKind } from '@mikro-orm/core';
import type { EntityManager, EntityName } from '@mikro-orm/postgresql';
import { runStatement } from './prepared';
import { KeptCount, keptCountSql } from './kept-counts';
import { changesFromSql, recall, remember as rememberTotal, rememberedKey, rememberedTotalSql, REMEMBERED_TABLES } from './remembered-totals';
import { ListRow, recallStart, rememberStarts, seekRowsSql } from './remembered-starts';
import { JsonShape, jsonShapeOf } from './json-shape';
import { columnOf, q, tableOf } from './columns';
import { autoFlush } from './orm-adapter';
import { isReachTable, Reach, REACH_ROWS, reachDrivesList, reachFollows, reachRowsSql, reachSql } from './reach';

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

/** The placeholder of the company in a page statement (see companyFormula), made a `?` once written. */
const COMPANY = '\u0000company\u0000';

/** The placeholder of a technician's user in a page statement (reach conditions of related records), made a `?` once written. */
const USER = '\u0000user\u0000';
const PLACEHOLDER = /\u0000(company|user)\u0000/g;

/** A reach condition (src/data/reach.ts) with its `?` as placeholders: its parameters are (company, user) pairs. */
function withPlaceholders(sql: string): string {
  let i = 0;
  return sql.replace(/\?::uuid/g, () => (i++ % 2 === 0 ? COMPANY : USER));
}

/** Pages starting this many rows in are read by their keys first (PageStatement.deepRows). */
export const DEEP_OFFSET = 1000;

interface PageStatement {
  /** The count of the rows, around the place the conditions go. */
  count: [string, string];
  /** The page's rows, written once per entity and set of relations, around the place the conditions go. */
  rows: [string, string];
  /** The same for a page past DEEP_OFFSET rows. */
  deepRows: [string, string];
  /** A FROM item of one row: the page's rows as "rows" and their number as "n" (a counted total, statementText). */
  withCount: [string, string];
  /** The same for a page past DEEP_OFFSET rows. */
  deepWithCount: [string, string];
  /** Newest first, created_at read: a deep page's rows that may start at a remembered row (src/data/remembered-starts.ts). */
  seek: ((where: string) => string) | null;
  width: number;
  related: Array<{ spec: Related; shape: JsonShape }>;
  /** What each `?` of the rows' part takes, the company or a technician's user (between the count's conditions and the rows'). */
  rowParams: Array<'company' | 'user'>;
  /** Read from job_reach (alias `r`) in page order: a technician's jobs in the default order (reachDrivesList). */
  driven: boolean;
}

const pageStatements = new WeakMap<EntityMetadata, Map<string, PageStatement | null>>();

function pageStatement(em: EntityManager, meta: EntityMetadata, props: readonly string[] | null, related: readonly Related[], sorted: string | null, reached = false): PageStatement | null {
  let byRelations = pageStatements.get(meta);
  if (!byRelations) pageStatements.set(meta, (byRelations = new Map()));
  const key = [reached ? 'reach' : '', sorted ?? '', props?.join(',') ?? '*', ...related.map((r) => `${r.kind === 'one' ? `1:${r.prop}` : `n:${metaOf(em, r.entity).className}.${r.prop}`}(${r.props?.join(',') ?? '*'})`)].join(';');
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
      // A technician's related records: those in their reach too (src/data/reach.ts), its
      // parameters as placeholders, made `?` with the company's once written; none for those
      // whose reach follows from the row's (a job's customer, location and photos: reachFollows).
      const through = spec.kind === 'one' ? (meta.properties[spec.prop as never] as any)?.fieldNames?.[0] : (target.properties[spec.prop] as any)?.fieldNames?.[0];
      const followed = reachFollows(meta.tableName, target.tableName, String(through));
      const inReach = reached && isReachTable(target.tableName) && !followed ? ` and ${withPlaceholders(reachSql(target.tableName, q(a)))}` : '';
      const sameCompany = `${q(a)}.${col(target, 'company')} = e.${col(meta, 'company')}${inReach}`;
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
    const rowParams = [...written.matchAll(PLACEHOLDER)].map((m) => (m[0] === COMPANY ? ('company' as const) : ('user' as const)));
    const seekCols = seekColumns(meta);
    const row = written.split(COMPANY).join(`?::${(meta.properties['company' as never] as any).columnTypes[0]}`).split(USER).join('?::uuid');
    const agg = `coalesce(json_agg(${row} order by ${order}), '[]'::json)`;
    const pk = `e.${col(meta, meta.primaryKeys[0])}`;
    // A technician's jobs in the default order: their kept rows of job_reach drive the page, in
    // page order by its index (created_at and the key copied from the job), each joined to its job
    // (src/data/reach.ts reachDrivesList; the conditions hold reachRowsSql on `r`).
    const driven = reached && reachDrivesList(meta.tableName, sorted);
    const r = `"${REACH_ROWS}"`;
    const source = driven ? `"job_reach" as ${r} join ${tableOf(meta)} as e on ${pk} = ${r}."job_uuid"` : `${tableOf(meta)} as e`;
    const pageOrder = driven ? `${r}."created_at" desc, ${r}."job_uuid" desc` : order;
    const pageFrom = [`from (select ${driven ? 'e.*' : '*'} from ${source} where `, ` order by ${pageOrder} limit ? offset ?) as e`];
    const deepFrom = [`from ${tableOf(meta)} as e where ${pk} = any(array(select ${pk} from ${source} where `, ` order by ${pageOrder} limit ? offset ?))`];
    st = {
      count: [`(select count(*) from ${source} where `, ')'],
      rows: [`(select ${agg} ${pageFrom[0]}`, `${pageFrom[1]})`],
      // A deep page finds its keys first (the list indexes hold created_at and the key: an
      // index-only walk past the skipped rows), then reads its rows; reading whole rows while
      // skipping cost ~3× more at page 2000 of 100,000 customers.
      deepRows: [`(select ${agg} ${deepFrom[0]}`, `${deepFrom[1]})`],
      withCount: [`select ${agg} as "rows", count(*)::int as "n" ${pageFrom[0]}`, pageFrom[1]],
      deepWithCount: [`select ${agg} as "rows", count(*)::int as "n" ${deepFrom[0]}`, deepFrom[1]],
      // (A key of another type than uuid would need another placeholder for "nothing remembered".)
      seek: sorted === null && !driven && shape.at >= 0 && shape.key >= 0 && seekCols.keyType === 'uuid' ? (where) => seekRowsSql(tableOf(meta), seekCols, row, order, where) : null,
      width: parts.length,
      related: shapes,
      rowParams,
      driven,
    };
  }
  byRelations.set(key, st);
  return st;
}

/**
 * The text of the statement for `where`; `kept`: the total is the company's kept count (its one `?`
 * the company), or for a list read from job_reach, the count of the technician's rows there (its
 * `?` the company and the user); else with `remember`, a total remembered under the same change
 * count (src/data/remembered-totals.ts).
 */
function statementText(meta: EntityMetadata, st: PageStatement, where: string, kept: KeptCount | null, deep: boolean, remember: boolean): { sql: string; kept: boolean; remembered: boolean; seek: boolean; short: boolean } {
  // The company's live rows or all its rows: their total may be kept (src/data/kept-counts.ts); a
  // technician's live jobs or all their jobs: the count of their rows of job_reach (index-only).
  const keptSql = kept && st.driven ? `(select count(*) from "job_reach" as "${REACH_ROWS}" where ${reachRowsSql(kept === 'live')})` : kept && !meta.schema ? keptCountSql(meta.tableName, kept) : null;
  const remembered = !keptSql && remember && !meta.schema && REMEMBERED_TABLES.has(meta.tableName);
  // Conditions that read only the listed row (as for a kept or remembered total): a deep page may
  // start at a remembered row (src/data/remembered-starts.ts).
  const seek = deep && (keptSql !== null || remembered) ? st.seek : null;
  if (seek || keptSql !== null) {
    const [before, after] = deep ? st.deepRows : st.rows;
    const rows = `${seek ? seek(where) : `${before}${where}${after}`} as "rows"`;
    if (remembered) {
      const [counted, kv] = rememberedTotalSql(meta.tableName, st.count.join(where));
      return { sql: `select ${counted}${rows} from ${kv}`, kept: false, remembered: true, seek: true, short: false };
    }
    const changes = seek ? ['"kv"."changes"::text as "changes", ', changesFromSql(meta.tableName)] : ['', ''];
    return { sql: `select ${keptSql} as "total", ${changes[0]}${rows}${changes[1]}`, kept: true, remembered: false, seek: !!seek, short: false };
  }
  // A short page (fewer rows than the limit, and some rows or the first page) ends the list: its
  // total is its offset plus its rows, in the same snapshot, and the count (an InitPlan in the
  // CASE's last branch) is not run. Its `?`: the limit, the offset twice. A remembered total
  // comes first (src/data/remembered-totals.ts).
  const [from, to] = deep ? st.deepWithCount : st.withCount;
  const page = `(${from}${where}${to}) as "p"`;
  const shortPage = `when "p"."n" < ?::int and ("p"."n" > 0 or ?::int = 0) then ?::int + "p"."n"`;
  if (remembered) {
    const [counted, kv] = rememberedTotalSql(meta.tableName, st.count.join(where), shortPage);
    return { sql: `select ${counted}"p"."rows" from ${page}, ${kv}`, kept: false, remembered: true, seek: false, short: true };
  }
  return { sql: `select case ${shortPage} else ${st.count.join(where)} end as "total", "p"."rows" from ${page}`, kept: false, remembered: false, seek: false, short: true };
}

/** The quoted columns and types of the key and created_at, for a seek (src/data/remembered-starts.ts). */
function seekColumns(meta: EntityMetadata): { key: string; at: string; keyType: string; atType: string } {
  const [key, at] = [meta.properties[meta.primaryKeys[0]] as any, meta.properties['createdAt' as never] as any];
  return { key: q(key.fieldNames[0]), at: q(at.fieldNames[0]), keyType: key.columnTypes[0], atType: at.columnTypes[0] };
}

/**
 * The statement leanList runs for `where` and these options, a page from row DEEP_OFFSET on with
 * `deep` (src/data/queries.ts writes them all under src/data/queries/, npm run sql).
 */
export function listSql(em: EntityManager, entity: EntityName<any>, where: string, { related = [], props = null, kept = null, order = null, remember = false, reach = null }: LeanListOptions = {}, deep = false): string {
  const meta = metaOf(em, entity);
  const st = pageStatement(em, meta, props, related, order, !!reach);
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
  /** A technician's reach (src/data/reach.ts): the related records are held to it too (`where` holds the rows). */
  reach?: Reach | null;
}

/**
 * One page of the company's rows matching `where` (SQL on alias `e`, its `?` taking `params`;
 * it must hold the rows to `company`, the company's key), newest first
 * (created_at desc, primary key desc), lean, with the number of rows matching and the `related`
 * records of each row; in one statement. A total that is not kept is counted only when neither a
 * remembered total nor the page (one that ends the list) gives it (see statementText). With
 * `props`, only those properties of the rows are read (see Related). Prepared
 * (src/data/prepared.ts) unless `prepare` is false: conditions whose plan depends on their values.
 * `kept`: `where` selects exactly the company's live rows or all its rows (no filter), whose total
 * a table with kept counts keeps (src/data/kept-counts.ts). Every listed entity has a company and
 * created_at (test/data/lean-read.spec.ts lists each); a relation this cannot write is left to
 * the loaders.
 */
export async function leanList<T>(
  em: EntityManager,
  entity: EntityName<T>,
  company: string,
  where: string,
  params: unknown[],
  limit: number,
  offset: number,
  { related = [], props: only = null, prepare = true, kept = null, order = null, remember = false, reach = null }: LeanListOptions = {},
): Promise<LeanList<T>> {
  const meta = metaOf(em, entity);
  // A deep page reads its rows' created_at, to remember where it starts (src/data/remembered-starts.ts).
  const props = only && offset >= DEEP_OFFSET && order === null && !only.includes('createdAt') ? [...only, 'createdAt'] : only;
  const st = pageStatement(em, meta, props, related, order, !!reach);
  if (!st) throw new Error(`${meta.className} cannot be listed by the read model (no company, created_at or row mapper)`);
  await autoFlush(em, meta.className);
  const shape = jsonShapeOf(em, meta, props)!;
  const { sql, kept: keptTotal, remembered, seek, short } = statementText(meta, st, where, kept, offset >= DEEP_OFFSET, remember);
  const key = remembered || seek ? rememberedKey(meta.tableName, where, params) : '';
  const [changes, at, from, skip] = seek ? recallStart(key, offset) : [];
  const rowValues = seek ? [...params, changes, at, from, limit, skip, ...params, changes, limit, offset] : [...params, limit, offset];
  const shortValues = short ? [limit, offset, offset] : [];
  const totalValues = keptTotal ? (st.driven ? [company, reach!.userId] : [company]) : remembered ? [...recall(key), ...shortValues, ...params] : [...shortValues, ...params];
  const values = [...totalValues, ...st.rowParams.map((p) => (p === 'company' ? company : reach!.userId)), ...rowValues];
  if (remembered || seek) values.push(company);
  const row = await runStatement<{ total: string; changes?: string | null; rows: unknown[][] }>(em, sql, values, 'get', prepare);
  if (remembered) rememberTotal(key, row.changes ?? null, Number(row.total));
  if (seek && row.rows.length) {
    const listRow = (r: unknown[]): ListRow => {
      const v = (st.width ? r[0] : r) as string[];
      return { at: v[shape.at], key: v[shape.key] };
    };
    rememberStarts(key, row.changes ?? null, offset, row.rows.length, listRow(row.rows[0]), listRow(row.rows[row.rows.length - 1]));
  }
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
