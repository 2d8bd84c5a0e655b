// The tables whose live rows are counted per company by triggers into document_counts (migration
// 0009, which says why these and how): a list of such a table without filters reads its total
// from there. Must stay identical to the migration's list (test/document-counts.test.ts compares
// them with the triggers in the database).
export const COUNTED_TABLES: ReadonlySet<string> = new Set(['jobs', 'estimates', 'invoices', 'payments']);

/**
 * The SQL of the number of live rows of `table` of the company the one `?` gives: its count as of
 * the last commit, plus the changes this transaction has made and not committed yet (its notes in
 * document_counts_pending; a transaction with no transaction id has none, found at once).
 */
export function countedTotalSql(table: string): string {
  const name = `'${table.replace(/'/g, "''")}'`;
  return (
    `(select (coalesce((select dc.live from document_counts as dc where dc.company_uuid = k.company and dc.table_name = ${name}), 0)` +
    ` + coalesce((select sum(p.n) from document_counts_pending as p where p.txid = txid_current_if_assigned() and p.company_uuid = k.company and p.table_name = ${name}), 0))::bigint` +
    ` from (select ?::uuid as company) as k)`
  );
}
