// The tables whose live rows are counted per company by triggers into document_counts (migration
// 0009, which says why these): a list of such a table without filters reads its total from there.
// Must stay identical to the migration's list (test/document-counts.test.ts compares them with the
// triggers in the database).
export const COUNTED_TABLES: ReadonlySet<string> = new Set(['jobs', 'estimates', 'invoices', 'payments']);

/** The SQL of the live rows of `table` of the company the one `?` gives (0 when it has none). */
export function countedTotalSql(table: string): string {
  return `coalesce((select dc.live from document_counts as dc where dc.company_uuid = ? and dc.table_name = '${table.replace(/'/g, "''")}'), 0)`;
}
