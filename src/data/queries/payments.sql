-- payments: every statement the read model runs on it (src/data/list.ts, src/data/keyed.ts), written by `npm run sql`.
-- Each ? is a parameter; the company's key is passed to every statement.

-- list: a page of the live rows, newest first, and their total
select (
  select coalesce(sum(kc.live), 0)::bigint
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'payments') as "total", (
  select coalesce(json_agg(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."payment_number")::text, ("e"."invoice_uuid")::text, ("e"."customer_uuid")::text, ("e"."payment_type")::text, ("e"."payment_method")::text, ("e"."amount")::text, ("e"."processing_fee")::text, ("e"."refunded_amount")::text, ("e"."payment_date")::text, ("e"."transaction_id")::text, ("e"."reference_number")::text, ("e"."authorization_code")::text, "e"."payment_details", ("e"."notes")::text, ("e"."status")::text, "e"."processed_at", ("e"."created_by_user_id")::text, "e"."external_ids")
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select *
      from "payments" as e
      where e."company_uuid" = ? and e."deleted_at" is null
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "rows";

-- list with include_deleted: all the rows, and their total
select (
  select coalesce(sum(kc.all_rows), 0)::bigint
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'payments') as "total", (
  select coalesce(json_agg(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."payment_number")::text, ("e"."invoice_uuid")::text, ("e"."customer_uuid")::text, ("e"."payment_type")::text, ("e"."payment_method")::text, ("e"."amount")::text, ("e"."processing_fee")::text, ("e"."refunded_amount")::text, ("e"."payment_date")::text, ("e"."transaction_id")::text, ("e"."reference_number")::text, ("e"."authorization_code")::text, "e"."payment_details", ("e"."notes")::text, ("e"."status")::text, "e"."processed_at", ("e"."created_by_user_id")::text, "e"."external_ids")
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select *
      from "payments" as e
      where e."company_uuid" = ?
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "rows";

-- list with a filter (`and (…)` after the conditions): the total counted
select case when "p"."n" < ?::int and ("p"."n" > 0 or ?::int = 0) then ?::int + "p"."n" else (
  select count(*)
    from "payments" as e
    where e."company_uuid" = ? and e."deleted_at" is null) end as "total", "p"."rows"
  from (
  select coalesce(json_agg(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."payment_number")::text, ("e"."invoice_uuid")::text, ("e"."customer_uuid")::text, ("e"."payment_type")::text, ("e"."payment_method")::text, ("e"."amount")::text, ("e"."processing_fee")::text, ("e"."refunded_amount")::text, ("e"."payment_date")::text, ("e"."transaction_id")::text, ("e"."reference_number")::text, ("e"."authorization_code")::text, "e"."payment_details", ("e"."notes")::text, ("e"."status")::text, "e"."processed_at", ("e"."created_by_user_id")::text, "e"."external_ids")
        order by e."created_at" desc, e."uuid" desc), '[]'::json) as "rows", count(*)::int as "n"
    from (
    select *
      from "payments" as e
      where e."company_uuid" = ? and e."deleted_at" is null
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "p";

-- list, a page from row 1000 on (keys first, or from the row remembered there under the same change count (remembered-starts.ts))
select (
  select coalesce(sum(kc.live), 0)::bigint
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'payments') as "total", "kv"."changes"::text as "changes", (
  select coalesce(json_agg(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."payment_number")::text, ("e"."invoice_uuid")::text, ("e"."customer_uuid")::text, ("e"."payment_type")::text, ("e"."payment_method")::text, ("e"."amount")::text, ("e"."processing_fee")::text, ("e"."refunded_amount")::text, ("e"."payment_date")::text, ("e"."transaction_id")::text, ("e"."reference_number")::text, ("e"."authorization_code")::text, "e"."payment_details", ("e"."notes")::text, ("e"."status")::text, "e"."processed_at", ("e"."created_by_user_id")::text, "e"."external_ids")
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from "payments" as e
    where e."uuid" = any(array((select e."uuid" from "payments" as e where (e."company_uuid" = ? and e."deleted_at" is null) and "kv"."changes" = ?::bigint and (e."created_at", e."uuid") <= (?::timestamptz(3), ?::uuid) order by e."created_at" desc, e."uuid" desc limit ? offset ?) union all (select e."uuid" from "payments" as e where (e."company_uuid" = ? and e."deleted_at" is null) and "kv"."changes" is distinct from ?::bigint order by e."created_at" desc, e."uuid" desc limit ? offset ?)))) as "rows"
  from (
  select case when pg_current_xact_id_if_assigned() is null then coalesce(sum(kc.changes), 0)::bigint end as "changes"
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'payments') as "kv";

-- list with its invoice
select (
  select coalesce(sum(kc.live), 0)::bigint
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'payments') as "total", (
  select coalesce(json_agg(json_build_array(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."payment_number")::text, ("e"."invoice_uuid")::text, ("e"."customer_uuid")::text, ("e"."payment_type")::text, ("e"."payment_method")::text, ("e"."amount")::text, ("e"."processing_fee")::text, ("e"."refunded_amount")::text, ("e"."payment_date")::text, ("e"."transaction_id")::text, ("e"."reference_number")::text, ("e"."authorization_code")::text, "e"."payment_details", ("e"."notes")::text, ("e"."status")::text, "e"."processed_at", ("e"."created_by_user_id")::text, "e"."external_ids"), json_build_array((select json_build_array(("r0"."uuid")::text, ("r0"."company_uuid")::text, "r0"."created_at", "r0"."updated_at", "r0"."deleted_at", ("r0"."invoice_number")::text, ("r0"."customer_uuid")::text, ("r0"."job_uuid")::text, ("r0"."estimate_uuid")::text, ("r0"."location_uuid")::text, ("r0"."recurring_invoice_uuid")::text, ("r0"."invoice_type")::text, ("r0"."progress_percentage")::text, ("r0"."issue_date")::text, ("r0"."due_date")::text, ("r0"."subtotal")::text, ("r0"."tax_amount")::text, ("r0"."discount_amount")::text, ("r0"."total_amount")::text, ("r0"."paid_amount")::text, ("r0"."balance_amount")::text, "r0"."line_items", ("r0"."notes")::text, ("r0"."terms")::text, ("r0"."internal_notes")::text, ("r0"."status")::text, ((select (now() at time zone coalesce((select l.timezone from locations l where l.company_uuid = "co".company_uuid and l.is_primary and l.deleted_at is null limit 1), 'America/New_York'))::date::text from (select ?::uuid as "company_uuid") as "co"))::text, "r0"."custom_fields", "r0"."custom_fields_hidden", "r0"."external_ids") from "invoices" as "r0" where "r0"."company_uuid" = e."company_uuid" and "r0"."uuid" = e."invoice_uuid")))
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select *
      from "payments" as e
      where e."company_uuid" = ? and e."deleted_at" is null
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "rows";

-- list with its customer
select (
  select coalesce(sum(kc.live), 0)::bigint
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'payments') as "total", (
  select coalesce(json_agg(json_build_array(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."payment_number")::text, ("e"."invoice_uuid")::text, ("e"."customer_uuid")::text, ("e"."payment_type")::text, ("e"."payment_method")::text, ("e"."amount")::text, ("e"."processing_fee")::text, ("e"."refunded_amount")::text, ("e"."payment_date")::text, ("e"."transaction_id")::text, ("e"."reference_number")::text, ("e"."authorization_code")::text, "e"."payment_details", ("e"."notes")::text, ("e"."status")::text, "e"."processed_at", ("e"."created_by_user_id")::text, "e"."external_ids"), json_build_array((select json_build_array(("r0"."uuid")::text, ("r0"."company_uuid")::text, "r0"."created_at", "r0"."updated_at", "r0"."deleted_at", ("r0"."first_name")::text, ("r0"."last_name")::text, ("r0"."company_name")::text, ("r0"."email")::text, ("r0"."phone")::text, ("r0"."customer_type")::text, "r0"."is_vip", ("r0"."physical_address1")::text, ("r0"."physical_address2")::text, ("r0"."physical_city")::text, ("r0"."physical_state")::text, ("r0"."physical_zip")::text, ("r0"."billing_address1")::text, ("r0"."billing_address2")::text, ("r0"."billing_city")::text, ("r0"."billing_state")::text, ("r0"."billing_zip")::text, ("r0"."primary_service_location_uuid")::text, ("r0"."notes")::text, "r0"."internal_flags", ("r0"."on_my_way_notify_via")::text, "r0"."custom_fields", "r0"."custom_fields_hidden", "r0"."external_ids", "r0"."tags") from "customers" as "r0" where "r0"."company_uuid" = e."company_uuid" and "r0"."uuid" = e."customer_uuid")))
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select *
      from "payments" as e
      where e."company_uuid" = ? and e."deleted_at" is null
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "rows";

-- list with its createdBy
select (
  select coalesce(sum(kc.live), 0)::bigint
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'payments') as "total", (
  select coalesce(json_agg(json_build_array(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."payment_number")::text, ("e"."invoice_uuid")::text, ("e"."customer_uuid")::text, ("e"."payment_type")::text, ("e"."payment_method")::text, ("e"."amount")::text, ("e"."processing_fee")::text, ("e"."refunded_amount")::text, ("e"."payment_date")::text, ("e"."transaction_id")::text, ("e"."reference_number")::text, ("e"."authorization_code")::text, "e"."payment_details", ("e"."notes")::text, ("e"."status")::text, "e"."processed_at", ("e"."created_by_user_id")::text, "e"."external_ids"), json_build_array((select json_build_array(("r0"."id")::text, ("r0"."company_uuid")::text, ("r0"."first_name")::text, ("r0"."last_name")::text, ("r0"."email")::text, ("r0"."phone")::text, ("r0"."role")::text, "r0"."active", "r0"."created_at", "r0"."updated_at") from "users" as "r0" where "r0"."company_uuid" = e."company_uuid" and "r0"."id" = e."created_by_user_id")))
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select *
      from "payments" as e
      where e."company_uuid" = ? and e."deleted_at" is null
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "rows";

-- load by uuid (the loaders; the keys one array)
select e."uuid", e."company_uuid", e."created_at", e."updated_at", e."deleted_at", e."payment_number", e."invoice_uuid", e."customer_uuid", e."payment_type", e."payment_method", e."amount", e."processing_fee", e."refunded_amount", e."payment_date", e."transaction_id", e."reference_number", e."authorization_code", e."payment_details", e."notes", e."status", e."processed_at", e."created_by_user_id", e."external_ids"
  from "payments" as e
  where e."company_uuid" = ? and e."uuid" = any(?::uuid[]);

-- read one live record by uuid (readActive, GET of one record; the key a one-element array)
select e."uuid", e."company_uuid", e."created_at", e."updated_at", e."deleted_at", e."payment_number", e."invoice_uuid", e."customer_uuid", e."payment_type", e."payment_method", e."amount", e."processing_fee", e."refunded_amount", e."payment_date", e."transaction_id", e."reference_number", e."authorization_code", e."payment_details", e."notes", e."status", e."processed_at", e."created_by_user_id", e."external_ids"
  from "payments" as e
  where e."company_uuid" = ? and e."uuid" = any(?::uuid[]) and e."deleted_at" is null
  order by e."created_at" desc, e."uuid" desc;

-- load the live rows by invoice (relation lists; the keys one array)
select e."uuid", e."company_uuid", e."created_at", e."updated_at", e."deleted_at", e."payment_number", e."invoice_uuid", e."customer_uuid", e."payment_type", e."payment_method", e."amount", e."processing_fee", e."refunded_amount", e."payment_date", e."transaction_id", e."reference_number", e."authorization_code", e."payment_details", e."notes", e."status", e."processed_at", e."created_by_user_id", e."external_ids"
  from "payments" as e
  where e."company_uuid" = ? and e."invoice_uuid" = any(?::uuid[]) and e."deleted_at" is null
  order by e."created_at" desc, e."uuid" desc;

-- load the live rows by customer (relation lists; the keys one array)
select e."uuid", e."company_uuid", e."created_at", e."updated_at", e."deleted_at", e."payment_number", e."invoice_uuid", e."customer_uuid", e."payment_type", e."payment_method", e."amount", e."processing_fee", e."refunded_amount", e."payment_date", e."transaction_id", e."reference_number", e."authorization_code", e."payment_details", e."notes", e."status", e."processed_at", e."created_by_user_id", e."external_ids"
  from "payments" as e
  where e."company_uuid" = ? and e."customer_uuid" = any(?::uuid[]) and e."deleted_at" is null
  order by e."created_at" desc, e."uuid" desc;

-- load the live rows by createdBy (relation lists; the keys one array)
select e."uuid", e."company_uuid", e."created_at", e."updated_at", e."deleted_at", e."payment_number", e."invoice_uuid", e."customer_uuid", e."payment_type", e."payment_method", e."amount", e."processing_fee", e."refunded_amount", e."payment_date", e."transaction_id", e."reference_number", e."authorization_code", e."payment_details", e."notes", e."status", e."processed_at", e."created_by_user_id", e."external_ids"
  from "payments" as e
  where e."company_uuid" = ? and e."created_by_user_id" = any(?::uuid[]) and e."deleted_at" is null
  order by e."created_at" desc, e."uuid" desc;
