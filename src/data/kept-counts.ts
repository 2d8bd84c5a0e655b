// Kept counts (migration 0016, which says how they are kept; docs/benchmark.md): for each company
// and each table here, triggers keep the number of its live rows and of all its rows, split into
// slots that concurrent transactions change without waiting for each other, so that a list
// without filters reads its total from a few rows instead of counting the company's rows.
// KEPT_TABLES must stay identical to the migration's list (test/data/kept-counts.spec.ts compares
// it with the triggers in the database).
export const KEPT_TABLES: ReadonlySet<string> = new Set(['jobs', 'estimates', 'invoices', 'payments', 'customers', 'locations', 'templates']);

/**
 * Which rows of the company an unfiltered list selects: the live ones (`deleted_at is null`, the
 * default) or all of them (`include_deleted`). The triggers count a row as live by the same rule.
 */
export type KeptCount = 'live' | 'all';

const COLUMN: Record<KeptCount, string> = { live: 'live', all: 'all_rows' };

/**
 * The SQL of the kept count of `table` (unqualified) for the company the one `?` gives: the sum of
 * its slots, as this statement's snapshot sees them (this transaction's own changes included).
 * Null for a table whose count is not kept.
 */
export function keptCountSql(table: string, which: KeptCount): string | null {
  if (!KEPT_TABLES.has(table)) return null;
  const name = `'${table.replace(/'/g, "''")}'`;
  return `(select coalesce(sum(kc.${COLUMN[which]}), 0)::bigint from kept_counts as kc where kc.company_uuid = ?::uuid and kc.table_name = ${name})`;
}

/**
 * Which kept count an unfiltered list reads: with `filtered` (any condition beyond the company and
 * deleted_at), none; else the live rows, or all rows with `includeDeleted`. An entity without
 * deleted_at (users) has none.
 */
export function keptCountOf(deletable: boolean, includeDeleted: boolean, filtered: boolean): KeptCount | null {
  if (!deletable || filtered) return null;
  return includeDeleted ? 'all' : 'live';
}
