-- job_schedules: every statement the read model runs on it (src/data/list.ts, src/data/keyed.ts), written by `npm run sql`.
-- Each ? is a parameter; the company's key is passed to every statement.

-- list: a page of the live rows, newest first, and their total
select case when "p"."n" < ?::int and ("p"."n" > 0 or ?::int = 0) then ?::int + "p"."n" else (
  select count(*)
    from "job_schedules" as e
    where e."company_uuid" = ? and e."deleted_at" is null) end as "total", "p"."rows"
  from (
  select coalesce(json_agg(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."job_uuid")::text, ("e"."rrule")::text, ("e"."starts_on")::text, ("e"."start_time")::text, "e"."duration_minutes", "e"."all_day", "e"."assigned_user_ids", ("e"."title")::text, ("e"."instructions")::text, "e"."horizon_days", ("e"."timezone")::text, ("e"."generated_through")::text)
        order by e."created_at" desc, e."uuid" desc), '[]'::json) as "rows", count(*)::int as "n"
    from (
    select *
      from "job_schedules" as e
      where e."company_uuid" = ? and e."deleted_at" is null
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "p";

-- list with include_deleted: all the rows, and their total
select case when "p"."n" < ?::int and ("p"."n" > 0 or ?::int = 0) then ?::int + "p"."n" else (
  select count(*)
    from "job_schedules" as e
    where e."company_uuid" = ?) end as "total", "p"."rows"
  from (
  select coalesce(json_agg(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."job_uuid")::text, ("e"."rrule")::text, ("e"."starts_on")::text, ("e"."start_time")::text, "e"."duration_minutes", "e"."all_day", "e"."assigned_user_ids", ("e"."title")::text, ("e"."instructions")::text, "e"."horizon_days", ("e"."timezone")::text, ("e"."generated_through")::text)
        order by e."created_at" desc, e."uuid" desc), '[]'::json) as "rows", count(*)::int as "n"
    from (
    select *
      from "job_schedules" as e
      where e."company_uuid" = ?
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "p";

-- list, a page from row 1000 on (keys first)
select case when "p"."n" < ?::int and ("p"."n" > 0 or ?::int = 0) then ?::int + "p"."n" else (
  select count(*)
    from "job_schedules" as e
    where e."company_uuid" = ? and e."deleted_at" is null) end as "total", "p"."rows"
  from (
  select coalesce(json_agg(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."job_uuid")::text, ("e"."rrule")::text, ("e"."starts_on")::text, ("e"."start_time")::text, "e"."duration_minutes", "e"."all_day", "e"."assigned_user_ids", ("e"."title")::text, ("e"."instructions")::text, "e"."horizon_days", ("e"."timezone")::text, ("e"."generated_through")::text)
        order by e."created_at" desc, e."uuid" desc), '[]'::json) as "rows", count(*)::int as "n"
    from "job_schedules" as e
    where e."uuid" = any(array(
      select e."uuid"
        from "job_schedules" as e
        where e."company_uuid" = ? and e."deleted_at" is null
        order by e."created_at" desc, e."uuid" desc
        limit ? offset ?))) as "p";

-- list with its job
select case when "p"."n" < ?::int and ("p"."n" > 0 or ?::int = 0) then ?::int + "p"."n" else (
  select count(*)
    from "job_schedules" as e
    where e."company_uuid" = ? and e."deleted_at" is null) end as "total", "p"."rows"
  from (
  select coalesce(json_agg(json_build_array(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."job_uuid")::text, ("e"."rrule")::text, ("e"."starts_on")::text, ("e"."start_time")::text, "e"."duration_minutes", "e"."all_day", "e"."assigned_user_ids", ("e"."title")::text, ("e"."instructions")::text, "e"."horizon_days", ("e"."timezone")::text, ("e"."generated_through")::text), json_build_array((select json_build_array(("r0"."uuid")::text, ("r0"."company_uuid")::text, "r0"."created_at", "r0"."updated_at", "r0"."deleted_at", ("r0"."job_number")::text, ("r0"."customer_uuid")::text, ("r0"."location_uuid")::text, ("r0"."assigned_to_user_id")::text, ("r0"."title")::text, ("r0"."description")::text, ("r0"."status")::text, ("r0"."priority")::text, "r0"."is_urgent", "r0"."is_emergency", ("r0"."service_address1")::text, ("r0"."service_address2")::text, ("r0"."service_city")::text, ("r0"."service_state")::text, ("r0"."service_zip")::text, ("r0"."estimated_amount")::text, ("r0"."actual_amount")::text, ("r0"."scheduled_date")::text, ("r0"."scheduled_time_start")::text, ("r0"."scheduled_time_end")::text, "r0"."started_at", "r0"."completed_at", "r0"."invoiced_at", "r0"."paid_at", ("r0"."internal_notes")::text, ("r0"."customer_notes")::text, "r0"."custom_fields", "r0"."custom_fields_hidden", "r0"."external_ids", "r0"."tags") from "jobs" as "r0" where "r0"."company_uuid" = e."company_uuid" and "r0"."uuid" = e."job_uuid")))
        order by e."created_at" desc, e."uuid" desc), '[]'::json) as "rows", count(*)::int as "n"
    from (
    select *
      from "job_schedules" as e
      where e."company_uuid" = ? and e."deleted_at" is null
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "p";

-- load by uuid (the loaders; the keys one array)
select e."uuid", e."company_uuid", e."created_at", e."updated_at", e."deleted_at", e."job_uuid", e."rrule", e."starts_on", e."start_time", e."duration_minutes", e."all_day", e."assigned_user_ids", e."title", e."instructions", e."horizon_days", e."timezone", e."generated_through"
  from "job_schedules" as e
  where e."company_uuid" = ? and e."uuid" = any(?::uuid[]);

-- read one live record by uuid (readActive, GET of one record; the key a one-element array)
select e."uuid", e."company_uuid", e."created_at", e."updated_at", e."deleted_at", e."job_uuid", e."rrule", e."starts_on", e."start_time", e."duration_minutes", e."all_day", e."assigned_user_ids", e."title", e."instructions", e."horizon_days", e."timezone", e."generated_through"
  from "job_schedules" as e
  where e."company_uuid" = ? and e."uuid" = any(?::uuid[]) and e."deleted_at" is null
  order by e."created_at" desc, e."uuid" desc;

-- load the live rows by job (relation lists; the keys one array)
select e."uuid", e."company_uuid", e."created_at", e."updated_at", e."deleted_at", e."job_uuid", e."rrule", e."starts_on", e."start_time", e."duration_minutes", e."all_day", e."assigned_user_ids", e."title", e."instructions", e."horizon_days", e."timezone", e."generated_through"
  from "job_schedules" as e
  where e."company_uuid" = ? and e."job_uuid" = any(?::uuid[]) and e."deleted_at" is null
  order by e."created_at" desc, e."uuid" desc;
