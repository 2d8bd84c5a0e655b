// Customer search (docs/conventions.md, Lists), once: the fields a term is matched against, as SQL
// on the customer row under an alias. The joined text is the expression of the trigram index of
// migration 0008 (customers_search_trgm_idx), which the planner uses only while the two are the
// same expression; test/modules/customer/customer-rules.test.ts holds them (and the field-by-field
// form) together.

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

/** The fields as one text joined by SEARCH_SEPARATOR (nulls as empty); alias '' gives the index's expression. */
export const customerSearchTextSql = (alias: string): string =>
  `(${col(alias, 'first_name')} || E'\\x1f' || ${col(alias, 'last_name')} || E'\\x1f' || ${col(alias, 'first_name')} || ' ' || ${col(alias, 'last_name')} || E'\\x1f' || ` +
  `coalesce(${col(alias, 'company_name')}, '') || E'\\x1f' || coalesce(${col(alias, 'email')}, '') || E'\\x1f' || coalesce(${col(alias, 'phone')}, '') || E'\\x1f' || ${col(alias, 'uuid')}::text)`;

/** The phone's digits alone (a term's digits match them: `2175550101` finds `217-555-0101`); its own trigram index (migration 0006). */
export const phoneDigitsSql = (alias: string): string => `regexp_replace(coalesce(${col(alias, 'phone')}, ''), '\\D', '', 'g')`;

/**
 * The search condition for `term` on the customer row under `alias`, with its parameters (each `?`
 * the next, in order; `pattern` makes a term a contains-pattern). A term carrying the separator
 * is matched field by field.
 */
export function customerSearchSql(alias: string, term: string, pattern: (t: string) => string): { sql: string; params: string[] } {
  const p = pattern(term);
  const digits = term.replace(/\D/g, '');
  const perField = term.includes(SEARCH_SEPARATOR);
  const fields = perField ? customerSearchFieldsSql(alias).map((f) => `${f} ilike ?`).join(' or ') : `${customerSearchTextSql(alias)} ilike ?`;
  const params = perField ? customerSearchFieldsSql(alias).map(() => p) : [p];
  if (!digits) return { sql: fields, params };
  return { sql: `${fields} or ${phoneDigitsSql(alias)} like ?`, params: [...params, `%${digits}%`] };
}
