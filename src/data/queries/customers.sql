-- customers: every statement the read model runs on it (src/data/list.ts, src/data/keyed.ts), written by `npm run sql`.
-- Each ? is a parameter; the company's key is passed to every statement.

-- list: a page of the live rows, newest first, and their total
select (
  select coalesce(sum(kc.live), 0)::bigint
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'customers') as "total", (
  select coalesce(json_agg(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."first_name")::text, ("e"."last_name")::text, ("e"."company_name")::text, ("e"."email")::text, ("e"."phone")::text, ("e"."customer_type")::text, "e"."is_vip", ("e"."physical_address1")::text, ("e"."physical_address2")::text, ("e"."physical_city")::text, ("e"."physical_state")::text, ("e"."physical_zip")::text, ("e"."billing_address1")::text, ("e"."billing_address2")::text, ("e"."billing_city")::text, ("e"."billing_state")::text, ("e"."billing_zip")::text, ("e"."primary_service_location_uuid")::text, ("e"."notes")::text, "e"."internal_flags", ("e"."on_my_way_notify_via")::text, "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids", "e"."tags")
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select *
      from "customers" as e
      where e."company_uuid" = ? and e."deleted_at" is null
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "rows";

-- list with include_deleted: all the rows, and their total
select (
  select coalesce(sum(kc.all_rows), 0)::bigint
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'customers') as "total", (
  select coalesce(json_agg(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."first_name")::text, ("e"."last_name")::text, ("e"."company_name")::text, ("e"."email")::text, ("e"."phone")::text, ("e"."customer_type")::text, "e"."is_vip", ("e"."physical_address1")::text, ("e"."physical_address2")::text, ("e"."physical_city")::text, ("e"."physical_state")::text, ("e"."physical_zip")::text, ("e"."billing_address1")::text, ("e"."billing_address2")::text, ("e"."billing_city")::text, ("e"."billing_state")::text, ("e"."billing_zip")::text, ("e"."primary_service_location_uuid")::text, ("e"."notes")::text, "e"."internal_flags", ("e"."on_my_way_notify_via")::text, "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids", "e"."tags")
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select *
      from "customers" as e
      where e."company_uuid" = ?
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "rows";

-- list with a filter (`and (…)` after the conditions): the total counted, or remembered under the same change count (remembered-totals.ts)
select (case when "kv"."changes" = ?::bigint then ?::bigint when "p"."n" < ?::int and ("p"."n" > 0 or ?::int = 0) then ?::int + "p"."n" else (
    select count(*)
      from "customers" as e
      where e."company_uuid" = ? and e."deleted_at" is null) end) as "total", "kv"."changes"::text as "changes", "p"."rows"
  from (
  select coalesce(json_agg(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."first_name")::text, ("e"."last_name")::text, ("e"."company_name")::text, ("e"."email")::text, ("e"."phone")::text, ("e"."customer_type")::text, "e"."is_vip", ("e"."physical_address1")::text, ("e"."physical_address2")::text, ("e"."physical_city")::text, ("e"."physical_state")::text, ("e"."physical_zip")::text, ("e"."billing_address1")::text, ("e"."billing_address2")::text, ("e"."billing_city")::text, ("e"."billing_state")::text, ("e"."billing_zip")::text, ("e"."primary_service_location_uuid")::text, ("e"."notes")::text, "e"."internal_flags", ("e"."on_my_way_notify_via")::text, "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids", "e"."tags")
        order by e."created_at" desc, e."uuid" desc), '[]'::json) as "rows", count(*)::int as "n"
    from (
    select *
      from "customers" as e
      where e."company_uuid" = ? and e."deleted_at" is null
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "p", (
  select case when pg_current_xact_id_if_assigned() is null then coalesce(sum(kc.changes), 0)::bigint end as "changes"
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'customers') as "kv";

-- list, a page from row 1000 on (keys first, or from the row remembered there under the same change count (remembered-starts.ts))
select (
  select coalesce(sum(kc.live), 0)::bigint
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'customers') as "total", "kv"."changes"::text as "changes", (
  select coalesce(json_agg(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."first_name")::text, ("e"."last_name")::text, ("e"."company_name")::text, ("e"."email")::text, ("e"."phone")::text, ("e"."customer_type")::text, "e"."is_vip", ("e"."physical_address1")::text, ("e"."physical_address2")::text, ("e"."physical_city")::text, ("e"."physical_state")::text, ("e"."physical_zip")::text, ("e"."billing_address1")::text, ("e"."billing_address2")::text, ("e"."billing_city")::text, ("e"."billing_state")::text, ("e"."billing_zip")::text, ("e"."primary_service_location_uuid")::text, ("e"."notes")::text, "e"."internal_flags", ("e"."on_my_way_notify_via")::text, "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids", "e"."tags")
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from "customers" as e
    where e."uuid" = any(array((select e."uuid" from "customers" as e where (e."company_uuid" = ? and e."deleted_at" is null) and "kv"."changes" = ?::bigint and (e."created_at", e."uuid") <= (?::timestamptz(3), ?::uuid) order by e."created_at" desc, e."uuid" desc limit ? offset ?) union all (select e."uuid" from "customers" as e where (e."company_uuid" = ? and e."deleted_at" is null) and "kv"."changes" is distinct from ?::bigint order by e."created_at" desc, e."uuid" desc limit ? offset ?)))) as "rows"
  from (
  select case when pg_current_xact_id_if_assigned() is null then coalesce(sum(kc.changes), 0)::bigint end as "changes"
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'customers') as "kv";

-- list with its primaryServiceLocation
select (
  select coalesce(sum(kc.live), 0)::bigint
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'customers') as "total", (
  select coalesce(json_agg(json_build_array(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."first_name")::text, ("e"."last_name")::text, ("e"."company_name")::text, ("e"."email")::text, ("e"."phone")::text, ("e"."customer_type")::text, "e"."is_vip", ("e"."physical_address1")::text, ("e"."physical_address2")::text, ("e"."physical_city")::text, ("e"."physical_state")::text, ("e"."physical_zip")::text, ("e"."billing_address1")::text, ("e"."billing_address2")::text, ("e"."billing_city")::text, ("e"."billing_state")::text, ("e"."billing_zip")::text, ("e"."primary_service_location_uuid")::text, ("e"."notes")::text, "e"."internal_flags", ("e"."on_my_way_notify_via")::text, "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids", "e"."tags"), json_build_array((select json_build_array(("r0"."uuid")::text, ("r0"."company_uuid")::text, "r0"."created_at", "r0"."updated_at", "r0"."deleted_at", ("r0"."name")::text, ("r0"."location_code")::text, ("r0"."address1")::text, ("r0"."address2")::text, ("r0"."city")::text, ("r0"."state")::text, ("r0"."zip")::text, ("r0"."phone")::text, ("r0"."timezone")::text, "r0"."business_hours", "r0"."default_tax_rules", "r0"."service_types_offered", ("r0"."default_pricing_set_uuid")::text, "r0"."is_primary", "r0"."is_active", "r0"."custom_fields", "r0"."custom_fields_hidden", "r0"."external_ids") from "locations" as "r0" where "r0"."company_uuid" = e."company_uuid" and "r0"."uuid" = e."primary_service_location_uuid")))
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select *
      from "customers" as e
      where e."company_uuid" = ? and e."deleted_at" is null
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "rows";

-- list with its estimates by customer
select (
  select coalesce(sum(kc.live), 0)::bigint
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'customers') as "total", (
  select coalesce(json_agg(json_build_array(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."first_name")::text, ("e"."last_name")::text, ("e"."company_name")::text, ("e"."email")::text, ("e"."phone")::text, ("e"."customer_type")::text, "e"."is_vip", ("e"."physical_address1")::text, ("e"."physical_address2")::text, ("e"."physical_city")::text, ("e"."physical_state")::text, ("e"."physical_zip")::text, ("e"."billing_address1")::text, ("e"."billing_address2")::text, ("e"."billing_city")::text, ("e"."billing_state")::text, ("e"."billing_zip")::text, ("e"."primary_service_location_uuid")::text, ("e"."notes")::text, "e"."internal_flags", ("e"."on_my_way_notify_via")::text, "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids", "e"."tags"), json_build_array((select coalesce(json_agg(json_build_array(("r0"."uuid")::text, ("r0"."company_uuid")::text, "r0"."created_at", "r0"."updated_at", "r0"."deleted_at", ("r0"."estimate_number")::text, ("r0"."customer_uuid")::text, ("r0"."job_uuid")::text, ("r0"."template_uuid")::text, ("r0"."location_uuid")::text, ("r0"."created_by_user_id")::text, ("r0"."status")::text, ("r0"."template_name")::text, ("r0"."pricing_type")::text, ("r0"."selected_tier")::text, ("r0"."base_amount")::text, ("r0"."addons_amount")::text, ("r0"."tax_amount")::text, ("r0"."total_amount")::text, ("r0"."quantity")::text, "r0"."selected_addons", "r0"."adjustments", "r0"."pricing_snapshot", ("r0"."service_description")::text, ("r0"."internal_notes")::text, ("r0"."customer_notes")::text, ("r0"."response_notes")::text, "r0"."expires_at", "r0"."acceptance", "r0"."responded_at", "r0"."custom_fields", "r0"."custom_fields_hidden", "r0"."external_ids") order by "r0"."created_at" desc, "r0"."uuid" desc), '[]'::json) from "estimates" as "r0" where "r0"."company_uuid" = e."company_uuid" and "r0"."customer_uuid" = e."uuid" and "r0"."deleted_at" is null)))
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select *
      from "customers" as e
      where e."company_uuid" = ? and e."deleted_at" is null
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "rows";

-- list with its invoices by customer
select (
  select coalesce(sum(kc.live), 0)::bigint
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'customers') as "total", (
  select coalesce(json_agg(json_build_array(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."first_name")::text, ("e"."last_name")::text, ("e"."company_name")::text, ("e"."email")::text, ("e"."phone")::text, ("e"."customer_type")::text, "e"."is_vip", ("e"."physical_address1")::text, ("e"."physical_address2")::text, ("e"."physical_city")::text, ("e"."physical_state")::text, ("e"."physical_zip")::text, ("e"."billing_address1")::text, ("e"."billing_address2")::text, ("e"."billing_city")::text, ("e"."billing_state")::text, ("e"."billing_zip")::text, ("e"."primary_service_location_uuid")::text, ("e"."notes")::text, "e"."internal_flags", ("e"."on_my_way_notify_via")::text, "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids", "e"."tags"), json_build_array((select coalesce(json_agg(json_build_array(("r0"."uuid")::text, ("r0"."company_uuid")::text, "r0"."created_at", "r0"."updated_at", "r0"."deleted_at", ("r0"."invoice_number")::text, ("r0"."customer_uuid")::text, ("r0"."job_uuid")::text, ("r0"."estimate_uuid")::text, ("r0"."location_uuid")::text, ("r0"."recurring_invoice_uuid")::text, ("r0"."invoice_type")::text, ("r0"."progress_percentage")::text, ("r0"."issue_date")::text, ("r0"."due_date")::text, ("r0"."subtotal")::text, ("r0"."tax_amount")::text, ("r0"."discount_amount")::text, ("r0"."total_amount")::text, ("r0"."paid_amount")::text, ("r0"."balance_amount")::text, "r0"."line_items", ("r0"."notes")::text, ("r0"."terms")::text, ("r0"."internal_notes")::text, ("r0"."status")::text, ((select (now() at time zone coalesce((select l.timezone from locations l where l.company_uuid = "co".company_uuid and l.is_primary and l.deleted_at is null limit 1), 'America/New_York'))::date::text from (select ?::uuid as "company_uuid") as "co"))::text, "r0"."custom_fields", "r0"."custom_fields_hidden", "r0"."external_ids") order by "r0"."created_at" desc, "r0"."uuid" desc), '[]'::json) from "invoices" as "r0" where "r0"."company_uuid" = e."company_uuid" and "r0"."customer_uuid" = e."uuid" and "r0"."deleted_at" is null)))
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select *
      from "customers" as e
      where e."company_uuid" = ? and e."deleted_at" is null
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "rows";

-- list with its jobs by customer
select (
  select coalesce(sum(kc.live), 0)::bigint
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'customers') as "total", (
  select coalesce(json_agg(json_build_array(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."first_name")::text, ("e"."last_name")::text, ("e"."company_name")::text, ("e"."email")::text, ("e"."phone")::text, ("e"."customer_type")::text, "e"."is_vip", ("e"."physical_address1")::text, ("e"."physical_address2")::text, ("e"."physical_city")::text, ("e"."physical_state")::text, ("e"."physical_zip")::text, ("e"."billing_address1")::text, ("e"."billing_address2")::text, ("e"."billing_city")::text, ("e"."billing_state")::text, ("e"."billing_zip")::text, ("e"."primary_service_location_uuid")::text, ("e"."notes")::text, "e"."internal_flags", ("e"."on_my_way_notify_via")::text, "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids", "e"."tags"), json_build_array((select coalesce(json_agg(json_build_array(("r0"."uuid")::text, ("r0"."company_uuid")::text, "r0"."created_at", "r0"."updated_at", "r0"."deleted_at", ("r0"."job_number")::text, ("r0"."customer_uuid")::text, ("r0"."location_uuid")::text, ("r0"."assigned_to_user_id")::text, ("r0"."title")::text, ("r0"."description")::text, ("r0"."status")::text, ("r0"."priority")::text, "r0"."is_urgent", "r0"."is_emergency", ("r0"."service_address1")::text, ("r0"."service_address2")::text, ("r0"."service_city")::text, ("r0"."service_state")::text, ("r0"."service_zip")::text, ("r0"."estimated_amount")::text, ("r0"."actual_amount")::text, ("r0"."scheduled_date")::text, ("r0"."scheduled_time_start")::text, ("r0"."scheduled_time_end")::text, "r0"."started_at", "r0"."completed_at", "r0"."invoiced_at", "r0"."paid_at", ("r0"."internal_notes")::text, ("r0"."customer_notes")::text, "r0"."custom_fields", "r0"."custom_fields_hidden", "r0"."external_ids", "r0"."tags") order by "r0"."created_at" desc, "r0"."uuid" desc), '[]'::json) from "jobs" as "r0" where "r0"."company_uuid" = e."company_uuid" and "r0"."customer_uuid" = e."uuid" and "r0"."deleted_at" is null)))
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select *
      from "customers" as e
      where e."company_uuid" = ? and e."deleted_at" is null
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "rows";

-- list with its payments by customer
select (
  select coalesce(sum(kc.live), 0)::bigint
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'customers') as "total", (
  select coalesce(json_agg(json_build_array(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."first_name")::text, ("e"."last_name")::text, ("e"."company_name")::text, ("e"."email")::text, ("e"."phone")::text, ("e"."customer_type")::text, "e"."is_vip", ("e"."physical_address1")::text, ("e"."physical_address2")::text, ("e"."physical_city")::text, ("e"."physical_state")::text, ("e"."physical_zip")::text, ("e"."billing_address1")::text, ("e"."billing_address2")::text, ("e"."billing_city")::text, ("e"."billing_state")::text, ("e"."billing_zip")::text, ("e"."primary_service_location_uuid")::text, ("e"."notes")::text, "e"."internal_flags", ("e"."on_my_way_notify_via")::text, "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids", "e"."tags"), json_build_array((select coalesce(json_agg(json_build_array(("r0"."uuid")::text, ("r0"."company_uuid")::text, "r0"."created_at", "r0"."updated_at", "r0"."deleted_at", ("r0"."payment_number")::text, ("r0"."invoice_uuid")::text, ("r0"."customer_uuid")::text, ("r0"."payment_type")::text, ("r0"."payment_method")::text, ("r0"."amount")::text, ("r0"."processing_fee")::text, ("r0"."refunded_amount")::text, ("r0"."payment_date")::text, ("r0"."transaction_id")::text, ("r0"."reference_number")::text, ("r0"."authorization_code")::text, "r0"."payment_details", ("r0"."notes")::text, ("r0"."status")::text, "r0"."processed_at", ("r0"."created_by_user_id")::text, "r0"."external_ids") order by "r0"."created_at" desc, "r0"."uuid" desc), '[]'::json) from "payments" as "r0" where "r0"."company_uuid" = e."company_uuid" and "r0"."customer_uuid" = e."uuid" and "r0"."deleted_at" is null)))
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select *
      from "customers" as e
      where e."company_uuid" = ? and e."deleted_at" is null
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "rows";

-- list with its recurring_invoices by customer
select (
  select coalesce(sum(kc.live), 0)::bigint
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'customers') as "total", (
  select coalesce(json_agg(json_build_array(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."first_name")::text, ("e"."last_name")::text, ("e"."company_name")::text, ("e"."email")::text, ("e"."phone")::text, ("e"."customer_type")::text, "e"."is_vip", ("e"."physical_address1")::text, ("e"."physical_address2")::text, ("e"."physical_city")::text, ("e"."physical_state")::text, ("e"."physical_zip")::text, ("e"."billing_address1")::text, ("e"."billing_address2")::text, ("e"."billing_city")::text, ("e"."billing_state")::text, ("e"."billing_zip")::text, ("e"."primary_service_location_uuid")::text, ("e"."notes")::text, "e"."internal_flags", ("e"."on_my_way_notify_via")::text, "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids", "e"."tags"), json_build_array((select coalesce(json_agg(json_build_array(("r0"."uuid")::text, ("r0"."company_uuid")::text, "r0"."created_at", "r0"."updated_at", "r0"."deleted_at", ("r0"."customer_uuid")::text, ("r0"."location_uuid")::text, ("r0"."job_uuid")::text, ("r0"."rrule")::text, ("r0"."starts_on")::text, ("r0"."timezone")::text, "r0"."line_items", ("r0"."discount_amount")::text, ("r0"."notes")::text, ("r0"."terms")::text, "r0"."due_days", "r0"."auto_send", ("r0"."status")::text, ("r0"."next_issue_date")::text, "r0"."last_issued_at", "r0"."invoices_count") order by "r0"."created_at" desc, "r0"."uuid" desc), '[]'::json) from "recurring_invoices" as "r0" where "r0"."company_uuid" = e."company_uuid" and "r0"."customer_uuid" = e."uuid" and "r0"."deleted_at" is null)))
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select *
      from "customers" as e
      where e."company_uuid" = ? and e."deleted_at" is null
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "rows";

-- a technician's list: a page of the live rows in their reach (reach.ts), and their total, counted
select case when "p"."n" < ?::int and ("p"."n" > 0 or ?::int = 0) then ?::int + "p"."n" else (
  select count(*)
    from "customers" as e
    where e."company_uuid" = ? and e."deleted_at" is null and e."uuid" = any(array(
      select "rc"."customer_uuid"
        from "jobs" as "rc"
        where "rc"."uuid" = any(array(select "rj"."job_uuid" from "job_reach" as "rj" where "rj"."company_uuid" = ?::uuid and "rj"."user_id" = ?::uuid))))) end as "total", "p"."rows"
  from (
  select coalesce(json_agg(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."first_name")::text, ("e"."last_name")::text, ("e"."company_name")::text, ("e"."email")::text, ("e"."phone")::text, ("e"."customer_type")::text, "e"."is_vip", ("e"."physical_address1")::text, ("e"."physical_address2")::text, ("e"."physical_city")::text, ("e"."physical_state")::text, ("e"."physical_zip")::text, ("e"."billing_address1")::text, ("e"."billing_address2")::text, ("e"."billing_city")::text, ("e"."billing_state")::text, ("e"."billing_zip")::text, ("e"."primary_service_location_uuid")::text, ("e"."notes")::text, "e"."internal_flags", ("e"."on_my_way_notify_via")::text, "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids", "e"."tags")
        order by e."created_at" desc, e."uuid" desc), '[]'::json) as "rows", count(*)::int as "n"
    from (
    select *
      from "customers" as e
      where e."company_uuid" = ? and e."deleted_at" is null and e."uuid" = any(array(select "rc"."customer_uuid" from "jobs" as "rc" where "rc"."uuid" = any(array(select "rj"."job_uuid" from "job_reach" as "rj" where "rj"."company_uuid" = ?::uuid and "rj"."user_id" = ?::uuid))))
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "p";

-- a technician's list with its primaryServiceLocation, in their reach too
select case when "p"."n" < ?::int and ("p"."n" > 0 or ?::int = 0) then ?::int + "p"."n" else (
  select count(*)
    from "customers" as e
    where e."company_uuid" = ? and e."deleted_at" is null and e."uuid" = any(array(
      select "rc"."customer_uuid"
        from "jobs" as "rc"
        where "rc"."uuid" = any(array(select "rj"."job_uuid" from "job_reach" as "rj" where "rj"."company_uuid" = ?::uuid and "rj"."user_id" = ?::uuid))))) end as "total", "p"."rows"
  from (
  select coalesce(json_agg(json_build_array(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."first_name")::text, ("e"."last_name")::text, ("e"."company_name")::text, ("e"."email")::text, ("e"."phone")::text, ("e"."customer_type")::text, "e"."is_vip", ("e"."physical_address1")::text, ("e"."physical_address2")::text, ("e"."physical_city")::text, ("e"."physical_state")::text, ("e"."physical_zip")::text, ("e"."billing_address1")::text, ("e"."billing_address2")::text, ("e"."billing_city")::text, ("e"."billing_state")::text, ("e"."billing_zip")::text, ("e"."primary_service_location_uuid")::text, ("e"."notes")::text, "e"."internal_flags", ("e"."on_my_way_notify_via")::text, "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids", "e"."tags"), json_build_array((select json_build_array(("r0"."uuid")::text, ("r0"."company_uuid")::text, "r0"."created_at", "r0"."updated_at", "r0"."deleted_at", ("r0"."name")::text, ("r0"."location_code")::text, ("r0"."address1")::text, ("r0"."address2")::text, ("r0"."city")::text, ("r0"."state")::text, ("r0"."zip")::text, ("r0"."phone")::text, ("r0"."timezone")::text, "r0"."business_hours", "r0"."default_tax_rules", "r0"."service_types_offered", ("r0"."default_pricing_set_uuid")::text, "r0"."is_primary", "r0"."is_active", "r0"."custom_fields", "r0"."custom_fields_hidden", "r0"."external_ids") from "locations" as "r0" where "r0"."company_uuid" = e."company_uuid" and "r0"."uuid" = any(array(select "rl"."location_uuid" from "jobs" as "rl" where "rl"."uuid" = any(array(select "rj"."job_uuid" from "job_reach" as "rj" where "rj"."company_uuid" = ?::uuid and "rj"."user_id" = ?::uuid)) and "rl"."location_uuid" is not null)) and "r0"."uuid" = e."primary_service_location_uuid")))
        order by e."created_at" desc, e."uuid" desc), '[]'::json) as "rows", count(*)::int as "n"
    from (
    select *
      from "customers" as e
      where e."company_uuid" = ? and e."deleted_at" is null and e."uuid" = any(array(select "rc"."customer_uuid" from "jobs" as "rc" where "rc"."uuid" = any(array(select "rj"."job_uuid" from "job_reach" as "rj" where "rj"."company_uuid" = ?::uuid and "rj"."user_id" = ?::uuid))))
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "p";

-- a technician's list with its jobs by customer, in their reach too
select case when "p"."n" < ?::int and ("p"."n" > 0 or ?::int = 0) then ?::int + "p"."n" else (
  select count(*)
    from "customers" as e
    where e."company_uuid" = ? and e."deleted_at" is null and e."uuid" = any(array(
      select "rc"."customer_uuid"
        from "jobs" as "rc"
        where "rc"."uuid" = any(array(select "rj"."job_uuid" from "job_reach" as "rj" where "rj"."company_uuid" = ?::uuid and "rj"."user_id" = ?::uuid))))) end as "total", "p"."rows"
  from (
  select coalesce(json_agg(json_build_array(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."first_name")::text, ("e"."last_name")::text, ("e"."company_name")::text, ("e"."email")::text, ("e"."phone")::text, ("e"."customer_type")::text, "e"."is_vip", ("e"."physical_address1")::text, ("e"."physical_address2")::text, ("e"."physical_city")::text, ("e"."physical_state")::text, ("e"."physical_zip")::text, ("e"."billing_address1")::text, ("e"."billing_address2")::text, ("e"."billing_city")::text, ("e"."billing_state")::text, ("e"."billing_zip")::text, ("e"."primary_service_location_uuid")::text, ("e"."notes")::text, "e"."internal_flags", ("e"."on_my_way_notify_via")::text, "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids", "e"."tags"), json_build_array((select coalesce(json_agg(json_build_array(("r0"."uuid")::text, ("r0"."company_uuid")::text, "r0"."created_at", "r0"."updated_at", "r0"."deleted_at", ("r0"."job_number")::text, ("r0"."customer_uuid")::text, ("r0"."location_uuid")::text, ("r0"."assigned_to_user_id")::text, ("r0"."title")::text, ("r0"."description")::text, ("r0"."status")::text, ("r0"."priority")::text, "r0"."is_urgent", "r0"."is_emergency", ("r0"."service_address1")::text, ("r0"."service_address2")::text, ("r0"."service_city")::text, ("r0"."service_state")::text, ("r0"."service_zip")::text, ("r0"."estimated_amount")::text, ("r0"."actual_amount")::text, ("r0"."scheduled_date")::text, ("r0"."scheduled_time_start")::text, ("r0"."scheduled_time_end")::text, "r0"."started_at", "r0"."completed_at", "r0"."invoiced_at", "r0"."paid_at", ("r0"."internal_notes")::text, ("r0"."customer_notes")::text, "r0"."custom_fields", "r0"."custom_fields_hidden", "r0"."external_ids", "r0"."tags") order by "r0"."created_at" desc, "r0"."uuid" desc), '[]'::json) from "jobs" as "r0" where "r0"."company_uuid" = e."company_uuid" and "r0"."uuid" = any(array(select "rj"."job_uuid" from "job_reach" as "rj" where "rj"."company_uuid" = ?::uuid and "rj"."user_id" = ?::uuid)) and "r0"."customer_uuid" = e."uuid" and "r0"."deleted_at" is null)))
        order by e."created_at" desc, e."uuid" desc), '[]'::json) as "rows", count(*)::int as "n"
    from (
    select *
      from "customers" as e
      where e."company_uuid" = ? and e."deleted_at" is null and e."uuid" = any(array(select "rc"."customer_uuid" from "jobs" as "rc" where "rc"."uuid" = any(array(select "rj"."job_uuid" from "job_reach" as "rj" where "rj"."company_uuid" = ?::uuid and "rj"."user_id" = ?::uuid))))
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "p";

-- a technician's load by uuid, in their reach (the loaders; the keys one array, then the reach's)
select e."uuid", e."company_uuid", e."created_at", e."updated_at", e."deleted_at", e."first_name", e."last_name", e."company_name", e."email", e."phone", e."customer_type", e."is_vip", e."physical_address1", e."physical_address2", e."physical_city", e."physical_state", e."physical_zip", e."billing_address1", e."billing_address2", e."billing_city", e."billing_state", e."billing_zip", e."primary_service_location_uuid", e."notes", e."internal_flags", e."on_my_way_notify_via", e."custom_fields", e."custom_fields_hidden", e."external_ids", e."tags"
  from "customers" as e
  where e."company_uuid" = ? and e."uuid" = any(?::uuid[]) and e."uuid" = any(array(
    select "rc"."customer_uuid"
      from "jobs" as "rc"
      where "rc"."uuid" = any(array(select "rj"."job_uuid" from "job_reach" as "rj" where "rj"."company_uuid" = ?::uuid and "rj"."user_id" = ?::uuid))));

-- a technician's read of one live record by uuid, in their reach (readActive)
select e."uuid", e."company_uuid", e."created_at", e."updated_at", e."deleted_at", e."first_name", e."last_name", e."company_name", e."email", e."phone", e."customer_type", e."is_vip", e."physical_address1", e."physical_address2", e."physical_city", e."physical_state", e."physical_zip", e."billing_address1", e."billing_address2", e."billing_city", e."billing_state", e."billing_zip", e."primary_service_location_uuid", e."notes", e."internal_flags", e."on_my_way_notify_via", e."custom_fields", e."custom_fields_hidden", e."external_ids", e."tags"
  from "customers" as e
  where e."company_uuid" = ? and e."uuid" = any(?::uuid[]) and e."uuid" = any(array(
    select "rc"."customer_uuid"
      from "jobs" as "rc"
      where "rc"."uuid" = any(array(select "rj"."job_uuid" from "job_reach" as "rj" where "rj"."company_uuid" = ?::uuid and "rj"."user_id" = ?::uuid)))) and e."deleted_at" is null
  order by e."created_at" desc, e."uuid" desc;

-- a technician's load of the live rows by primaryServiceLocation, in their reach (relation lists)
select e."uuid", e."company_uuid", e."created_at", e."updated_at", e."deleted_at", e."first_name", e."last_name", e."company_name", e."email", e."phone", e."customer_type", e."is_vip", e."physical_address1", e."physical_address2", e."physical_city", e."physical_state", e."physical_zip", e."billing_address1", e."billing_address2", e."billing_city", e."billing_state", e."billing_zip", e."primary_service_location_uuid", e."notes", e."internal_flags", e."on_my_way_notify_via", e."custom_fields", e."custom_fields_hidden", e."external_ids", e."tags"
  from "customers" as e
  where e."company_uuid" = ? and e."primary_service_location_uuid" = any(?::uuid[]) and e."uuid" = any(array(
    select "rc"."customer_uuid"
      from "jobs" as "rc"
      where "rc"."uuid" = any(array(select "rj"."job_uuid" from "job_reach" as "rj" where "rj"."company_uuid" = ?::uuid and "rj"."user_id" = ?::uuid)))) and e."deleted_at" is null
  order by e."created_at" desc, e."uuid" desc;

-- load by uuid (the loaders; the keys one array)
select e."uuid", e."company_uuid", e."created_at", e."updated_at", e."deleted_at", e."first_name", e."last_name", e."company_name", e."email", e."phone", e."customer_type", e."is_vip", e."physical_address1", e."physical_address2", e."physical_city", e."physical_state", e."physical_zip", e."billing_address1", e."billing_address2", e."billing_city", e."billing_state", e."billing_zip", e."primary_service_location_uuid", e."notes", e."internal_flags", e."on_my_way_notify_via", e."custom_fields", e."custom_fields_hidden", e."external_ids", e."tags"
  from "customers" as e
  where e."company_uuid" = ? and e."uuid" = any(?::uuid[]);

-- read one live record by uuid (readActive, GET of one record; the key a one-element array)
select e."uuid", e."company_uuid", e."created_at", e."updated_at", e."deleted_at", e."first_name", e."last_name", e."company_name", e."email", e."phone", e."customer_type", e."is_vip", e."physical_address1", e."physical_address2", e."physical_city", e."physical_state", e."physical_zip", e."billing_address1", e."billing_address2", e."billing_city", e."billing_state", e."billing_zip", e."primary_service_location_uuid", e."notes", e."internal_flags", e."on_my_way_notify_via", e."custom_fields", e."custom_fields_hidden", e."external_ids", e."tags"
  from "customers" as e
  where e."company_uuid" = ? and e."uuid" = any(?::uuid[]) and e."deleted_at" is null
  order by e."created_at" desc, e."uuid" desc;

-- load the live rows by primaryServiceLocation (relation lists; the keys one array)
select e."uuid", e."company_uuid", e."created_at", e."updated_at", e."deleted_at", e."first_name", e."last_name", e."company_name", e."email", e."phone", e."customer_type", e."is_vip", e."physical_address1", e."physical_address2", e."physical_city", e."physical_state", e."physical_zip", e."billing_address1", e."billing_address2", e."billing_city", e."billing_state", e."billing_zip", e."primary_service_location_uuid", e."notes", e."internal_flags", e."on_my_way_notify_via", e."custom_fields", e."custom_fields_hidden", e."external_ids", e."tags"
  from "customers" as e
  where e."company_uuid" = ? and e."primary_service_location_uuid" = any(?::uuid[]) and e."deleted_at" is null
  order by e."created_at" desc, e."uuid" desc;
