-- estimates: every statement the read model runs on it (src/data/list.ts, src/data/keyed.ts), written by `npm run sql`.
-- Each ? is a parameter; the company's key is passed to every statement.

-- list: a page of the live rows, newest first, and their total
select (
  select coalesce(sum(kc.live), 0)::bigint
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'estimates') as "total", (
  select coalesce(json_agg(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."estimate_number")::text, ("e"."customer_uuid")::text, ("e"."job_uuid")::text, ("e"."template_uuid")::text, ("e"."location_uuid")::text, ("e"."created_by_user_id")::text, ("e"."status")::text, ("e"."template_name")::text, ("e"."pricing_type")::text, ("e"."selected_tier")::text, ("e"."base_amount")::text, ("e"."addons_amount")::text, ("e"."tax_amount")::text, ("e"."total_amount")::text, ("e"."quantity")::text, "e"."selected_addons", "e"."adjustments", "e"."pricing_snapshot", ("e"."service_description")::text, ("e"."internal_notes")::text, ("e"."customer_notes")::text, ("e"."response_notes")::text, "e"."expires_at", "e"."acceptance", "e"."responded_at", "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids")
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select *
      from "estimates" as e
      where e."company_uuid" = ? and e."deleted_at" is null
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "rows";

-- list with include_deleted: all the rows, and their total
select (
  select coalesce(sum(kc.all_rows), 0)::bigint
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'estimates') as "total", (
  select coalesce(json_agg(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."estimate_number")::text, ("e"."customer_uuid")::text, ("e"."job_uuid")::text, ("e"."template_uuid")::text, ("e"."location_uuid")::text, ("e"."created_by_user_id")::text, ("e"."status")::text, ("e"."template_name")::text, ("e"."pricing_type")::text, ("e"."selected_tier")::text, ("e"."base_amount")::text, ("e"."addons_amount")::text, ("e"."tax_amount")::text, ("e"."total_amount")::text, ("e"."quantity")::text, "e"."selected_addons", "e"."adjustments", "e"."pricing_snapshot", ("e"."service_description")::text, ("e"."internal_notes")::text, ("e"."customer_notes")::text, ("e"."response_notes")::text, "e"."expires_at", "e"."acceptance", "e"."responded_at", "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids")
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select *
      from "estimates" as e
      where e."company_uuid" = ?
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "rows";

-- list with a filter (`and (…)` after the conditions): the total counted
select case when "p"."n" < ?::int and ("p"."n" > 0 or ?::int = 0) then ?::int + "p"."n" else (
  select count(*)
    from "estimates" as e
    where e."company_uuid" = ? and e."deleted_at" is null) end as "total", "p"."rows"
  from (
  select coalesce(json_agg(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."estimate_number")::text, ("e"."customer_uuid")::text, ("e"."job_uuid")::text, ("e"."template_uuid")::text, ("e"."location_uuid")::text, ("e"."created_by_user_id")::text, ("e"."status")::text, ("e"."template_name")::text, ("e"."pricing_type")::text, ("e"."selected_tier")::text, ("e"."base_amount")::text, ("e"."addons_amount")::text, ("e"."tax_amount")::text, ("e"."total_amount")::text, ("e"."quantity")::text, "e"."selected_addons", "e"."adjustments", "e"."pricing_snapshot", ("e"."service_description")::text, ("e"."internal_notes")::text, ("e"."customer_notes")::text, ("e"."response_notes")::text, "e"."expires_at", "e"."acceptance", "e"."responded_at", "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids")
        order by e."created_at" desc, e."uuid" desc), '[]'::json) as "rows", count(*)::int as "n"
    from (
    select *
      from "estimates" as e
      where e."company_uuid" = ? and e."deleted_at" is null
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "p";

-- list, a page from row 1000 on (keys first, or from the row remembered there under the same change count (remembered-starts.ts))
select (
  select coalesce(sum(kc.live), 0)::bigint
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'estimates') as "total", "kv"."changes"::text as "changes", (
  select coalesce(json_agg(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."estimate_number")::text, ("e"."customer_uuid")::text, ("e"."job_uuid")::text, ("e"."template_uuid")::text, ("e"."location_uuid")::text, ("e"."created_by_user_id")::text, ("e"."status")::text, ("e"."template_name")::text, ("e"."pricing_type")::text, ("e"."selected_tier")::text, ("e"."base_amount")::text, ("e"."addons_amount")::text, ("e"."tax_amount")::text, ("e"."total_amount")::text, ("e"."quantity")::text, "e"."selected_addons", "e"."adjustments", "e"."pricing_snapshot", ("e"."service_description")::text, ("e"."internal_notes")::text, ("e"."customer_notes")::text, ("e"."response_notes")::text, "e"."expires_at", "e"."acceptance", "e"."responded_at", "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids")
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from "estimates" as e
    where e."uuid" = any(array((select e."uuid" from "estimates" as e where (e."company_uuid" = ? and e."deleted_at" is null) and "kv"."changes" = ?::bigint and (e."created_at", e."uuid") <= (?::timestamptz(3), ?::uuid) order by e."created_at" desc, e."uuid" desc limit ? offset ?) union all (select e."uuid" from "estimates" as e where (e."company_uuid" = ? and e."deleted_at" is null) and "kv"."changes" is distinct from ?::bigint order by e."created_at" desc, e."uuid" desc limit ? offset ?)))) as "rows"
  from (
  select case when pg_current_xact_id_if_assigned() is null then coalesce(sum(kc.changes), 0)::bigint end as "changes"
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'estimates') as "kv";

-- list with its customer
select (
  select coalesce(sum(kc.live), 0)::bigint
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'estimates') as "total", (
  select coalesce(json_agg(json_build_array(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."estimate_number")::text, ("e"."customer_uuid")::text, ("e"."job_uuid")::text, ("e"."template_uuid")::text, ("e"."location_uuid")::text, ("e"."created_by_user_id")::text, ("e"."status")::text, ("e"."template_name")::text, ("e"."pricing_type")::text, ("e"."selected_tier")::text, ("e"."base_amount")::text, ("e"."addons_amount")::text, ("e"."tax_amount")::text, ("e"."total_amount")::text, ("e"."quantity")::text, "e"."selected_addons", "e"."adjustments", "e"."pricing_snapshot", ("e"."service_description")::text, ("e"."internal_notes")::text, ("e"."customer_notes")::text, ("e"."response_notes")::text, "e"."expires_at", "e"."acceptance", "e"."responded_at", "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids"), json_build_array((select json_build_array(("r0"."uuid")::text, ("r0"."company_uuid")::text, "r0"."created_at", "r0"."updated_at", "r0"."deleted_at", ("r0"."first_name")::text, ("r0"."last_name")::text, ("r0"."company_name")::text, ("r0"."email")::text, ("r0"."phone")::text, ("r0"."customer_type")::text, "r0"."is_vip", ("r0"."physical_address1")::text, ("r0"."physical_address2")::text, ("r0"."physical_city")::text, ("r0"."physical_state")::text, ("r0"."physical_zip")::text, ("r0"."billing_address1")::text, ("r0"."billing_address2")::text, ("r0"."billing_city")::text, ("r0"."billing_state")::text, ("r0"."billing_zip")::text, ("r0"."primary_service_location_uuid")::text, ("r0"."notes")::text, "r0"."internal_flags", ("r0"."on_my_way_notify_via")::text, "r0"."custom_fields", "r0"."custom_fields_hidden", "r0"."external_ids", "r0"."tags") from "customers" as "r0" where "r0"."company_uuid" = e."company_uuid" and "r0"."uuid" = e."customer_uuid")))
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select *
      from "estimates" as e
      where e."company_uuid" = ? and e."deleted_at" is null
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "rows";

-- list with its job
select (
  select coalesce(sum(kc.live), 0)::bigint
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'estimates') as "total", (
  select coalesce(json_agg(json_build_array(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."estimate_number")::text, ("e"."customer_uuid")::text, ("e"."job_uuid")::text, ("e"."template_uuid")::text, ("e"."location_uuid")::text, ("e"."created_by_user_id")::text, ("e"."status")::text, ("e"."template_name")::text, ("e"."pricing_type")::text, ("e"."selected_tier")::text, ("e"."base_amount")::text, ("e"."addons_amount")::text, ("e"."tax_amount")::text, ("e"."total_amount")::text, ("e"."quantity")::text, "e"."selected_addons", "e"."adjustments", "e"."pricing_snapshot", ("e"."service_description")::text, ("e"."internal_notes")::text, ("e"."customer_notes")::text, ("e"."response_notes")::text, "e"."expires_at", "e"."acceptance", "e"."responded_at", "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids"), json_build_array((select json_build_array(("r0"."uuid")::text, ("r0"."company_uuid")::text, "r0"."created_at", "r0"."updated_at", "r0"."deleted_at", ("r0"."job_number")::text, ("r0"."customer_uuid")::text, ("r0"."location_uuid")::text, ("r0"."assigned_to_user_id")::text, ("r0"."title")::text, ("r0"."description")::text, ("r0"."status")::text, ("r0"."priority")::text, "r0"."is_urgent", "r0"."is_emergency", ("r0"."service_address1")::text, ("r0"."service_address2")::text, ("r0"."service_city")::text, ("r0"."service_state")::text, ("r0"."service_zip")::text, ("r0"."estimated_amount")::text, ("r0"."actual_amount")::text, ("r0"."scheduled_date")::text, ("r0"."scheduled_time_start")::text, ("r0"."scheduled_time_end")::text, "r0"."started_at", "r0"."completed_at", "r0"."invoiced_at", "r0"."paid_at", ("r0"."internal_notes")::text, ("r0"."customer_notes")::text, "r0"."custom_fields", "r0"."custom_fields_hidden", "r0"."external_ids", "r0"."tags") from "jobs" as "r0" where "r0"."company_uuid" = e."company_uuid" and "r0"."uuid" = e."job_uuid")))
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select *
      from "estimates" as e
      where e."company_uuid" = ? and e."deleted_at" is null
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "rows";

-- list with its template
select (
  select coalesce(sum(kc.live), 0)::bigint
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'estimates') as "total", (
  select coalesce(json_agg(json_build_array(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."estimate_number")::text, ("e"."customer_uuid")::text, ("e"."job_uuid")::text, ("e"."template_uuid")::text, ("e"."location_uuid")::text, ("e"."created_by_user_id")::text, ("e"."status")::text, ("e"."template_name")::text, ("e"."pricing_type")::text, ("e"."selected_tier")::text, ("e"."base_amount")::text, ("e"."addons_amount")::text, ("e"."tax_amount")::text, ("e"."total_amount")::text, ("e"."quantity")::text, "e"."selected_addons", "e"."adjustments", "e"."pricing_snapshot", ("e"."service_description")::text, ("e"."internal_notes")::text, ("e"."customer_notes")::text, ("e"."response_notes")::text, "e"."expires_at", "e"."acceptance", "e"."responded_at", "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids"), json_build_array((select json_build_array(("r0"."uuid")::text, ("r0"."company_uuid")::text, "r0"."created_at", "r0"."updated_at", "r0"."deleted_at", ("r0"."name")::text, ("r0"."description")::text, ("r0"."pricing_type")::text, ("r0"."base_price")::text, ("r0"."tier_good")::text, ("r0"."tier_better")::text, ("r0"."tier_best")::text, "r0"."addons", ("r0"."tax_rate")::text, "r0"."external_ids") from "templates" as "r0" where "r0"."company_uuid" = e."company_uuid" and "r0"."uuid" = e."template_uuid")))
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select *
      from "estimates" as e
      where e."company_uuid" = ? and e."deleted_at" is null
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "rows";

-- list with its location
select (
  select coalesce(sum(kc.live), 0)::bigint
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'estimates') as "total", (
  select coalesce(json_agg(json_build_array(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."estimate_number")::text, ("e"."customer_uuid")::text, ("e"."job_uuid")::text, ("e"."template_uuid")::text, ("e"."location_uuid")::text, ("e"."created_by_user_id")::text, ("e"."status")::text, ("e"."template_name")::text, ("e"."pricing_type")::text, ("e"."selected_tier")::text, ("e"."base_amount")::text, ("e"."addons_amount")::text, ("e"."tax_amount")::text, ("e"."total_amount")::text, ("e"."quantity")::text, "e"."selected_addons", "e"."adjustments", "e"."pricing_snapshot", ("e"."service_description")::text, ("e"."internal_notes")::text, ("e"."customer_notes")::text, ("e"."response_notes")::text, "e"."expires_at", "e"."acceptance", "e"."responded_at", "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids"), json_build_array((select json_build_array(("r0"."uuid")::text, ("r0"."company_uuid")::text, "r0"."created_at", "r0"."updated_at", "r0"."deleted_at", ("r0"."name")::text, ("r0"."location_code")::text, ("r0"."address1")::text, ("r0"."address2")::text, ("r0"."city")::text, ("r0"."state")::text, ("r0"."zip")::text, ("r0"."phone")::text, ("r0"."timezone")::text, "r0"."business_hours", "r0"."default_tax_rules", "r0"."service_types_offered", ("r0"."default_pricing_set_uuid")::text, "r0"."is_primary", "r0"."is_active", "r0"."custom_fields", "r0"."custom_fields_hidden", "r0"."external_ids") from "locations" as "r0" where "r0"."company_uuid" = e."company_uuid" and "r0"."uuid" = e."location_uuid")))
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select *
      from "estimates" as e
      where e."company_uuid" = ? and e."deleted_at" is null
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "rows";

-- list with its createdBy
select (
  select coalesce(sum(kc.live), 0)::bigint
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'estimates') as "total", (
  select coalesce(json_agg(json_build_array(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."estimate_number")::text, ("e"."customer_uuid")::text, ("e"."job_uuid")::text, ("e"."template_uuid")::text, ("e"."location_uuid")::text, ("e"."created_by_user_id")::text, ("e"."status")::text, ("e"."template_name")::text, ("e"."pricing_type")::text, ("e"."selected_tier")::text, ("e"."base_amount")::text, ("e"."addons_amount")::text, ("e"."tax_amount")::text, ("e"."total_amount")::text, ("e"."quantity")::text, "e"."selected_addons", "e"."adjustments", "e"."pricing_snapshot", ("e"."service_description")::text, ("e"."internal_notes")::text, ("e"."customer_notes")::text, ("e"."response_notes")::text, "e"."expires_at", "e"."acceptance", "e"."responded_at", "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids"), json_build_array((select json_build_array(("r0"."id")::text, ("r0"."company_uuid")::text, ("r0"."first_name")::text, ("r0"."last_name")::text, ("r0"."email")::text, ("r0"."phone")::text, ("r0"."role")::text, "r0"."active", "r0"."created_at", "r0"."updated_at") from "users" as "r0" where "r0"."company_uuid" = e."company_uuid" and "r0"."id" = e."created_by_user_id")))
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select *
      from "estimates" as e
      where e."company_uuid" = ? and e."deleted_at" is null
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "rows";

-- list with its invoices by estimate
select (
  select coalesce(sum(kc.live), 0)::bigint
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'estimates') as "total", (
  select coalesce(json_agg(json_build_array(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."estimate_number")::text, ("e"."customer_uuid")::text, ("e"."job_uuid")::text, ("e"."template_uuid")::text, ("e"."location_uuid")::text, ("e"."created_by_user_id")::text, ("e"."status")::text, ("e"."template_name")::text, ("e"."pricing_type")::text, ("e"."selected_tier")::text, ("e"."base_amount")::text, ("e"."addons_amount")::text, ("e"."tax_amount")::text, ("e"."total_amount")::text, ("e"."quantity")::text, "e"."selected_addons", "e"."adjustments", "e"."pricing_snapshot", ("e"."service_description")::text, ("e"."internal_notes")::text, ("e"."customer_notes")::text, ("e"."response_notes")::text, "e"."expires_at", "e"."acceptance", "e"."responded_at", "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids"), json_build_array((select coalesce(json_agg(json_build_array(("r0"."uuid")::text, ("r0"."company_uuid")::text, "r0"."created_at", "r0"."updated_at", "r0"."deleted_at", ("r0"."invoice_number")::text, ("r0"."customer_uuid")::text, ("r0"."job_uuid")::text, ("r0"."estimate_uuid")::text, ("r0"."location_uuid")::text, ("r0"."recurring_invoice_uuid")::text, ("r0"."invoice_type")::text, ("r0"."progress_percentage")::text, ("r0"."issue_date")::text, ("r0"."due_date")::text, ("r0"."subtotal")::text, ("r0"."tax_amount")::text, ("r0"."discount_amount")::text, ("r0"."total_amount")::text, ("r0"."paid_amount")::text, ("r0"."balance_amount")::text, "r0"."line_items", ("r0"."notes")::text, ("r0"."terms")::text, ("r0"."internal_notes")::text, ("r0"."status")::text, ((select (now() at time zone coalesce((select l.timezone from locations l where l.company_uuid = "co".company_uuid and l.is_primary and l.deleted_at is null limit 1), 'America/New_York'))::date::text from (select ?::uuid as "company_uuid") as "co"))::text, "r0"."custom_fields", "r0"."custom_fields_hidden", "r0"."external_ids") order by "r0"."created_at" desc, "r0"."uuid" desc), '[]'::json) from "invoices" as "r0" where "r0"."company_uuid" = e."company_uuid" and "r0"."estimate_uuid" = e."uuid" and "r0"."deleted_at" is null)))
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select *
      from "estimates" as e
      where e."company_uuid" = ? and e."deleted_at" is null
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "rows";

-- load by uuid (the loaders; the keys one array)
select e."uuid", e."company_uuid", e."created_at", e."updated_at", e."deleted_at", e."estimate_number", e."customer_uuid", e."job_uuid", e."template_uuid", e."location_uuid", e."created_by_user_id", e."status", e."template_name", e."pricing_type", e."selected_tier", e."base_amount", e."addons_amount", e."tax_amount", e."total_amount", e."quantity", e."selected_addons", e."adjustments", e."pricing_snapshot", e."service_description", e."internal_notes", e."customer_notes", e."response_notes", e."expires_at", e."acceptance", e."responded_at", e."custom_fields", e."custom_fields_hidden", e."external_ids"
  from "estimates" as e
  where e."company_uuid" = ? and e."uuid" = any(?::uuid[]);

-- read one live record by uuid (readActive, GET of one record; the key a one-element array)
select e."uuid", e."company_uuid", e."created_at", e."updated_at", e."deleted_at", e."estimate_number", e."customer_uuid", e."job_uuid", e."template_uuid", e."location_uuid", e."created_by_user_id", e."status", e."template_name", e."pricing_type", e."selected_tier", e."base_amount", e."addons_amount", e."tax_amount", e."total_amount", e."quantity", e."selected_addons", e."adjustments", e."pricing_snapshot", e."service_description", e."internal_notes", e."customer_notes", e."response_notes", e."expires_at", e."acceptance", e."responded_at", e."custom_fields", e."custom_fields_hidden", e."external_ids"
  from "estimates" as e
  where e."company_uuid" = ? and e."uuid" = any(?::uuid[]) and e."deleted_at" is null
  order by e."created_at" desc, e."uuid" desc;

-- load the live rows by customer (relation lists; the keys one array)
select e."uuid", e."company_uuid", e."created_at", e."updated_at", e."deleted_at", e."estimate_number", e."customer_uuid", e."job_uuid", e."template_uuid", e."location_uuid", e."created_by_user_id", e."status", e."template_name", e."pricing_type", e."selected_tier", e."base_amount", e."addons_amount", e."tax_amount", e."total_amount", e."quantity", e."selected_addons", e."adjustments", e."pricing_snapshot", e."service_description", e."internal_notes", e."customer_notes", e."response_notes", e."expires_at", e."acceptance", e."responded_at", e."custom_fields", e."custom_fields_hidden", e."external_ids"
  from "estimates" as e
  where e."company_uuid" = ? and e."customer_uuid" = any(?::uuid[]) and e."deleted_at" is null
  order by e."created_at" desc, e."uuid" desc;

-- load the live rows by job (relation lists; the keys one array)
select e."uuid", e."company_uuid", e."created_at", e."updated_at", e."deleted_at", e."estimate_number", e."customer_uuid", e."job_uuid", e."template_uuid", e."location_uuid", e."created_by_user_id", e."status", e."template_name", e."pricing_type", e."selected_tier", e."base_amount", e."addons_amount", e."tax_amount", e."total_amount", e."quantity", e."selected_addons", e."adjustments", e."pricing_snapshot", e."service_description", e."internal_notes", e."customer_notes", e."response_notes", e."expires_at", e."acceptance", e."responded_at", e."custom_fields", e."custom_fields_hidden", e."external_ids"
  from "estimates" as e
  where e."company_uuid" = ? and e."job_uuid" = any(?::uuid[]) and e."deleted_at" is null
  order by e."created_at" desc, e."uuid" desc;

-- load the live rows by template (relation lists; the keys one array)
select e."uuid", e."company_uuid", e."created_at", e."updated_at", e."deleted_at", e."estimate_number", e."customer_uuid", e."job_uuid", e."template_uuid", e."location_uuid", e."created_by_user_id", e."status", e."template_name", e."pricing_type", e."selected_tier", e."base_amount", e."addons_amount", e."tax_amount", e."total_amount", e."quantity", e."selected_addons", e."adjustments", e."pricing_snapshot", e."service_description", e."internal_notes", e."customer_notes", e."response_notes", e."expires_at", e."acceptance", e."responded_at", e."custom_fields", e."custom_fields_hidden", e."external_ids"
  from "estimates" as e
  where e."company_uuid" = ? and e."template_uuid" = any(?::uuid[]) and e."deleted_at" is null
  order by e."created_at" desc, e."uuid" desc;

-- load the live rows by location (relation lists; the keys one array)
select e."uuid", e."company_uuid", e."created_at", e."updated_at", e."deleted_at", e."estimate_number", e."customer_uuid", e."job_uuid", e."template_uuid", e."location_uuid", e."created_by_user_id", e."status", e."template_name", e."pricing_type", e."selected_tier", e."base_amount", e."addons_amount", e."tax_amount", e."total_amount", e."quantity", e."selected_addons", e."adjustments", e."pricing_snapshot", e."service_description", e."internal_notes", e."customer_notes", e."response_notes", e."expires_at", e."acceptance", e."responded_at", e."custom_fields", e."custom_fields_hidden", e."external_ids"
  from "estimates" as e
  where e."company_uuid" = ? and e."location_uuid" = any(?::uuid[]) and e."deleted_at" is null
  order by e."created_at" desc, e."uuid" desc;

-- load the live rows by createdBy (relation lists; the keys one array)
select e."uuid", e."company_uuid", e."created_at", e."updated_at", e."deleted_at", e."estimate_number", e."customer_uuid", e."job_uuid", e."template_uuid", e."location_uuid", e."created_by_user_id", e."status", e."template_name", e."pricing_type", e."selected_tier", e."base_amount", e."addons_amount", e."tax_amount", e."total_amount", e."quantity", e."selected_addons", e."adjustments", e."pricing_snapshot", e."service_description", e."internal_notes", e."customer_notes", e."response_notes", e."expires_at", e."acceptance", e."responded_at", e."custom_fields", e."custom_fields_hidden", e."external_ids"
  from "estimates" as e
  where e."company_uuid" = ? and e."created_by_user_id" = any(?::uuid[]) and e."deleted_at" is null
  order by e."created_at" desc, e."uuid" desc;
