import { AppError } from '../errors/app-error';

// The `sort` of lists (docs/conventions.md, Lists): each entity declares, once, the fields its
// lists may be sorted by (REST names, used by both surfaces and listed in the OpenAPI document),
// and for each the SQL it sorts by. `created_at` and `updated_at` are sortable everywhere; ties
// break by the primary key in the same direction. The indexes that keep such a page as fast as the
// default order are in migration 0011 (docs/conventions.md lists them).

/** The SQL expressions a field sorts by, given the quoted column of a property on the list's rows. */
export type SortExpr = (col: (property: string) => string) => string[];

/** A property (sorted by its column) or SQL expressions over the row's columns. */
export type SortKey = string | SortExpr;

const declared = new Map<Function, ReadonlyMap<string, SortKey>>();

const TIMESTAMPS: Record<string, SortKey> = { created_at: 'createdAt', updated_at: 'updatedAt' };

/**
 * Declares the fields an entity's lists sort by, by REST name: `{ last_name: 'lastName' }`, a money
 * field by its cents column (`{ total_amount: 'totalAmountCents' }`), a computed value by the same
 * SQL the list reads. created_at and updated_at are added.
 */
export function Sortable(fields: Record<string, SortKey>): ClassDecorator {
  return (target) => {
    declared.set(target, new Map(Object.entries({ ...TIMESTAMPS, ...fields })));
  };
}

/**
 * A document number ("1" … "10", "INV-0001" … "INV-10000"): by length, then text, so that the
 * numbers of one sequence sort as numbers (10 after 9). Migration 0011 indexes the same expressions.
 */
export const byNumber =
  (property: string): SortExpr =>
  (col) => [`length(${col(property)})`, col(property)];

/** The sortable fields of an entity (REST names, ascending), created_at and updated_at for any entity. */
export function sortFieldsOf(entity: Function): string[] {
  return [...(declared.get(entity) ?? new Map(Object.entries(TIMESTAMPS))).keys()];
}

/** Every value `sort` takes for an entity: each field, and each with `-` (descending). */
export function sortValuesOf(entity: Function): string[] {
  return sortFieldsOf(entity).flatMap((f) => [f, `-${f}`]);
}

export interface ParsedSort {
  field: string;
  descending: boolean;
  /** The SQL expressions to order by, before the tie-breaking key. */
  exprs: string[];
}

/**
 * `sort` of a list request: `field` or `-field`; null when not given (the default order). An unknown
 * field is a VALIDATION_ERROR naming `sort`, on both surfaces.
 */
export function parseSort(entity: Function, sort: string | null | undefined, col: (property: string) => string): ParsedSort | null {
  if (sort === undefined || sort === null || sort === '') return null;
  const descending = sort.startsWith('-');
  const field = descending ? sort.slice(1) : sort;
  const keys = declared.get(entity) ?? new Map(Object.entries(TIMESTAMPS));
  const key = keys.get(field);
  if (!key) throw AppError.field('sort', `must be one of: ${sortFieldsOf(entity).join(', ')} (with - in front for descending)`);
  return { field, descending, exprs: typeof key === 'string' ? [col(key)] : key(col) };
}

/** ORDER BY of a sorted list: its expressions, then the key, all in the one direction. */
export function orderSql(parsed: ParsedSort, keyColumn: string): string {
  const dir = parsed.descending ? 'desc' : 'asc';
  return [...parsed.exprs, keyColumn].map((x) => `${x} ${dir}`).join(', ');
}

const defaults = new Map<Function, SortExpr>();

/**
 * The order of an entity's lists when no `sort` is given, if not newest first (the visits' calendar:
 * by start): ORDER BY items over the row's columns, the last one the key, so that pages are stable.
 */
export function DefaultOrder(order: SortExpr): ClassDecorator {
  return (target) => {
    defaults.set(target, order);
  };
}

/** The declared default order of an entity's lists as ORDER BY (DefaultOrder), else null: newest first. */
export function defaultOrderOf(entity: Function, col: (property: string) => string): string | null {
  const order = defaults.get(entity);
  return order ? order(col).join(', ') : null;
}
