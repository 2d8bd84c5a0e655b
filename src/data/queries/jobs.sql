-- jobs: every statement the read model runs on it (src/data/list.ts, src/data/keyed.ts), written by `npm run sql`.
-- Each ? is a parameter; the company's key is passed to every statement.

-- list: a page of the live rows, newest first, and their total
select (
  select coalesce(sum(kc.live), 0)::bigint
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'jobs') as "total", (
  select coalesce(json_agg(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."job_number")::text, ("e"."customer_uuid")::text, ("e"."location_uuid")::text, ("e"."assigned_to_user_id")::text, ("e"."title")::text, ("e"."description")::text, ("e"."status")::text, ("e"."priority")::text, "e"."is_urgent", "e"."is_emergency", ("e"."service_address1")::text, ("e"."service_address2")::text, ("e"."service_city")::text, ("e"."service_state")::text, ("e"."service_zip")::text, ("e"."estimated_amount")::text, ("e"."actual_amount")::text, ("e"."scheduled_date")::text, ("e"."scheduled_time_start")::text, ("e"."scheduled_time_end")::text, "e"."started_at", "e"."completed_at", "e"."invoiced_at", "e"."paid_at", ("e"."internal_notes")::text, ("e"."customer_notes")::text, "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids", "e"."tags")
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select *
      from "jobs" as e
      where e."company_uuid" = ? and e."deleted_at" is null
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "rows";

-- list with include_deleted: all the rows, and their total
select (
  select coalesce(sum(kc.all_rows), 0)::bigint
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'jobs') as "total", (
  select coalesce(json_agg(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."job_number")::text, ("e"."customer_uuid")::text, ("e"."location_uuid")::text, ("e"."assigned_to_user_id")::text, ("e"."title")::text, ("e"."description")::text, ("e"."status")::text, ("e"."priority")::text, "e"."is_urgent", "e"."is_emergency", ("e"."service_address1")::text, ("e"."service_address2")::text, ("e"."service_city")::text, ("e"."service_state")::text, ("e"."service_zip")::text, ("e"."estimated_amount")::text, ("e"."actual_amount")::text, ("e"."scheduled_date")::text, ("e"."scheduled_time_start")::text, ("e"."scheduled_time_end")::text, "e"."started_at", "e"."completed_at", "e"."invoiced_at", "e"."paid_at", ("e"."internal_notes")::text, ("e"."customer_notes")::text, "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids", "e"."tags")
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select *
      from "jobs" as e
      where e."company_uuid" = ?
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "rows";

-- list with a filter (`and (…)` after the conditions): the total counted
select case when "p"."n" < ?::int and ("p"."n" > 0 or ?::int = 0) then ?::int + "p"."n" else (
  select count(*)
    from "jobs" as e
    where e."company_uuid" = ? and e."deleted_at" is null) end as "total", "p"."rows"
  from (
  select coalesce(json_agg(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."job_number")::text, ("e"."customer_uuid")::text, ("e"."location_uuid")::text, ("e"."assigned_to_user_id")::text, ("e"."title")::text, ("e"."description")::text, ("e"."status")::text, ("e"."priority")::text, "e"."is_urgent", "e"."is_emergency", ("e"."service_address1")::text, ("e"."service_address2")::text, ("e"."service_city")::text, ("e"."service_state")::text, ("e"."service_zip")::text, ("e"."estimated_amount")::text, ("e"."actual_amount")::text, ("e"."scheduled_date")::text, ("e"."scheduled_time_start")::text, ("e"."scheduled_time_end")::text, "e"."started_at", "e"."completed_at", "e"."invoiced_at", "e"."paid_at", ("e"."internal_notes")::text, ("e"."customer_notes")::text, "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids", "e"."tags")
        order by e."created_at" desc, e."uuid" desc), '[]'::json) as "rows", count(*)::int as "n"
    from (
    select *
      from "jobs" as e
      where e."company_uuid" = ? and e."deleted_at" is null
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "p";

-- list, a page from row 1000 on (keys first, or from the row remembered there under the same change count (remembered-starts.ts))
select (
  select coalesce(sum(kc.live), 0)::bigint
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'jobs') as "total", "kv"."changes"::text as "changes", (
  select coalesce(json_agg(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."job_number")::text, ("e"."customer_uuid")::text, ("e"."location_uuid")::text, ("e"."assigned_to_user_id")::text, ("e"."title")::text, ("e"."description")::text, ("e"."status")::text, ("e"."priority")::text, "e"."is_urgent", "e"."is_emergency", ("e"."service_address1")::text, ("e"."service_address2")::text, ("e"."service_city")::text, ("e"."service_state")::text, ("e"."service_zip")::text, ("e"."estimated_amount")::text, ("e"."actual_amount")::text, ("e"."scheduled_date")::text, ("e"."scheduled_time_start")::text, ("e"."scheduled_time_end")::text, "e"."started_at", "e"."completed_at", "e"."invoiced_at", "e"."paid_at", ("e"."internal_notes")::text, ("e"."customer_notes")::text, "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids", "e"."tags")
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from "jobs" as e
    where e."uuid" = any(array((select e."uuid" from "jobs" as e where (e."company_uuid" = ? and e."deleted_at" is null) and "kv"."changes" = ?::bigint and (e."created_at", e."uuid") <= (?::timestamptz(3), ?::uuid) order by e."created_at" desc, e."uuid" desc limit ? offset ?) union all (select e."uuid" from "jobs" as e where (e."company_uuid" = ? and e."deleted_at" is null) and "kv"."changes" is distinct from ?::bigint order by e."created_at" desc, e."uuid" desc limit ? offset ?)))) as "rows"
  from (
  select case when pg_current_xact_id_if_assigned() is null then coalesce(sum(kc.changes), 0)::bigint end as "changes"
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'jobs') as "kv";

-- list with its customer
select (
  select coalesce(sum(kc.live), 0)::bigint
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'jobs') as "total", (
  select coalesce(json_agg(json_build_array(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."job_number")::text, ("e"."customer_uuid")::text, ("e"."location_uuid")::text, ("e"."assigned_to_user_id")::text, ("e"."title")::text, ("e"."description")::text, ("e"."status")::text, ("e"."priority")::text, "e"."is_urgent", "e"."is_emergency", ("e"."service_address1")::text, ("e"."service_address2")::text, ("e"."service_city")::text, ("e"."service_state")::text, ("e"."service_zip")::text, ("e"."estimated_amount")::text, ("e"."actual_amount")::text, ("e"."scheduled_date")::text, ("e"."scheduled_time_start")::text, ("e"."scheduled_time_end")::text, "e"."started_at", "e"."completed_at", "e"."invoiced_at", "e"."paid_at", ("e"."internal_notes")::text, ("e"."customer_notes")::text, "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids", "e"."tags"), json_build_array((select json_build_array(("r0"."uuid")::text, ("r0"."company_uuid")::text, "r0"."created_at", "r0"."updated_at", "r0"."deleted_at", ("r0"."first_name")::text, ("r0"."last_name")::text, ("r0"."company_name")::text, ("r0"."email")::text, ("r0"."phone")::text, ("r0"."customer_type")::text, "r0"."is_vip", ("r0"."physical_address1")::text, ("r0"."physical_address2")::text, ("r0"."physical_city")::text, ("r0"."physical_state")::text, ("r0"."physical_zip")::text, ("r0"."billing_address1")::text, ("r0"."billing_address2")::text, ("r0"."billing_city")::text, ("r0"."billing_state")::text, ("r0"."billing_zip")::text, ("r0"."primary_service_location_uuid")::text, ("r0"."notes")::text, "r0"."internal_flags", ("r0"."on_my_way_notify_via")::text, "r0"."custom_fields", "r0"."custom_fields_hidden", "r0"."external_ids", "r0"."tags") from "customers" as "r0" where "r0"."company_uuid" = e."company_uuid" and "r0"."uuid" = e."customer_uuid")))
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select *
      from "jobs" as e
      where e."company_uuid" = ? and e."deleted_at" is null
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "rows";

-- list with its location
select (
  select coalesce(sum(kc.live), 0)::bigint
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'jobs') as "total", (
  select coalesce(json_agg(json_build_array(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."job_number")::text, ("e"."customer_uuid")::text, ("e"."location_uuid")::text, ("e"."assigned_to_user_id")::text, ("e"."title")::text, ("e"."description")::text, ("e"."status")::text, ("e"."priority")::text, "e"."is_urgent", "e"."is_emergency", ("e"."service_address1")::text, ("e"."service_address2")::text, ("e"."service_city")::text, ("e"."service_state")::text, ("e"."service_zip")::text, ("e"."estimated_amount")::text, ("e"."actual_amount")::text, ("e"."scheduled_date")::text, ("e"."scheduled_time_start")::text, ("e"."scheduled_time_end")::text, "e"."started_at", "e"."completed_at", "e"."invoiced_at", "e"."paid_at", ("e"."internal_notes")::text, ("e"."customer_notes")::text, "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids", "e"."tags"), json_build_array((select json_build_array(("r0"."uuid")::text, ("r0"."company_uuid")::text, "r0"."created_at", "r0"."updated_at", "r0"."deleted_at", ("r0"."name")::text, ("r0"."location_code")::text, ("r0"."address1")::text, ("r0"."address2")::text, ("r0"."city")::text, ("r0"."state")::text, ("r0"."zip")::text, ("r0"."phone")::text, ("r0"."timezone")::text, "r0"."business_hours", "r0"."default_tax_rules", "r0"."service_types_offered", ("r0"."default_pricing_set_uuid")::text, "r0"."is_primary", "r0"."is_active", "r0"."custom_fields", "r0"."custom_fields_hidden", "r0"."external_ids") from "locations" as "r0" where "r0"."company_uuid" = e."company_uuid" and "r0"."uuid" = e."location_uuid")))
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select *
      from "jobs" as e
      where e."company_uuid" = ? and e."deleted_at" is null
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "rows";

-- list with its assignedTo
select (
  select coalesce(sum(kc.live), 0)::bigint
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'jobs') as "total", (
  select coalesce(json_agg(json_build_array(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."job_number")::text, ("e"."customer_uuid")::text, ("e"."location_uuid")::text, ("e"."assigned_to_user_id")::text, ("e"."title")::text, ("e"."description")::text, ("e"."status")::text, ("e"."priority")::text, "e"."is_urgent", "e"."is_emergency", ("e"."service_address1")::text, ("e"."service_address2")::text, ("e"."service_city")::text, ("e"."service_state")::text, ("e"."service_zip")::text, ("e"."estimated_amount")::text, ("e"."actual_amount")::text, ("e"."scheduled_date")::text, ("e"."scheduled_time_start")::text, ("e"."scheduled_time_end")::text, "e"."started_at", "e"."completed_at", "e"."invoiced_at", "e"."paid_at", ("e"."internal_notes")::text, ("e"."customer_notes")::text, "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids", "e"."tags"), json_build_array((select json_build_array(("r0"."id")::text, ("r0"."company_uuid")::text, ("r0"."first_name")::text, ("r0"."last_name")::text, ("r0"."email")::text, ("r0"."phone")::text, ("r0"."role")::text, "r0"."active", "r0"."created_at", "r0"."updated_at") from "users" as "r0" where "r0"."company_uuid" = e."company_uuid" and "r0"."id" = e."assigned_to_user_id")))
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select *
      from "jobs" as e
      where e."company_uuid" = ? and e."deleted_at" is null
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "rows";

-- list with its estimates by job
select (
  select coalesce(sum(kc.live), 0)::bigint
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'jobs') as "total", (
  select coalesce(json_agg(json_build_array(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."job_number")::text, ("e"."customer_uuid")::text, ("e"."location_uuid")::text, ("e"."assigned_to_user_id")::text, ("e"."title")::text, ("e"."description")::text, ("e"."status")::text, ("e"."priority")::text, "e"."is_urgent", "e"."is_emergency", ("e"."service_address1")::text, ("e"."service_address2")::text, ("e"."service_city")::text, ("e"."service_state")::text, ("e"."service_zip")::text, ("e"."estimated_amount")::text, ("e"."actual_amount")::text, ("e"."scheduled_date")::text, ("e"."scheduled_time_start")::text, ("e"."scheduled_time_end")::text, "e"."started_at", "e"."completed_at", "e"."invoiced_at", "e"."paid_at", ("e"."internal_notes")::text, ("e"."customer_notes")::text, "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids", "e"."tags"), json_build_array((select coalesce(json_agg(json_build_array(("r0"."uuid")::text, ("r0"."company_uuid")::text, "r0"."created_at", "r0"."updated_at", "r0"."deleted_at", ("r0"."estimate_number")::text, ("r0"."customer_uuid")::text, ("r0"."job_uuid")::text, ("r0"."template_uuid")::text, ("r0"."location_uuid")::text, ("r0"."created_by_user_id")::text, ("r0"."status")::text, ("r0"."template_name")::text, ("r0"."pricing_type")::text, ("r0"."selected_tier")::text, ("r0"."base_amount")::text, ("r0"."addons_amount")::text, ("r0"."tax_amount")::text, ("r0"."total_amount")::text, ("r0"."quantity")::text, "r0"."selected_addons", "r0"."adjustments", "r0"."pricing_snapshot", ("r0"."service_description")::text, ("r0"."internal_notes")::text, ("r0"."customer_notes")::text, ("r0"."response_notes")::text, "r0"."expires_at", "r0"."acceptance", "r0"."responded_at", "r0"."custom_fields", "r0"."custom_fields_hidden", "r0"."external_ids") order by "r0"."created_at" desc, "r0"."uuid" desc), '[]'::json) from "estimates" as "r0" where "r0"."company_uuid" = e."company_uuid" and "r0"."job_uuid" = e."uuid" and "r0"."deleted_at" is null)))
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select *
      from "jobs" as e
      where e."company_uuid" = ? and e."deleted_at" is null
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "rows";

-- list with its invoices by job
select (
  select coalesce(sum(kc.live), 0)::bigint
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'jobs') as "total", (
  select coalesce(json_agg(json_build_array(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."job_number")::text, ("e"."customer_uuid")::text, ("e"."location_uuid")::text, ("e"."assigned_to_user_id")::text, ("e"."title")::text, ("e"."description")::text, ("e"."status")::text, ("e"."priority")::text, "e"."is_urgent", "e"."is_emergency", ("e"."service_address1")::text, ("e"."service_address2")::text, ("e"."service_city")::text, ("e"."service_state")::text, ("e"."service_zip")::text, ("e"."estimated_amount")::text, ("e"."actual_amount")::text, ("e"."scheduled_date")::text, ("e"."scheduled_time_start")::text, ("e"."scheduled_time_end")::text, "e"."started_at", "e"."completed_at", "e"."invoiced_at", "e"."paid_at", ("e"."internal_notes")::text, ("e"."customer_notes")::text, "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids", "e"."tags"), json_build_array((select coalesce(json_agg(json_build_array(("r0"."uuid")::text, ("r0"."company_uuid")::text, "r0"."created_at", "r0"."updated_at", "r0"."deleted_at", ("r0"."invoice_number")::text, ("r0"."customer_uuid")::text, ("r0"."job_uuid")::text, ("r0"."estimate_uuid")::text, ("r0"."location_uuid")::text, ("r0"."recurring_invoice_uuid")::text, ("r0"."invoice_type")::text, ("r0"."progress_percentage")::text, ("r0"."issue_date")::text, ("r0"."due_date")::text, ("r0"."subtotal")::text, ("r0"."tax_amount")::text, ("r0"."discount_amount")::text, ("r0"."total_amount")::text, ("r0"."paid_amount")::text, ("r0"."balance_amount")::text, "r0"."line_items", ("r0"."notes")::text, ("r0"."terms")::text, ("r0"."internal_notes")::text, ("r0"."status")::text, ((select (now() at time zone coalesce((select l.timezone from locations l where l.company_uuid = "co".company_uuid and l.is_primary and l.deleted_at is null limit 1), 'America/New_York'))::date::text from (select ?::uuid as "company_uuid") as "co"))::text, "r0"."custom_fields", "r0"."custom_fields_hidden", "r0"."external_ids") order by "r0"."created_at" desc, "r0"."uuid" desc), '[]'::json) from "invoices" as "r0" where "r0"."company_uuid" = e."company_uuid" and "r0"."job_uuid" = e."uuid" and "r0"."deleted_at" is null)))
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select *
      from "jobs" as e
      where e."company_uuid" = ? and e."deleted_at" is null
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "rows";

-- list with its job_photos by job
select (
  select coalesce(sum(kc.live), 0)::bigint
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'jobs') as "total", (
  select coalesce(json_agg(json_build_array(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."job_number")::text, ("e"."customer_uuid")::text, ("e"."location_uuid")::text, ("e"."assigned_to_user_id")::text, ("e"."title")::text, ("e"."description")::text, ("e"."status")::text, ("e"."priority")::text, "e"."is_urgent", "e"."is_emergency", ("e"."service_address1")::text, ("e"."service_address2")::text, ("e"."service_city")::text, ("e"."service_state")::text, ("e"."service_zip")::text, ("e"."estimated_amount")::text, ("e"."actual_amount")::text, ("e"."scheduled_date")::text, ("e"."scheduled_time_start")::text, ("e"."scheduled_time_end")::text, "e"."started_at", "e"."completed_at", "e"."invoiced_at", "e"."paid_at", ("e"."internal_notes")::text, ("e"."customer_notes")::text, "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids", "e"."tags"), json_build_array((select coalesce(json_agg(json_build_array(("r0"."uuid")::text, ("r0"."company_uuid")::text, "r0"."created_at", "r0"."updated_at", "r0"."deleted_at", ("r0"."job_uuid")::text, ("r0"."user_id")::text, ("r0"."storage_key")::text, ("r0"."storage_backend")::text, ("r0"."photo_type")::text, ("r0"."file_name")::text, "r0"."file_size", ("r0"."mime_type")::text, "r0"."taken_at", "r0"."customer_email_sent") order by "r0"."created_at" desc, "r0"."uuid" desc), '[]'::json) from "job_photos" as "r0" where "r0"."company_uuid" = e."company_uuid" and "r0"."job_uuid" = e."uuid" and "r0"."deleted_at" is null)))
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select *
      from "jobs" as e
      where e."company_uuid" = ? and e."deleted_at" is null
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "rows";

-- list with its job_schedules by job
select (
  select coalesce(sum(kc.live), 0)::bigint
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'jobs') as "total", (
  select coalesce(json_agg(json_build_array(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."job_number")::text, ("e"."customer_uuid")::text, ("e"."location_uuid")::text, ("e"."assigned_to_user_id")::text, ("e"."title")::text, ("e"."description")::text, ("e"."status")::text, ("e"."priority")::text, "e"."is_urgent", "e"."is_emergency", ("e"."service_address1")::text, ("e"."service_address2")::text, ("e"."service_city")::text, ("e"."service_state")::text, ("e"."service_zip")::text, ("e"."estimated_amount")::text, ("e"."actual_amount")::text, ("e"."scheduled_date")::text, ("e"."scheduled_time_start")::text, ("e"."scheduled_time_end")::text, "e"."started_at", "e"."completed_at", "e"."invoiced_at", "e"."paid_at", ("e"."internal_notes")::text, ("e"."customer_notes")::text, "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids", "e"."tags"), json_build_array((select coalesce(json_agg(json_build_array(("r0"."uuid")::text, ("r0"."company_uuid")::text, "r0"."created_at", "r0"."updated_at", "r0"."deleted_at", ("r0"."job_uuid")::text, ("r0"."rrule")::text, ("r0"."starts_on")::text, ("r0"."start_time")::text, "r0"."duration_minutes", "r0"."all_day", "r0"."assigned_user_ids", ("r0"."title")::text, ("r0"."instructions")::text, "r0"."horizon_days", ("r0"."timezone")::text, ("r0"."generated_through")::text) order by "r0"."created_at" desc, "r0"."uuid" desc), '[]'::json) from "job_schedules" as "r0" where "r0"."company_uuid" = e."company_uuid" and "r0"."job_uuid" = e."uuid" and "r0"."deleted_at" is null)))
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select *
      from "jobs" as e
      where e."company_uuid" = ? and e."deleted_at" is null
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "rows";

-- list with its recurring_invoices by job
select (
  select coalesce(sum(kc.live), 0)::bigint
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'jobs') as "total", (
  select coalesce(json_agg(json_build_array(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."job_number")::text, ("e"."customer_uuid")::text, ("e"."location_uuid")::text, ("e"."assigned_to_user_id")::text, ("e"."title")::text, ("e"."description")::text, ("e"."status")::text, ("e"."priority")::text, "e"."is_urgent", "e"."is_emergency", ("e"."service_address1")::text, ("e"."service_address2")::text, ("e"."service_city")::text, ("e"."service_state")::text, ("e"."service_zip")::text, ("e"."estimated_amount")::text, ("e"."actual_amount")::text, ("e"."scheduled_date")::text, ("e"."scheduled_time_start")::text, ("e"."scheduled_time_end")::text, "e"."started_at", "e"."completed_at", "e"."invoiced_at", "e"."paid_at", ("e"."internal_notes")::text, ("e"."customer_notes")::text, "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids", "e"."tags"), json_build_array((select coalesce(json_agg(json_build_array(("r0"."uuid")::text, ("r0"."company_uuid")::text, "r0"."created_at", "r0"."updated_at", "r0"."deleted_at", ("r0"."customer_uuid")::text, ("r0"."location_uuid")::text, ("r0"."job_uuid")::text, ("r0"."rrule")::text, ("r0"."starts_on")::text, ("r0"."timezone")::text, "r0"."line_items", ("r0"."discount_amount")::text, ("r0"."notes")::text, ("r0"."terms")::text, "r0"."due_days", "r0"."auto_send", ("r0"."status")::text, ("r0"."next_issue_date")::text, "r0"."last_issued_at", "r0"."invoices_count") order by "r0"."created_at" desc, "r0"."uuid" desc), '[]'::json) from "recurring_invoices" as "r0" where "r0"."company_uuid" = e."company_uuid" and "r0"."job_uuid" = e."uuid" and "r0"."deleted_at" is null)))
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select *
      from "jobs" as e
      where e."company_uuid" = ? and e."deleted_at" is null
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "rows";

-- list with its visits by job
select (
  select coalesce(sum(kc.live), 0)::bigint
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'jobs') as "total", (
  select coalesce(json_agg(json_build_array(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."job_number")::text, ("e"."customer_uuid")::text, ("e"."location_uuid")::text, ("e"."assigned_to_user_id")::text, ("e"."title")::text, ("e"."description")::text, ("e"."status")::text, ("e"."priority")::text, "e"."is_urgent", "e"."is_emergency", ("e"."service_address1")::text, ("e"."service_address2")::text, ("e"."service_city")::text, ("e"."service_state")::text, ("e"."service_zip")::text, ("e"."estimated_amount")::text, ("e"."actual_amount")::text, ("e"."scheduled_date")::text, ("e"."scheduled_time_start")::text, ("e"."scheduled_time_end")::text, "e"."started_at", "e"."completed_at", "e"."invoiced_at", "e"."paid_at", ("e"."internal_notes")::text, ("e"."customer_notes")::text, "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids", "e"."tags"), json_build_array((select coalesce(json_agg(json_build_array(("r0"."uuid")::text, ("r0"."company_uuid")::text, "r0"."created_at", "r0"."updated_at", "r0"."deleted_at", ("r0"."job_uuid")::text, ("r0"."title")::text, ("r0"."instructions")::text, ("r0"."status")::text, "r0"."starts_at", "r0"."ends_at", "r0"."all_day", ("r0"."visit_date")::text, "r0"."assigned_user_ids", "r0"."completed_at", ("r0"."schedule_uuid")::text, ("r0"."occurrence_date")::text, "r0"."schedule_exception", "r0"."schedule_conflicts", "r0"."custom_fields", "r0"."custom_fields_hidden", "r0"."external_ids") order by "r0"."created_at" desc, "r0"."uuid" desc), '[]'::json) from "visits" as "r0" where "r0"."company_uuid" = e."company_uuid" and "r0"."job_uuid" = e."uuid" and "r0"."deleted_at" is null)))
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select *
      from "jobs" as e
      where e."company_uuid" = ? and e."deleted_at" is null
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "rows";

-- a technician's list: a page of the live rows in their reach (reach.ts), read from their rows of job_reach in page order, and their total, the count of their live rows there
select (
  select count(*)
    from "job_reach" as "r"
    where "r"."company_uuid" = ?::uuid and "r"."user_id" = ?::uuid and "r"."live") as "total", (
  select coalesce(json_agg(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."job_number")::text, ("e"."customer_uuid")::text, ("e"."location_uuid")::text, ("e"."assigned_to_user_id")::text, ("e"."title")::text, ("e"."description")::text, ("e"."status")::text, ("e"."priority")::text, "e"."is_urgent", "e"."is_emergency", ("e"."service_address1")::text, ("e"."service_address2")::text, ("e"."service_city")::text, ("e"."service_state")::text, ("e"."service_zip")::text, ("e"."estimated_amount")::text, ("e"."actual_amount")::text, ("e"."scheduled_date")::text, ("e"."scheduled_time_start")::text, ("e"."scheduled_time_end")::text, "e"."started_at", "e"."completed_at", "e"."invoiced_at", "e"."paid_at", ("e"."internal_notes")::text, ("e"."customer_notes")::text, "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids", "e"."tags")
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select e.*
      from "job_reach" as "r" join "jobs" as e on e."uuid" = "r"."job_uuid"
      where e."company_uuid" = ? and e."deleted_at" is null and "r"."company_uuid" = ?::uuid and "r"."user_id" = ?::uuid and "r"."live"
      order by "r"."created_at" desc, "r"."job_uuid" desc
      limit ? offset ?) as e) as "rows";

-- a technician's list with include_deleted: all the rows in their reach, and their total, the count of all their rows of job_reach
select (
  select count(*)
    from "job_reach" as "r"
    where "r"."company_uuid" = ?::uuid and "r"."user_id" = ?::uuid) as "total", (
  select coalesce(json_agg(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."job_number")::text, ("e"."customer_uuid")::text, ("e"."location_uuid")::text, ("e"."assigned_to_user_id")::text, ("e"."title")::text, ("e"."description")::text, ("e"."status")::text, ("e"."priority")::text, "e"."is_urgent", "e"."is_emergency", ("e"."service_address1")::text, ("e"."service_address2")::text, ("e"."service_city")::text, ("e"."service_state")::text, ("e"."service_zip")::text, ("e"."estimated_amount")::text, ("e"."actual_amount")::text, ("e"."scheduled_date")::text, ("e"."scheduled_time_start")::text, ("e"."scheduled_time_end")::text, "e"."started_at", "e"."completed_at", "e"."invoiced_at", "e"."paid_at", ("e"."internal_notes")::text, ("e"."customer_notes")::text, "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids", "e"."tags")
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select e.*
      from "job_reach" as "r" join "jobs" as e on e."uuid" = "r"."job_uuid"
      where e."company_uuid" = ? and "r"."company_uuid" = ?::uuid and "r"."user_id" = ?::uuid
      order by "r"."created_at" desc, "r"."job_uuid" desc
      limit ? offset ?) as e) as "rows";

-- a technician's list with a filter (`and (…)` after the conditions), read from job_reach: the total counted over the same join
select case when "p"."n" < ?::int and ("p"."n" > 0 or ?::int = 0) then ?::int + "p"."n" else (
  select count(*)
    from "job_reach" as "r" join "jobs" as e on e."uuid" = "r"."job_uuid"
    where e."company_uuid" = ? and e."deleted_at" is null and "r"."company_uuid" = ?::uuid and "r"."user_id" = ?::uuid and "r"."live") end as "total", "p"."rows"
  from (
  select coalesce(json_agg(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."job_number")::text, ("e"."customer_uuid")::text, ("e"."location_uuid")::text, ("e"."assigned_to_user_id")::text, ("e"."title")::text, ("e"."description")::text, ("e"."status")::text, ("e"."priority")::text, "e"."is_urgent", "e"."is_emergency", ("e"."service_address1")::text, ("e"."service_address2")::text, ("e"."service_city")::text, ("e"."service_state")::text, ("e"."service_zip")::text, ("e"."estimated_amount")::text, ("e"."actual_amount")::text, ("e"."scheduled_date")::text, ("e"."scheduled_time_start")::text, ("e"."scheduled_time_end")::text, "e"."started_at", "e"."completed_at", "e"."invoiced_at", "e"."paid_at", ("e"."internal_notes")::text, ("e"."customer_notes")::text, "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids", "e"."tags")
        order by e."created_at" desc, e."uuid" desc), '[]'::json) as "rows", count(*)::int as "n"
    from (
    select e.*
      from "job_reach" as "r" join "jobs" as e on e."uuid" = "r"."job_uuid"
      where e."company_uuid" = ? and e."deleted_at" is null and "r"."company_uuid" = ?::uuid and "r"."user_id" = ?::uuid and "r"."live"
      order by "r"."created_at" desc, "r"."job_uuid" desc
      limit ? offset ?) as e) as "p";

-- a technician's list with its customer, in their reach with the job (reachFollows: no condition of their own)
select (
  select count(*)
    from "job_reach" as "r"
    where "r"."company_uuid" = ?::uuid and "r"."user_id" = ?::uuid and "r"."live") as "total", (
  select coalesce(json_agg(json_build_array(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."job_number")::text, ("e"."customer_uuid")::text, ("e"."location_uuid")::text, ("e"."assigned_to_user_id")::text, ("e"."title")::text, ("e"."description")::text, ("e"."status")::text, ("e"."priority")::text, "e"."is_urgent", "e"."is_emergency", ("e"."service_address1")::text, ("e"."service_address2")::text, ("e"."service_city")::text, ("e"."service_state")::text, ("e"."service_zip")::text, ("e"."estimated_amount")::text, ("e"."actual_amount")::text, ("e"."scheduled_date")::text, ("e"."scheduled_time_start")::text, ("e"."scheduled_time_end")::text, "e"."started_at", "e"."completed_at", "e"."invoiced_at", "e"."paid_at", ("e"."internal_notes")::text, ("e"."customer_notes")::text, "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids", "e"."tags"), json_build_array((select json_build_array(("r0"."uuid")::text, ("r0"."company_uuid")::text, "r0"."created_at", "r0"."updated_at", "r0"."deleted_at", ("r0"."first_name")::text, ("r0"."last_name")::text, ("r0"."company_name")::text, ("r0"."email")::text, ("r0"."phone")::text, ("r0"."customer_type")::text, "r0"."is_vip", ("r0"."physical_address1")::text, ("r0"."physical_address2")::text, ("r0"."physical_city")::text, ("r0"."physical_state")::text, ("r0"."physical_zip")::text, ("r0"."billing_address1")::text, ("r0"."billing_address2")::text, ("r0"."billing_city")::text, ("r0"."billing_state")::text, ("r0"."billing_zip")::text, ("r0"."primary_service_location_uuid")::text, ("r0"."notes")::text, "r0"."internal_flags", ("r0"."on_my_way_notify_via")::text, "r0"."custom_fields", "r0"."custom_fields_hidden", "r0"."external_ids", "r0"."tags") from "customers" as "r0" where "r0"."company_uuid" = e."company_uuid" and "r0"."uuid" = e."customer_uuid")))
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select e.*
      from "job_reach" as "r" join "jobs" as e on e."uuid" = "r"."job_uuid"
      where e."company_uuid" = ? and e."deleted_at" is null and "r"."company_uuid" = ?::uuid and "r"."user_id" = ?::uuid and "r"."live"
      order by "r"."created_at" desc, "r"."job_uuid" desc
      limit ? offset ?) as e) as "rows";

-- a technician's list with its location, in their reach with the job (reachFollows: no condition of their own)
select (
  select count(*)
    from "job_reach" as "r"
    where "r"."company_uuid" = ?::uuid and "r"."user_id" = ?::uuid and "r"."live") as "total", (
  select coalesce(json_agg(json_build_array(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."job_number")::text, ("e"."customer_uuid")::text, ("e"."location_uuid")::text, ("e"."assigned_to_user_id")::text, ("e"."title")::text, ("e"."description")::text, ("e"."status")::text, ("e"."priority")::text, "e"."is_urgent", "e"."is_emergency", ("e"."service_address1")::text, ("e"."service_address2")::text, ("e"."service_city")::text, ("e"."service_state")::text, ("e"."service_zip")::text, ("e"."estimated_amount")::text, ("e"."actual_amount")::text, ("e"."scheduled_date")::text, ("e"."scheduled_time_start")::text, ("e"."scheduled_time_end")::text, "e"."started_at", "e"."completed_at", "e"."invoiced_at", "e"."paid_at", ("e"."internal_notes")::text, ("e"."customer_notes")::text, "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids", "e"."tags"), json_build_array((select json_build_array(("r0"."uuid")::text, ("r0"."company_uuid")::text, "r0"."created_at", "r0"."updated_at", "r0"."deleted_at", ("r0"."name")::text, ("r0"."location_code")::text, ("r0"."address1")::text, ("r0"."address2")::text, ("r0"."city")::text, ("r0"."state")::text, ("r0"."zip")::text, ("r0"."phone")::text, ("r0"."timezone")::text, "r0"."business_hours", "r0"."default_tax_rules", "r0"."service_types_offered", ("r0"."default_pricing_set_uuid")::text, "r0"."is_primary", "r0"."is_active", "r0"."custom_fields", "r0"."custom_fields_hidden", "r0"."external_ids") from "locations" as "r0" where "r0"."company_uuid" = e."company_uuid" and "r0"."uuid" = e."location_uuid")))
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select e.*
      from "job_reach" as "r" join "jobs" as e on e."uuid" = "r"."job_uuid"
      where e."company_uuid" = ? and e."deleted_at" is null and "r"."company_uuid" = ?::uuid and "r"."user_id" = ?::uuid and "r"."live"
      order by "r"."created_at" desc, "r"."job_uuid" desc
      limit ? offset ?) as e) as "rows";

-- a technician's list with its job_photos by job, in their reach with the job (reachFollows: no condition of their own)
select (
  select count(*)
    from "job_reach" as "r"
    where "r"."company_uuid" = ?::uuid and "r"."user_id" = ?::uuid and "r"."live") as "total", (
  select coalesce(json_agg(json_build_array(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."job_number")::text, ("e"."customer_uuid")::text, ("e"."location_uuid")::text, ("e"."assigned_to_user_id")::text, ("e"."title")::text, ("e"."description")::text, ("e"."status")::text, ("e"."priority")::text, "e"."is_urgent", "e"."is_emergency", ("e"."service_address1")::text, ("e"."service_address2")::text, ("e"."service_city")::text, ("e"."service_state")::text, ("e"."service_zip")::text, ("e"."estimated_amount")::text, ("e"."actual_amount")::text, ("e"."scheduled_date")::text, ("e"."scheduled_time_start")::text, ("e"."scheduled_time_end")::text, "e"."started_at", "e"."completed_at", "e"."invoiced_at", "e"."paid_at", ("e"."internal_notes")::text, ("e"."customer_notes")::text, "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids", "e"."tags"), json_build_array((select coalesce(json_agg(json_build_array(("r0"."uuid")::text, ("r0"."company_uuid")::text, "r0"."created_at", "r0"."updated_at", "r0"."deleted_at", ("r0"."job_uuid")::text, ("r0"."user_id")::text, ("r0"."storage_key")::text, ("r0"."storage_backend")::text, ("r0"."photo_type")::text, ("r0"."file_name")::text, "r0"."file_size", ("r0"."mime_type")::text, "r0"."taken_at", "r0"."customer_email_sent") order by "r0"."created_at" desc, "r0"."uuid" desc), '[]'::json) from "job_photos" as "r0" where "r0"."company_uuid" = e."company_uuid" and "r0"."job_uuid" = e."uuid" and "r0"."deleted_at" is null)))
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select e.*
      from "job_reach" as "r" join "jobs" as e on e."uuid" = "r"."job_uuid"
      where e."company_uuid" = ? and e."deleted_at" is null and "r"."company_uuid" = ?::uuid and "r"."user_id" = ?::uuid and "r"."live"
      order by "r"."created_at" desc, "r"."job_uuid" desc
      limit ? offset ?) as e) as "rows";

-- a technician's list with its visits by job, in their reach too
select (
  select count(*)
    from "job_reach" as "r"
    where "r"."company_uuid" = ?::uuid and "r"."user_id" = ?::uuid and "r"."live") as "total", (
  select coalesce(json_agg(json_build_array(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."job_number")::text, ("e"."customer_uuid")::text, ("e"."location_uuid")::text, ("e"."assigned_to_user_id")::text, ("e"."title")::text, ("e"."description")::text, ("e"."status")::text, ("e"."priority")::text, "e"."is_urgent", "e"."is_emergency", ("e"."service_address1")::text, ("e"."service_address2")::text, ("e"."service_city")::text, ("e"."service_state")::text, ("e"."service_zip")::text, ("e"."estimated_amount")::text, ("e"."actual_amount")::text, ("e"."scheduled_date")::text, ("e"."scheduled_time_start")::text, ("e"."scheduled_time_end")::text, "e"."started_at", "e"."completed_at", "e"."invoiced_at", "e"."paid_at", ("e"."internal_notes")::text, ("e"."customer_notes")::text, "e"."custom_fields", "e"."custom_fields_hidden", "e"."external_ids", "e"."tags"), json_build_array((select coalesce(json_agg(json_build_array(("r0"."uuid")::text, ("r0"."company_uuid")::text, "r0"."created_at", "r0"."updated_at", "r0"."deleted_at", ("r0"."job_uuid")::text, ("r0"."title")::text, ("r0"."instructions")::text, ("r0"."status")::text, "r0"."starts_at", "r0"."ends_at", "r0"."all_day", ("r0"."visit_date")::text, "r0"."assigned_user_ids", "r0"."completed_at", ("r0"."schedule_uuid")::text, ("r0"."occurrence_date")::text, "r0"."schedule_exception", "r0"."schedule_conflicts", "r0"."custom_fields", "r0"."custom_fields_hidden", "r0"."external_ids") order by "r0"."created_at" desc, "r0"."uuid" desc), '[]'::json) from "visits" as "r0" where "r0"."company_uuid" = e."company_uuid" and "r0"."uuid" = any(array(select "rva"."visit_uuid" from "visit_assignments" as "rva" where "rva"."company_uuid" = ?::uuid and "rva"."user_id" = ?::uuid)) and "r0"."job_uuid" = e."uuid" and "r0"."deleted_at" is null)))
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select e.*
      from "job_reach" as "r" join "jobs" as e on e."uuid" = "r"."job_uuid"
      where e."company_uuid" = ? and e."deleted_at" is null and "r"."company_uuid" = ?::uuid and "r"."user_id" = ?::uuid and "r"."live"
      order by "r"."created_at" desc, "r"."job_uuid" desc
      limit ? offset ?) as e) as "rows";

-- a technician's load by uuid, in their reach (the loaders; the keys one array, then the reach's)
select e."uuid", e."company_uuid", e."created_at", e."updated_at", e."deleted_at", e."job_number", e."customer_uuid", e."location_uuid", e."assigned_to_user_id", e."title", e."description", e."status", e."priority", e."is_urgent", e."is_emergency", e."service_address1", e."service_address2", e."service_city", e."service_state", e."service_zip", e."estimated_amount", e."actual_amount", e."scheduled_date", e."scheduled_time_start", e."scheduled_time_end", e."started_at", e."completed_at", e."invoiced_at", e."paid_at", e."internal_notes", e."customer_notes", e."custom_fields", e."custom_fields_hidden", e."external_ids", e."tags"
  from "jobs" as e
  where e."company_uuid" = ? and e."uuid" = any(?::uuid[]) and e."uuid" = any(array(
    select "rj"."job_uuid"
      from "job_reach" as "rj"
      where "rj"."company_uuid" = ?::uuid and "rj"."user_id" = ?::uuid));

-- a technician's read of one live record by uuid, in their reach (readActive)
select e."uuid", e."company_uuid", e."created_at", e."updated_at", e."deleted_at", e."job_number", e."customer_uuid", e."location_uuid", e."assigned_to_user_id", e."title", e."description", e."status", e."priority", e."is_urgent", e."is_emergency", e."service_address1", e."service_address2", e."service_city", e."service_state", e."service_zip", e."estimated_amount", e."actual_amount", e."scheduled_date", e."scheduled_time_start", e."scheduled_time_end", e."started_at", e."completed_at", e."invoiced_at", e."paid_at", e."internal_notes", e."customer_notes", e."custom_fields", e."custom_fields_hidden", e."external_ids", e."tags"
  from "jobs" as e
  where e."company_uuid" = ? and e."uuid" = any(?::uuid[]) and e."uuid" = any(array(
    select "rj"."job_uuid"
      from "job_reach" as "rj"
      where "rj"."company_uuid" = ?::uuid and "rj"."user_id" = ?::uuid)) and e."deleted_at" is null
  order by e."created_at" desc, e."uuid" desc;

-- a technician's load of the live rows by customer, in their reach (relation lists)
select e."uuid", e."company_uuid", e."created_at", e."updated_at", e."deleted_at", e."job_number", e."customer_uuid", e."location_uuid", e."assigned_to_user_id", e."title", e."description", e."status", e."priority", e."is_urgent", e."is_emergency", e."service_address1", e."service_address2", e."service_city", e."service_state", e."service_zip", e."estimated_amount", e."actual_amount", e."scheduled_date", e."scheduled_time_start", e."scheduled_time_end", e."started_at", e."completed_at", e."invoiced_at", e."paid_at", e."internal_notes", e."customer_notes", e."custom_fields", e."custom_fields_hidden", e."external_ids", e."tags"
  from "jobs" as e
  where e."company_uuid" = ? and e."customer_uuid" = any(?::uuid[]) and e."uuid" = any(array(
    select "rj"."job_uuid"
      from "job_reach" as "rj"
      where "rj"."company_uuid" = ?::uuid and "rj"."user_id" = ?::uuid)) and e."deleted_at" is null
  order by e."created_at" desc, e."uuid" desc;

-- a technician's load of the live rows by location, in their reach (relation lists)
select e."uuid", e."company_uuid", e."created_at", e."updated_at", e."deleted_at", e."job_number", e."customer_uuid", e."location_uuid", e."assigned_to_user_id", e."title", e."description", e."status", e."priority", e."is_urgent", e."is_emergency", e."service_address1", e."service_address2", e."service_city", e."service_state", e."service_zip", e."estimated_amount", e."actual_amount", e."scheduled_date", e."scheduled_time_start", e."scheduled_time_end", e."started_at", e."completed_at", e."invoiced_at", e."paid_at", e."internal_notes", e."customer_notes", e."custom_fields", e."custom_fields_hidden", e."external_ids", e."tags"
  from "jobs" as e
  where e."company_uuid" = ? and e."location_uuid" = any(?::uuid[]) and e."uuid" = any(array(
    select "rj"."job_uuid"
      from "job_reach" as "rj"
      where "rj"."company_uuid" = ?::uuid and "rj"."user_id" = ?::uuid)) and e."deleted_at" is null
  order by e."created_at" desc, e."uuid" desc;

-- a technician's load of the live rows by assignedTo, in their reach (relation lists)
select e."uuid", e."company_uuid", e."created_at", e."updated_at", e."deleted_at", e."job_number", e."customer_uuid", e."location_uuid", e."assigned_to_user_id", e."title", e."description", e."status", e."priority", e."is_urgent", e."is_emergency", e."service_address1", e."service_address2", e."service_city", e."service_state", e."service_zip", e."estimated_amount", e."actual_amount", e."scheduled_date", e."scheduled_time_start", e."scheduled_time_end", e."started_at", e."completed_at", e."invoiced_at", e."paid_at", e."internal_notes", e."customer_notes", e."custom_fields", e."custom_fields_hidden", e."external_ids", e."tags"
  from "jobs" as e
  where e."company_uuid" = ? and e."assigned_to_user_id" = any(?::uuid[]) and e."uuid" = any(array(
    select "rj"."job_uuid"
      from "job_reach" as "rj"
      where "rj"."company_uuid" = ?::uuid and "rj"."user_id" = ?::uuid)) and e."deleted_at" is null
  order by e."created_at" desc, e."uuid" desc;

-- load by uuid (the loaders; the keys one array)
select e."uuid", e."company_uuid", e."created_at", e."updated_at", e."deleted_at", e."job_number", e."customer_uuid", e."location_uuid", e."assigned_to_user_id", e."title", e."description", e."status", e."priority", e."is_urgent", e."is_emergency", e."service_address1", e."service_address2", e."service_city", e."service_state", e."service_zip", e."estimated_amount", e."actual_amount", e."scheduled_date", e."scheduled_time_start", e."scheduled_time_end", e."started_at", e."completed_at", e."invoiced_at", e."paid_at", e."internal_notes", e."customer_notes", e."custom_fields", e."custom_fields_hidden", e."external_ids", e."tags"
  from "jobs" as e
  where e."company_uuid" = ? and e."uuid" = any(?::uuid[]);

-- read one live record by uuid (readActive, GET of one record; the key a one-element array)
select e."uuid", e."company_uuid", e."created_at", e."updated_at", e."deleted_at", e."job_number", e."customer_uuid", e."location_uuid", e."assigned_to_user_id", e."title", e."description", e."status", e."priority", e."is_urgent", e."is_emergency", e."service_address1", e."service_address2", e."service_city", e."service_state", e."service_zip", e."estimated_amount", e."actual_amount", e."scheduled_date", e."scheduled_time_start", e."scheduled_time_end", e."started_at", e."completed_at", e."invoiced_at", e."paid_at", e."internal_notes", e."customer_notes", e."custom_fields", e."custom_fields_hidden", e."external_ids", e."tags"
  from "jobs" as e
  where e."company_uuid" = ? and e."uuid" = any(?::uuid[]) and e."deleted_at" is null
  order by e."created_at" desc, e."uuid" desc;

-- load the live rows by customer (relation lists; the keys one array)
select e."uuid", e."company_uuid", e."created_at", e."updated_at", e."deleted_at", e."job_number", e."customer_uuid", e."location_uuid", e."assigned_to_user_id", e."title", e."description", e."status", e."priority", e."is_urgent", e."is_emergency", e."service_address1", e."service_address2", e."service_city", e."service_state", e."service_zip", e."estimated_amount", e."actual_amount", e."scheduled_date", e."scheduled_time_start", e."scheduled_time_end", e."started_at", e."completed_at", e."invoiced_at", e."paid_at", e."internal_notes", e."customer_notes", e."custom_fields", e."custom_fields_hidden", e."external_ids", e."tags"
  from "jobs" as e
  where e."company_uuid" = ? and e."customer_uuid" = any(?::uuid[]) and e."deleted_at" is null
  order by e."created_at" desc, e."uuid" desc;

-- load the live rows by location (relation lists; the keys one array)
select e."uuid", e."company_uuid", e."created_at", e."updated_at", e."deleted_at", e."job_number", e."customer_uuid", e."location_uuid", e."assigned_to_user_id", e."title", e."description", e."status", e."priority", e."is_urgent", e."is_emergency", e."service_address1", e."service_address2", e."service_city", e."service_state", e."service_zip", e."estimated_amount", e."actual_amount", e."scheduled_date", e."scheduled_time_start", e."scheduled_time_end", e."started_at", e."completed_at", e."invoiced_at", e."paid_at", e."internal_notes", e."customer_notes", e."custom_fields", e."custom_fields_hidden", e."external_ids", e."tags"
  from "jobs" as e
  where e."company_uuid" = ? and e."location_uuid" = any(?::uuid[]) and e."deleted_at" is null
  order by e."created_at" desc, e."uuid" desc;

-- load the live rows by assignedTo (relation lists; the keys one array)
select e."uuid", e."company_uuid", e."created_at", e."updated_at", e."deleted_at", e."job_number", e."customer_uuid", e."location_uuid", e."assigned_to_user_id", e."title", e."description", e."status", e."priority", e."is_urgent", e."is_emergency", e."service_address1", e."service_address2", e."service_city", e."service_state", e."service_zip", e."estimated_amount", e."actual_amount", e."scheduled_date", e."scheduled_time_start", e."scheduled_time_end", e."started_at", e."completed_at", e."invoiced_at", e."paid_at", e."internal_notes", e."customer_notes", e."custom_fields", e."custom_fields_hidden", e."external_ids", e."tags"
  from "jobs" as e
  where e."company_uuid" = ? and e."assigned_to_user_id" = any(?::uuid[]) and e."deleted_at" is null
  order by e."created_at" desc, e."uuid" desc;
