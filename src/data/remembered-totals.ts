// Remembered totals (docs/benchmark.md, "Remembered totals"; migration 0024). The exact total of a
// filtered list (a customer search) is counted by visiting every matching row: linear in the
// matches, 30,000 rows for a broad term at 100,000 customers and ten times that at a million. The
// table's change count for the company (`kept_counts.changes`, the sum over its slots) only grows
// and grows with every committed statement that inserts, updates or deletes the company's rows,
// so two snapshots with the same sum have seen the same rows: the total counted under a sum is
// still exact under the same sum. The list statement reads the sum in its own snapshot and counts
// only when it differs from the remembered one; a transaction that has written anything (its own
// uncommitted changes are in its snapshot but could sum like another's) always counts, and
// remembers nothing.
//
// Only for tables whose every list condition reads nothing but the listed row (no other table, no
// clock): REMEMBERED_TABLES. The remembered totals live in this process, a bounded number of them.
import { KEPT_TABLES } from './kept-counts';

/** Tables whose filtered lists reuse a total counted under the same change count (each must be in KEPT_TABLES). */
export const REMEMBERED_TABLES: ReadonlySet<string> = new Set(['customers']);

/**
 * Values remembered in this process under a change count, at most `limit` of them (the oldest go
 * first): the totals here, the page starts of src/data/remembered-starts.ts.
 */
export class UnderChanges<V> {
  private readonly map = new Map<string, { changes: string; value: V }>();
  constructor(private readonly limit: number) {}
  get(key: string): { changes: string; value: V } | undefined {
    return this.map.get(key);
  }
  /** Remembers `value`, read under `changes`; null `changes`: nothing to remember. */
  set(key: string, changes: string | null, value: V): void {
    if (changes === null) return;
    this.map.delete(key);
    this.map.set(key, { changes, value });
    if (this.map.size > this.limit) this.map.delete(this.map.keys().next().value!);
  }
  clear(): void {
    this.map.clear();
  }
}

const totals = new UnderChanges<number>(2000);

/** The key of a list's remembered total and page starts: its table, conditions and their values (the company among them). */
export function rememberedKey(table: string, where: string, params: readonly unknown[]): string {
  return `${table}\u0000${where}\u0000${JSON.stringify(params)}`;
}

/** The remembered change count and total for `key` ('-1' and 0 when none: no change count is negative). */
export function recall(key: string): [changes: string, total: number] {
  const hit = totals.get(key);
  return hit ? [hit.changes, hit.value] : ['-1', 0];
}

/** Remembers `total`, counted (or confirmed) under `changes`; null `changes`: nothing to remember. */
export function remember(key: string, changes: string | null, total: number): void {
  totals.set(key, changes, total);
}

/** Forgets every remembered total (tests). */
export function forgetTotals(): void {
  totals.clear();
}

/**
 * The from part of a statement that reads its change count as "kv"."changes" (its one `?` the
 * company): the sum of the table's slots for the company, in this statement's snapshot; null in a
 * transaction that has written (its own uncommitted changes are in its snapshot but could sum
 * like another's), which then neither reuses nor remembers anything.
 */
export function changesFromSql(table: string): string {
  return ` from ${changesSql(table)}`;
}

/** The from item of changesFromSql, `(select …) as "kv"`, for a statement with another from item before it. */
export function changesSql(table: string): string {
  const name = `'${table.replace(/'/g, "''")}'`;
  return (
    `(select case when pg_current_xact_id_if_assigned() is null then coalesce(sum(kc.changes), 0)::bigint end as "changes" ` +
    `from kept_counts as kc where kc.company_uuid = ?::uuid and kc.table_name = ${name}) as "kv"`
  );
}

/**
 * The statement's total for a table in REMEMBERED_TABLES, around `count` (the counting subquery):
 * `[select-list part, from item]` (the from item is changesSql's). Its `?`: the remembered change
 * count and total (before the count's own), and the company (in the from item, after everything
 * else). The statement's column
 * "changes" is the sum it read, null when it must not be remembered. `orWhen`: another way to the
 * total without counting (a `when … then …` branch, its `?` after the remembered ones).
 */
export function rememberedTotalSql(table: string, count: string, orWhen = ''): [string, string] {
  if (!REMEMBERED_TABLES.has(table) || !KEPT_TABLES.has(table)) throw new Error(`${table}: no remembered totals`);
  return [`(case when "kv"."changes" = ?::bigint then ?::bigint ${orWhen ? `${orWhen} ` : ''}else ${count} end) as "total", "kv"."changes"::text as "changes", `, changesSql(table)];
}
