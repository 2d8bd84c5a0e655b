// Customer search (docs/conventions.md, Lists), once: the fields a term is matched against, as SQL
// on the customer row under an alias. The joined text, lower-cased, is the stored column
// `search_text` and the phone's digits the stored column `phone_digits` (migration 0023), each with
// its trigram index; the columns are generated from the expressions here, and
// test/modules/customer/customer-rules.spec.ts holds them (and the field-by-field form) together.

/** Joins the fields: a character no search term carries, so that no match spans two fields. */
export const SEARCH_SEPARATOR = '\x1f';

const col = (alias: string, column: string) => (alias ? `${alias}.${column}` : column);

/** The fields, each an SQL text expression: names, "first last", company name, email, phone and the uuid. */
export const customerSearchFieldsSql = (alias: string): string[] => [
  col(alias, 'first_name'),
  col(alias, 'last_name'),
  `${col(alias, 'first_name')} || ' ' || ${col(alias, 'last_name')}`,
  col(alias, 'company_name'),
  col(alias, 'email'),
  col(alias, 'phone'),
  `${col(alias, 'uuid')}::text`,
];

/** The fields as one text joined by SEARCH_SEPARATOR (nulls as empty). */
export const customerSearchTextSql = (alias: string): string =>
  `(${col(alias, 'first_name')} || E'\\x1f' || ${col(alias, 'last_name')} || E'\\x1f' || ${col(alias, 'first_name')} || ' ' || ${col(alias, 'last_name')} || E'\\x1f' || ` +
  `coalesce(${col(alias, 'company_name')}, '') || E'\\x1f' || coalesce(${col(alias, 'email')}, '') || E'\\x1f' || coalesce(${col(alias, 'phone')}, '') || E'\\x1f' || ${col(alias, 'uuid')}::text)`;

/**
 * The stored column `search_text` is generated from this (alias ''): the joined text lower-cased.
 * `search_text LIKE lower(pattern)` is what `joined ILIKE pattern` does (PostgreSQL's ILIKE in a
 * multi-byte encoding lower-cases both sides), without joining and lower-casing every row it reads.
 */
export const customerSearchColumnSql = (alias: string): string => `lower(${customerSearchTextSql(alias)})`;

/** The phone's digits alone (a term's digits match them: `2175550101` finds `217-555-0101`): the stored column `phone_digits` (alias ''). */
export const phoneDigitsSql = (alias: string): string => `regexp_replace(coalesce(${col(alias, 'phone')}, ''), '\\D', '', 'g')`;

/**
 * The search condition for `term` on the customer row under `alias`, with its parameters (each `?`
 * the next, in order; `pattern` makes a term a contains-pattern), on the stored columns. A term
 * carrying the separator is matched field by field.
 */
export function customerSearchSql(alias: string, term: string, pattern: (t: string) => string): { sql: string; params: string[] } {
  const p = pattern(term);
  const digits = term.replace(/\D/g, '');
  const perField = term.includes(SEARCH_SEPARATOR);
  const fields = perField ? customerSearchFieldsSql(alias).map((f) => `${f} ilike ?`).join(' or ') : `${col(alias, 'search_text')} like lower(?)`;
  const params = perField ? customerSearchFieldsSql(alias).map(() => p) : [p];
  if (!digits) return { sql: fields, params };
  return { sql: `${fields} or ${col(alias, 'phone_digits')} like ?`, params: [...params, `%${digits}%`] };
}
