import { EntityMetadata, ReferenceKind } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { columnOf } from './columns';
import { keyedStatement } from './keyed';
import { listSql, Related } from './list';
import { REMEMBERED_TABLES } from './remembered-totals';
import { committedFiltersOf, listConditions } from './list-where';
import { defaultOrderOf } from '../schema/sorting';
import { isReachTable, reachFollows } from './reach';

// Every statement the read model builds, per entity and relation, as committed under
// src/data/queries/<table>.sql (`npm run sql` writes them; test/data/sql-snapshot.spec.ts fails
// when a file is stale, and the bench baseline's statements are checked against them). A list's
// conditions are those of an unfiltered list (the company's live rows); a filter adds `and (…)`
// to them, a sort replaces the order. An entity's declared default order (DefaultOrder) is its
// lists' order here, and its committed filters (CommittedListFilter) are written out whole. A
// table a technician's reach holds (src/data/reach.ts) also has a technician's statements.

export interface NamedStatement {
  name: string;
  sql: string;
}

const isListed = (meta: EntityMetadata) => !meta.embeddable && !meta.virtual && !!meta.properties['company' as never] && !!meta.properties['createdAt' as never];

/** The conditions of an unfiltered list of `meta` (alias `e`): the company's rows, live ones if the entity is soft-deleted. */
export function liveWhere(meta: EntityMetadata): string {
  const company = `e.${columnOf(meta, 'company')} = ?`;
  return meta.properties['deletedAt' as never] ? `${company} and e.${columnOf(meta, 'deletedAt')} is null` : company;
}

/** The read model's statements of each listed entity, by table name. */
export function readModelStatements(em: EntityManager): Map<string, NamedStatement[]> {
  const all = Object.values(em.getMetadata().getAll()).filter(isListed);
  const out = new Map<string, NamedStatement[]>();
  for (const meta of all.sort((a, b) => a.tableName.localeCompare(b.tableName))) {
    const list: NamedStatement[] = [];
    const where = liveWhere(meta);
    const deletable = !!meta.properties['deletedAt' as never];
    const live = deletable ? ('live' as const) : null;
    const order = defaultOrderOf(meta.class, (p) => `e.${columnOf(meta, p)}`);
    const first = order ? 'list: a page of the live rows, in the default order, and their total' : 'list: a page of the live rows, newest first, and their total';
    list.push({ name: first, sql: listSql(em, meta.class, where, { kept: live, order }) });
    if (deletable) {
      const all = `e.${columnOf(meta, 'company')} = ?`;
      list.push({ name: 'list with include_deleted: all the rows, and their total', sql: listSql(em, meta.class, all, { kept: 'all', order }) });
    }
    const filtered = listSql(em, meta.class, where, { kept: null, remember: true, order });
    const counted = REMEMBERED_TABLES.has(meta.tableName) ? 'counted, or remembered under the same change count (remembered-totals.ts)' : 'counted';
    if (filtered !== list[0].sql) list.push({ name: `list with a filter (\`and (…)\` after the conditions): the total ${counted}`, sql: filtered });
    for (const f of committedFiltersOf(meta.class)) {
      const c = listConditions(em, meta.class, { companyId: '' }, f.args, (w) => f.where(w, { companyId: '' }));
      list.push({ name: `list, ${f.name}`, sql: listSql(em, meta.class, c.sql, { kept: null, remember: true, order: c.order }) });
    }
    const deep = listSql(em, meta.class, where, { kept: live, order }, true);
    // In the default order, a kept list's deep page may start at a remembered row (remembered-starts.ts).
    const from = deep.includes(' union all ') ? ', or from the row remembered there under the same change count (remembered-starts.ts)' : '';
    list.push({ name: `list, a page from row 1000 on (keys first${from})`, sql: deep });
    const related: Array<[string, Related]> = [];
    for (const p of meta.relations) {
      if (p.kind === ReferenceKind.MANY_TO_ONE && p.name !== 'company') related.push([`its ${p.name}`, { kind: 'one', prop: p.name }]);
    }
    for (const other of all) {
      if (!other.properties['deletedAt' as never]) continue;
      for (const p of other.relations) {
        if (p.kind === ReferenceKind.MANY_TO_ONE && p.targetMeta === meta) related.push([`its ${other.tableName} by ${p.name}`, { kind: 'children', entity: other.class, prop: p.name }]);
      }
    }
    for (const [label, spec] of related) {
      const sql = listSql(em, meta.class, where, { kept: live, related: [spec], order });
      if (sql !== list[0].sql) list.push({ name: `list with ${label}`, sql });
    }
    if (isReachTable(meta.tableName)) list.push(...technicianStatements(em, meta, related));
    const keyed = keyedStatement(em, meta.className, meta.primaryKeys[0], false);
    if (keyed) list.push({ name: `load by ${meta.primaryKeys[0]} (the loaders; the keys one array)`, sql: keyed.sql });
    const one = deletable ? keyedStatement(em, meta.className, meta.primaryKeys[0], true) : null;
    if (one) list.push({ name: `read one live record by ${meta.primaryKeys[0]} (readActive, GET of one record; the key a one-element array)`, sql: one.sql });
    for (const p of meta.relations) {
      if (p.kind !== ReferenceKind.MANY_TO_ONE || p.name === 'company' || !meta.properties['deletedAt' as never]) continue;
      const st = keyedStatement(em, meta.className, p.name, true);
      if (st) list.push({ name: `load the live rows by ${p.name} (relation lists; the keys one array)`, sql: st.sql });
    }
    out.set(meta.tableName, list);
  }
  return out;
}

/** A technician's scope, for the statements written once (the parameters are passed at run time). */
const TECHNICIAN = { companyId: '', access: { role: 'technician' as const, userId: 'technician' } };
const NO_ONE = { companyId: '', userId: '' };

/**
 * The statements of a technician's reads of a table reach holds (src/data/reach.ts): a list held
 * to their reach (its total counted), with each relation held to it too, the calendar, and the
 * loads by key. Their conditions are an unfiltered list's, then the reach's.
 */
function technicianStatements(em: EntityManager, meta: EntityMetadata, related: ReadonlyArray<[string, Related]>): NamedStatement[] {
  // The conditions of an unfiltered list, then the reach's (on the joined row of job_reach for a
  // list it drives, src/data/reach.ts reachDrivesList).
  const c = listConditions(em, meta.class, TECHNICIAN, {});
  const kept = c.filtered ? null : ('live' as const);
  const how = c.driven
    ? "read from their rows of job_reach in page order, and their total, the count of their live rows there"
    : 'and their total, counted';
  const out: NamedStatement[] = [{ name: `a technician's list: a page of the live rows in their reach (reach.ts), ${how}`, sql: listSql(em, meta.class, c.sql, { order: c.order, kept, reach: NO_ONE }) }];
  if (c.driven) {
    const all = listConditions(em, meta.class, TECHNICIAN, { includeDeleted: true });
    out.push({ name: "a technician's list with include_deleted: all the rows in their reach, and their total, the count of all their rows of job_reach", sql: listSql(em, meta.class, all.sql, { order: all.order, kept: 'all', reach: NO_ONE }) });
    out.push({ name: "a technician's list with a filter (`and (…)` after the conditions), read from job_reach: the total counted over the same join", sql: listSql(em, meta.class, c.sql, { order: c.order, reach: NO_ONE }) });
  }
  for (const [label, spec] of related) {
    const target = spec.kind === 'one' ? (meta.properties[spec.prop as never] as any).targetMeta : em.getMetadata().find((spec.entity as Function).name)!;
    if (!isReachTable(target.tableName)) continue;
    const through = spec.kind === 'one' ? (meta.properties[spec.prop as never] as any).fieldNames[0] : target.properties[spec.prop].fieldNames[0];
    const how = reachFollows(meta.tableName, target.tableName, through) ? 'in their reach with the job (reachFollows: no condition of their own)' : 'in their reach too';
    out.push({ name: `a technician's list with ${label}, ${how}`, sql: listSql(em, meta.class, c.sql, { order: c.order, kept, related: [spec], reach: NO_ONE }) });
  }
  for (const f of committedFiltersOf(meta.class)) {
    const c = listConditions(em, meta.class, TECHNICIAN, f.args, (w) => f.where(w, TECHNICIAN));
    out.push({ name: `a technician's list, ${f.name}`, sql: listSql(em, meta.class, c.sql, { order: c.order, reach: NO_ONE }) });
  }
  const keyed = keyedStatement(em, meta.className, meta.primaryKeys[0], false, true);
  if (keyed) out.push({ name: `a technician's load by ${meta.primaryKeys[0]}, in their reach (the loaders; the keys one array, then the reach's)`, sql: keyed.sql });
  const one = keyedStatement(em, meta.className, meta.primaryKeys[0], true, true);
  if (one) out.push({ name: `a technician's read of one live record by ${meta.primaryKeys[0]}, in their reach (readActive)`, sql: one.sql });
  for (const p of meta.relations) {
    if (p.kind !== ReferenceKind.MANY_TO_ONE || p.name === 'company') continue;
    const st = keyedStatement(em, meta.className, p.name, true, true);
    if (st) out.push({ name: `a technician's load of the live rows by ${p.name}, in their reach (relation lists)`, sql: st.sql });
  }
  return out;
}

/** Line breaks and indentation by depth before each subquery and clause: the statement as run, spread out to be read. */
export function spreadOut(sql: string): string {
  let out = '';
  let depth = 0;
  let quoted: string | null = null;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i];
    if (quoted) {
      out += c;
      if (c === quoted) quoted = null;
      continue;
    }
    if (c === "'" || c === '"') quoted = c;
    if (c === '(') depth++;
    if (c === ')') depth--;
    const rest = sql.slice(i, i + 10);
    if (c === ' ' && /^ (from|where|order by|limit) /.test(rest) && depth <= 3) {
      out += `\n${'  '.repeat(depth + 1)}`;
      continue;
    }
    out += c;
    if (c === '(' && sql.startsWith('select ', i + 1) && depth <= 3) out += `\n${'  '.repeat(depth)}`;
  }
  return out;
}

/** The file of a table: each statement after a comment naming it, ended by `;`. */
export function sqlFile(table: string, statements: readonly NamedStatement[]): string {
  const head =
    `-- ${table}: every statement the read model runs on it (src/data/list.ts, src/data/keyed.ts), written by \`npm run sql\`.\n` +
    `-- Each ? is a parameter; the company's key is passed to every statement.\n`;
  return head + statements.map((s) => `\n-- ${s.name}\n${spreadOut(s.sql)};\n`).join('');
}

/** A statement as compared: whitespace collapsed, none after an opening parenthesis (spreadOut's breaks). */
export function normalizeSql(sql: string): string {
  return sql.replace(/\s+/g, ' ').replace(/\( /g, '(').trim();
}

/** The statements of a file written by sqlFile, by name, each as run (whitespace as spread out). */
export function parseSqlFile(text: string): NamedStatement[] {
  const out: NamedStatement[] = [];
  for (const block of text.split(/\n(?=-- )/)) {
    const m = /^-- (.*)\n([\s\S]*);\n?$/.exec(block);
    if (m && m[2].trim()) out.push({ name: m[1], sql: m[2] });
  }
  return out;
}
