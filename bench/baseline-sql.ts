// The list statements of the raw baseline (bench/baseline.ts), written as the server's read model
// writes them (src/data/list.ts; committed under src/data/queries/): test/data/bench-baseline-sql.spec.ts
// checks each against the committed SQL.

import { invoiceTodaySql } from '../src/modules/invoice/invoice.rules';

// Lists as the server runs them (src/data/list.ts leanList): one statement with the count and the
// page's rows, each a JSON array of its columns; '=' marks a column that JSON carries as it is
// (timestamps, booleans, json), the others travel as text. Related records are nested arrays.
export const CUSTOMER = ['uuid', 'company_uuid', '=created_at', '=updated_at', '=deleted_at', 'first_name', 'last_name', 'company_name', 'email', 'phone', 'customer_type', '=is_vip',
  'physical_address1', 'physical_address2', 'physical_city', 'physical_state', 'physical_zip', 'billing_address1', 'billing_address2', 'billing_city', 'billing_state',
  'billing_zip', 'primary_service_location_uuid', 'notes', '=internal_flags', 'on_my_way_notify_via', '=custom_fields', '=custom_fields_hidden', '=external_ids', '=tags'];
export const INVOICE = ['uuid', 'company_uuid', '=created_at', '=updated_at', '=deleted_at', 'invoice_number', 'customer_uuid', 'job_uuid', 'estimate_uuid', 'location_uuid', 'recurring_invoice_uuid',
  'invoice_type', 'progress_percentage', 'issue_date', 'due_date', 'subtotal', 'tax_amount', 'discount_amount', 'total_amount', 'paid_amount', 'balance_amount',
  '=line_items', 'notes', 'terms', 'internal_notes', 'status'];
// The invoice's columns after its "today" (a formula: the entity declares them after it).
export const INVOICE_AFTER = ['=custom_fields', '=custom_fields_hidden', '=external_ids'];
// The columns the GraphQL page's selection reads (src/graphql/prefetch.ts).
export const GQL_INVOICE = ['uuid', '=created_at', 'invoice_number', 'customer_uuid', 'issue_date', 'due_date', 'total_amount', 'paid_amount', 'balance_amount', 'status'];
export const GQL_CUSTOMER = ['uuid', 'first_name', 'last_name', 'email'];
export const GQL_PAYMENT = ['uuid', 'payment_number', 'amount', 'payment_date', 'status'];

const columns = (alias: string, cols: readonly string[]) => cols.map((c) => (c[0] === '=' ? `"${alias}"."${c.slice(1)}"` : `("${alias}"."${c}")::text`)).join(', ');
// The invoice's "today" in the company timezone reads only the company: computed once per statement ($1 the company),
// from the rule's SQL form (src/modules/invoice/invoice.rules.ts).
const companyToday = () => `((select ${invoiceTodaySql('"co"')}::text from (select $1::uuid as "company_uuid") as "co"))::text`;
const invoiceArray = (cols: readonly string[], after: readonly string[] = []) => `json_build_array(${columns('e', cols)}, ${companyToday()}${after.length ? `, ${columns('e', after)}` : ''})`;
const customerOf = (cols: readonly string[]) =>
  `(select json_build_array(${columns('r0', cols)}) from "customers" as "r0" where "r0"."company_uuid" = e."company_uuid" and "r0"."uuid" = e."customer_uuid")`;
const paymentsOf = (cols: readonly string[]) =>
  `(select coalesce(json_agg(json_build_array(${columns('r1', cols)}) order by "r1"."created_at" desc, "r1"."uuid" desc), '[]'::json) from "payments" as "r1" ` +
  `where "r1"."company_uuid" = e."company_uuid" and "r1"."invoice_uuid" = e."uuid" and "r1"."deleted_at" is null)`;

/** The tables whose counts are kept (src/data/kept-counts.ts, migration 0016). */
const COUNTED = new Set(['jobs', 'estimates', 'invoices', 'payments', 'customers', 'locations', 'templates']);
/** The conditions of an unfiltered list: the company's rows that are not deleted. */
export const LIVE = `e."company_uuid" = $1 and e."deleted_at" is null`;

/** The tables whose filtered lists remember their totals (src/data/remembered-totals.ts, migration 0024). */
const REMEMBERED = new Set(['customers']);

/**
 * The list statement: `where` on alias e ($1 the company), then limit and offset as parameters $n
 * and $n+1; a page from row 1000 on finds its keys first, as the server does. A filtered list of a
 * table in REMEMBERED takes the remembered change count and total as $n+2 and $n+3 and returns the
 * change count it read (column "changes"); unless it seeks, a page that ends it is its own total.
 * A page from row 1000 on of a kept or remembered list may start at a remembered row
 * (src/data/remembered-starts.ts): the change count, created_at, key and skip of the start as the
 * next four parameters, and it returns the change count too.
 */
export function listSql(table: string, where: string, row: string, n: number, deep: boolean, filtered = where !== LIVE): string {
  const order = `e."created_at" desc, e."uuid" desc`;
  // An unfiltered list reads the company's kept count (migration 0016).
  const kept = COUNTED.has(table) && !filtered;
  const remembered = REMEMBERED.has(table) && filtered;
  const seek = deep && (kept || remembered) ? n + (remembered ? 4 : 2) : 0;
  const count = `(select count(*) from "${table}" as e where ${where})`;
  const total = kept
    ? `select (select coalesce(sum(kc.live), 0)::bigint from kept_counts as kc where kc.company_uuid = $1::uuid and kc.table_name = '${table}') as "total", ${seek ? '"kv"."changes"::text as "changes", ' : ''}`
    : remembered
      ? `select (case when "kv"."changes" = $${n + 2}::bigint then $${n + 3}::bigint else ${count} end) as "total", "kv"."changes"::text as "changes", `
      : `select ${count} as "total", `;
  const kv = `(select case when pg_current_xact_id_if_assigned() is null then coalesce(sum(kc.changes), 0)::bigint end as "changes" ` +
    `from kept_counts as kc where kc.company_uuid = $1::uuid and kc.table_name = '${table}') as "kv"`;
  const from = remembered || seek ? ` from ${kv}` : '';
  if (seek) {
    const keys = (cond: string, offset: number) => `(select e."uuid" from "${table}" as e where (${where}) and ${cond} order by ${order} limit $${n} offset $${offset})`;
    return total + `(select coalesce(json_agg(${row} order by ${order}), '[]'::json) from "${table}" as e where e."uuid" = any(array(` +
      keys(`"kv"."changes" = $${seek}::bigint and (e."created_at", e."uuid") <= ($${seek + 1}::timestamptz(3), $${seek + 2}::uuid)`, seek + 3) +
      ` union all ` + keys(`"kv"."changes" is distinct from $${seek}::bigint`, n + 1) + `))) as "rows"` + from;
  }
  if (deep) {
    return total + `(select coalesce(json_agg(${row} order by ${order}), '[]'::json) from "${table}" as e where e."uuid" = any(array(` +
      `select e."uuid" from "${table}" as e where ${where} order by ${order} limit $${n} offset $${n + 1}))) as "rows"` + from;
  }
  if (remembered) {
    // A page that ends the list is its own total, as the server's (src/data/list.ts statementText).
    const shortPage = `when "p"."n" < $${n}::int and ("p"."n" > 0 or $${n + 1}::int = 0) then $${n + 1}::int + "p"."n"`;
    return `select (case when "kv"."changes" = $${n + 2}::bigint then $${n + 3}::bigint ${shortPage} else ${count} end) as "total", "kv"."changes"::text as "changes", "p"."rows" ` +
      `from (select coalesce(json_agg(${row} order by ${order}), '[]'::json) as "rows", count(*)::int as "n" from ` +
      `(select * from "${table}" as e where ${where} order by ${order} limit $${n} offset $${n + 1}) as e) as "p", ${kv}`;
  }
  return total + `(select coalesce(json_agg(${row} order by ${order}), '[]'::json) from ` +
    `(select * from "${table}" as e where ${where} order by ${order} limit $${n} offset $${n + 1}) as e) as "rows"` + from;
}


/** The row of the REST customer list: every column. */
export const CUSTOMER_ROW = `json_build_array(${columns('e', CUSTOMER)})`;
/** The row of the REST invoice list: every column, with its customer. */
export const REST_INVOICE_ROW = `json_build_array(${invoiceArray(INVOICE, INVOICE_AFTER)}, json_build_array(${customerOf(CUSTOMER)}))`;
/** The row of the GraphQL invoices page: the columns its selection reads, with the customer and payments. */
export const GQL_INVOICE_ROW = `json_build_array(${invoiceArray(GQL_INVOICE)}, json_build_array(${customerOf(GQL_CUSTOMER)}, ${paymentsOf(GQL_PAYMENT)}))`;

/**
 * GET of one customer as the server reads it (src/data/crud.ts readActive, the keyed statement of
 * src/data/keyed.ts): every column, the key a one-element array ($2), prepared.
 */
export const CUSTOMER_BY_ID =
  `select ${CUSTOMER.map((c) => `e."${c.replace('=', '')}"`).join(', ')} from "customers" as e ` +
  `where e."company_uuid" = $1 and e."uuid" = any($2::uuid[]) and e."deleted_at" is null order by e."created_at" desc, e."uuid" desc`;
