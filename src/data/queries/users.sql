-- users: every statement the read model runs on it (src/data/list.ts, src/data/keyed.ts), written by `npm run sql`.
-- Each ? is a parameter; the company's key is passed to every statement.

-- list: a page of the live rows, newest first, and their total
select case when "p"."n" < ?::int and ("p"."n" > 0 or ?::int = 0) then ?::int + "p"."n" else (
  select count(*)
    from "users" as e
    where e."company_uuid" = ?) end as "total", "p"."rows"
  from (
  select coalesce(json_agg(json_build_array(("e"."id")::text, ("e"."company_uuid")::text, ("e"."first_name")::text, ("e"."last_name")::text, ("e"."email")::text, ("e"."phone")::text, ("e"."role")::text, "e"."active", "e"."created_at", "e"."updated_at")
        order by e."created_at" desc, e."id" desc), '[]'::json) as "rows", count(*)::int as "n"
    from (
    select *
      from "users" as e
      where e."company_uuid" = ?
      order by e."created_at" desc, e."id" desc
      limit ? offset ?) as e) as "p";

-- list, a page from row 1000 on (keys first)
select case when "p"."n" < ?::int and ("p"."n" > 0 or ?::int = 0) then ?::int + "p"."n" else (
  select count(*)
    from "users" as e
    where e."company_uuid" = ?) end as "total", "p"."rows"
  from (
  select coalesce(json_agg(json_build_array(("e"."id")::text, ("e"."company_uuid")::text, ("e"."first_name")::text, ("e"."last_name")::text, ("e"."email")::text, ("e"."phone")::text, ("e"."role")::text, "e"."active", "e"."created_at", "e"."updated_at")
        order by e."created_at" desc, e."id" desc), '[]'::json) as "rows", count(*)::int as "n"
    from "users" as e
    where e."id" = any(array(
      select e."id"
        from "users" as e
        where e."company_uuid" = ?
        order by e."created_at" desc, e."id" desc
        limit ? offset ?))) as "p";

-- list with its estimates by createdBy
select case when "p"."n" < ?::int and ("p"."n" > 0 or ?::int = 0) then ?::int + "p"."n" else (
  select count(*)
    from "users" as e
    where e."company_uuid" = ?) end as "total", "p"."rows"
  from (
  select coalesce(json_agg(json_build_array(json_build_array(("e"."id")::text, ("e"."company_uuid")::text, ("e"."first_name")::text, ("e"."last_name")::text, ("e"."email")::text, ("e"."phone")::text, ("e"."role")::text, "e"."active", "e"."created_at", "e"."updated_at"), json_build_array((select coalesce(json_agg(json_build_array(("r0"."uuid")::text, ("r0"."company_uuid")::text, "r0"."created_at", "r0"."updated_at", "r0"."deleted_at", ("r0"."estimate_number")::text, ("r0"."customer_uuid")::text, ("r0"."job_uuid")::text, ("r0"."template_uuid")::text, ("r0"."location_uuid")::text, ("r0"."created_by_user_id")::text, ("r0"."status")::text, ("r0"."template_name")::text, ("r0"."pricing_type")::text, ("r0"."selected_tier")::text, ("r0"."base_amount")::text, ("r0"."addons_amount")::text, ("r0"."tax_amount")::text, ("r0"."total_amount")::text, ("r0"."quantity")::text, "r0"."selected_addons", "r0"."adjustments", "r0"."pricing_snapshot", ("r0"."service_description")::text, ("r0"."internal_notes")::text, ("r0"."customer_notes")::text, ("r0"."response_notes")::text, "r0"."expires_at", "r0"."acceptance", "r0"."responded_at", "r0"."custom_fields", "r0"."custom_fields_hidden", "r0"."external_ids") order by "r0"."created_at" desc, "r0"."uuid" desc), '[]'::json) from "estimates" as "r0" where "r0"."company_uuid" = e."company_uuid" and "r0"."created_by_user_id" = e."id" and "r0"."deleted_at" is null)))
        order by e."created_at" desc, e."id" desc), '[]'::json) as "rows", count(*)::int as "n"
    from (
    select *
      from "users" as e
      where e."company_uuid" = ?
      order by e."created_at" desc, e."id" desc
      limit ? offset ?) as e) as "p";

-- list with its job_photos by user
select case when "p"."n" < ?::int and ("p"."n" > 0 or ?::int = 0) then ?::int + "p"."n" else (
  select count(*)
    from "users" as e
    where e."company_uuid" = ?) end as "total", "p"."rows"
  from (
  select coalesce(json_agg(json_build_array(json_build_array(("e"."id")::text, ("e"."company_uuid")::text, ("e"."first_name")::text, ("e"."last_name")::text, ("e"."email")::text, ("e"."phone")::text, ("e"."role")::text, "e"."active", "e"."created_at", "e"."updated_at"), json_build_array((select coalesce(json_agg(json_build_array(("r0"."uuid")::text, ("r0"."company_uuid")::text, "r0"."created_at", "r0"."updated_at", "r0"."deleted_at", ("r0"."job_uuid")::text, ("r0"."user_id")::text, ("r0"."storage_key")::text, ("r0"."storage_backend")::text, ("r0"."photo_type")::text, ("r0"."file_name")::text, "r0"."file_size", ("r0"."mime_type")::text, "r0"."taken_at", "r0"."customer_email_sent") order by "r0"."created_at" desc, "r0"."uuid" desc), '[]'::json) from "job_photos" as "r0" where "r0"."company_uuid" = e."company_uuid" and "r0"."user_id" = e."id" and "r0"."deleted_at" is null)))
        order by e."created_at" desc, e."id" desc), '[]'::json) as "rows", count(*)::int as "n"
    from (
    select *
      from "users" as e
      where e."company_uuid" = ?
      order by e."created_at" desc, e."id" desc
      limit ? offset ?) as e) as "p";

-- list with its jobs by assignedTo
select case when "p"."n" < ?::int and ("p"."n" > 0 or ?::int = 0) then ?::int + "p"."n" else (
  select count(*)
    from "users" as e
    where e."company_uuid" = ?) end as "total", "p"."rows"
  from (
  select coalesce(json_agg(json_build_array(json_build_array(("e"."id")::text, ("e"."company_uuid")::text, ("e"."first_name")::text, ("e"."last_name")::text, ("e"."email")::text, ("e"."phone")::text, ("e"."role")::text, "e"."active", "e"."created_at", "e"."updated_at"), json_build_array((select coalesce(json_agg(json_build_array(("r0"."uuid")::text, ("r0"."company_uuid")::text, "r0"."created_at", "r0"."updated_at", "r0"."deleted_at", ("r0"."job_number")::text, ("r0"."customer_uuid")::text, ("r0"."location_uuid")::text, ("r0"."assigned_to_user_id")::text, ("r0"."title")::text, ("r0"."description")::text, ("r0"."status")::text, ("r0"."priority")::text, "r0"."is_urgent", "r0"."is_emergency", ("r0"."service_address1")::text, ("r0"."service_address2")::text, ("r0"."service_city")::text, ("r0"."service_state")::text, ("r0"."service_zip")::text, ("r0"."estimated_amount")::text, ("r0"."actual_amount")::text, ("r0"."scheduled_date")::text, ("r0"."scheduled_time_start")::text, ("r0"."scheduled_time_end")::text, "r0"."started_at", "r0"."completed_at", "r0"."invoiced_at", "r0"."paid_at", ("r0"."internal_notes")::text, ("r0"."customer_notes")::text, "r0"."custom_fields", "r0"."custom_fields_hidden", "r0"."external_ids", "r0"."tags") order by "r0"."created_at" desc, "r0"."uuid" desc), '[]'::json) from "jobs" as "r0" where "r0"."company_uuid" = e."company_uuid" and "r0"."assigned_to_user_id" = e."id" and "r0"."deleted_at" is null)))
        order by e."created_at" desc, e."id" desc), '[]'::json) as "rows", count(*)::int as "n"
    from (
    select *
      from "users" as e
      where e."company_uuid" = ?
      order by e."created_at" desc, e."id" desc
      limit ? offset ?) as e) as "p";

-- list with its payments by createdBy
select case when "p"."n" < ?::int and ("p"."n" > 0 or ?::int = 0) then ?::int + "p"."n" else (
  select count(*)
    from "users" as e
    where e."company_uuid" = ?) end as "total", "p"."rows"
  from (
  select coalesce(json_agg(json_build_array(json_build_array(("e"."id")::text, ("e"."company_uuid")::text, ("e"."first_name")::text, ("e"."last_name")::text, ("e"."email")::text, ("e"."phone")::text, ("e"."role")::text, "e"."active", "e"."created_at", "e"."updated_at"), json_build_array((select coalesce(json_agg(json_build_array(("r0"."uuid")::text, ("r0"."company_uuid")::text, "r0"."created_at", "r0"."updated_at", "r0"."deleted_at", ("r0"."payment_number")::text, ("r0"."invoice_uuid")::text, ("r0"."customer_uuid")::text, ("r0"."payment_type")::text, ("r0"."payment_method")::text, ("r0"."amount")::text, ("r0"."processing_fee")::text, ("r0"."refunded_amount")::text, ("r0"."payment_date")::text, ("r0"."transaction_id")::text, ("r0"."reference_number")::text, ("r0"."authorization_code")::text, "r0"."payment_details", ("r0"."notes")::text, ("r0"."status")::text, "r0"."processed_at", ("r0"."created_by_user_id")::text, "r0"."external_ids") order by "r0"."created_at" desc, "r0"."uuid" desc), '[]'::json) from "payments" as "r0" where "r0"."company_uuid" = e."company_uuid" and "r0"."created_by_user_id" = e."id" and "r0"."deleted_at" is null)))
        order by e."created_at" desc, e."id" desc), '[]'::json) as "rows", count(*)::int as "n"
    from (
    select *
      from "users" as e
      where e."company_uuid" = ?
      order by e."created_at" desc, e."id" desc
      limit ? offset ?) as e) as "p";

-- load by id (the loaders; the keys one array)
select e."id", e."company_uuid", e."first_name", e."last_name", e."email", e."phone", e."role", e."active", e."created_at", e."updated_at"
  from "users" as e
  where e."company_uuid" = ? and e."id" = any(?::uuid[]);
