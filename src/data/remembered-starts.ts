// Remembered page starts (docs/benchmark.md, "Remembered page starts"). A page deep in a list
// (from row DEEP_OFFSET on, src/data/list.ts) costs what its offset costs: PostgreSQL walks the
// list's index past every row before it (~4 ms at row 100,000). In the order created_at desc, key
// desc, the first and the last row of every such page served are remembered, under the table's
// change count for the company (src/data/remembered-totals.ts: two snapshots with the same sum
// have seen the same rows, so the same row stands at the same position). A request for the same
// page, or for the page right after it (one row past the last), seeks to the remembered row in
// the index instead; the statement checks the change count in its own snapshot and walks the
// offset when it differs. Only for lists whose conditions read nothing but the listed row (an
// unfiltered list, with a kept count; a filtered one of REMEMBERED_TABLES), as for totals. The
// starts live in this process, a bounded number of them.
import { UnderChanges } from './remembered-totals';

/** A row of a list: its created_at as the statement's JSON gives it (microseconds kept) and its key. */
export interface ListRow {
  at: string;
  key: string;
}

const starts = new UnderChanges<ListRow>(4000);

/** Nothing remembered: a change count no sum equals (the statement then walks the offset), and values of the right types. */
const NONE: [string, string, string, number] = ['-1', '-infinity', '00000000-0000-0000-0000-000000000000', 0];

/**
 * Where a page at `offset` of the list `list` (its rememberedKey, src/data/remembered-totals.ts)
 * may start: the change count, created_at and key of the remembered row at `offset` (skip 0) or
 * at the row before it (skip 1); NONE when neither is remembered.
 */
export function recallStart(list: string, offset: number): [changes: string, at: string, key: string, skip: number] {
  for (const skip of [0, 1]) {
    const hit = starts.get(`${list}\u0000${offset - skip}`);
    if (hit) return [hit.changes, hit.value.at, hit.value.key, skip];
  }
  return NONE;
}

/** Remembers the first and the last row of a page of `count` rows that starts at `offset`, read under `changes` (null: nothing). */
export function rememberStarts(list: string, changes: string | null, offset: number, count: number, first: ListRow, last: ListRow): void {
  starts.set(`${list}\u0000${offset}`, changes, first);
  starts.set(`${list}\u0000${offset + count - 1}`, changes, last);
}

/** Forgets every remembered start (tests). */
export function forgetStarts(): void {
  starts.clear();
}

/**
 * The page's rows part of a list statement that may seek: the keys of the page, from the
 * remembered row when "kv"."changes" (the statement's change count, changesFromSql) equals the
 * remembered one, else past `offset` rows; one branch runs, the other is a false one-time filter.
 * Its `?` in order: the conditions' values, the remembered change count, created_at and key, the
 * limit and the skip; the conditions' values again, the remembered change count, the limit and the offset.
 */
export function seekRowsSql(table: string, cols: { key: string; at: string; keyType: string; atType: string }, row: string, order: string, where: string): string {
  const keys = (cond: string) => `(select e.${cols.key} from ${table} as e where (${where}) and ${cond} order by ${order} limit ? offset ?)`;
  return (
    `(select coalesce(json_agg(${row} order by ${order}), '[]'::json) from ${table} as e where e.${cols.key} = any(array(` +
    keys(`"kv"."changes" = ?::bigint and (e.${cols.at}, e.${cols.key}) <= (?::${cols.atType}, ?::${cols.keyType})`) +
    ' union all ' +
    keys(`"kv"."changes" is distinct from ?::bigint`) +
    ')))'
  );
}
