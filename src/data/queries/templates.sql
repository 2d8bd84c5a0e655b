-- templates: every statement the read model runs on it (src/data/list.ts, src/data/keyed.ts), written by `npm run sql`.
-- Each ? is a parameter; the company's key is passed to every statement.

-- list: a page of the live rows, newest first, and their total
select (
  select coalesce(sum(kc.live), 0)::bigint
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'templates') as "total", (
  select coalesce(json_agg(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."name")::text, ("e"."description")::text, ("e"."pricing_type")::text, ("e"."base_price")::text, ("e"."tier_good")::text, ("e"."tier_better")::text, ("e"."tier_best")::text, "e"."addons", ("e"."tax_rate")::text, "e"."external_ids")
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select *
      from "templates" as e
      where e."company_uuid" = ? and e."deleted_at" is null
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "rows";

-- list with include_deleted: all the rows, and their total
select (
  select coalesce(sum(kc.all_rows), 0)::bigint
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'templates') as "total", (
  select coalesce(json_agg(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."name")::text, ("e"."description")::text, ("e"."pricing_type")::text, ("e"."base_price")::text, ("e"."tier_good")::text, ("e"."tier_better")::text, ("e"."tier_best")::text, "e"."addons", ("e"."tax_rate")::text, "e"."external_ids")
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select *
      from "templates" as e
      where e."company_uuid" = ?
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "rows";

-- list with a filter (`and (…)` after the conditions): the total counted
select case when "p"."n" < ?::int and ("p"."n" > 0 or ?::int = 0) then ?::int + "p"."n" else (
  select count(*)
    from "templates" as e
    where e."company_uuid" = ? and e."deleted_at" is null) end as "total", "p"."rows"
  from (
  select coalesce(json_agg(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."name")::text, ("e"."description")::text, ("e"."pricing_type")::text, ("e"."base_price")::text, ("e"."tier_good")::text, ("e"."tier_better")::text, ("e"."tier_best")::text, "e"."addons", ("e"."tax_rate")::text, "e"."external_ids")
        order by e."created_at" desc, e."uuid" desc), '[]'::json) as "rows", count(*)::int as "n"
    from (
    select *
      from "templates" as e
      where e."company_uuid" = ? and e."deleted_at" is null
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "p";

-- list, a page from row 1000 on (keys first, or from the row remembered there under the same change count (remembered-starts.ts))
select (
  select coalesce(sum(kc.live), 0)::bigint
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'templates') as "total", "kv"."changes"::text as "changes", (
  select coalesce(json_agg(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."name")::text, ("e"."description")::text, ("e"."pricing_type")::text, ("e"."base_price")::text, ("e"."tier_good")::text, ("e"."tier_better")::text, ("e"."tier_best")::text, "e"."addons", ("e"."tax_rate")::text, "e"."external_ids")
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from "templates" as e
    where e."uuid" = any(array((select e."uuid" from "templates" as e where (e."company_uuid" = ? and e."deleted_at" is null) and "kv"."changes" = ?::bigint and (e."created_at", e."uuid") <= (?::timestamptz(3), ?::uuid) order by e."created_at" desc, e."uuid" desc limit ? offset ?) union all (select e."uuid" from "templates" as e where (e."company_uuid" = ? and e."deleted_at" is null) and "kv"."changes" is distinct from ?::bigint order by e."created_at" desc, e."uuid" desc limit ? offset ?)))) as "rows"
  from (
  select case when pg_current_xact_id_if_assigned() is null then coalesce(sum(kc.changes), 0)::bigint end as "changes"
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'templates') as "kv";

-- list with its estimates by template
select (
  select coalesce(sum(kc.live), 0)::bigint
    from kept_counts as kc
    where kc.company_uuid = ?::uuid and kc.table_name = 'templates') as "total", (
  select coalesce(json_agg(json_build_array(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."name")::text, ("e"."description")::text, ("e"."pricing_type")::text, ("e"."base_price")::text, ("e"."tier_good")::text, ("e"."tier_better")::text, ("e"."tier_best")::text, "e"."addons", ("e"."tax_rate")::text, "e"."external_ids"), json_build_array((select coalesce(json_agg(json_build_array(("r0"."uuid")::text, ("r0"."company_uuid")::text, "r0"."created_at", "r0"."updated_at", "r0"."deleted_at", ("r0"."estimate_number")::text, ("r0"."customer_uuid")::text, ("r0"."job_uuid")::text, ("r0"."template_uuid")::text, ("r0"."location_uuid")::text, ("r0"."created_by_user_id")::text, ("r0"."status")::text, ("r0"."template_name")::text, ("r0"."pricing_type")::text, ("r0"."selected_tier")::text, ("r0"."base_amount")::text, ("r0"."addons_amount")::text, ("r0"."tax_amount")::text, ("r0"."total_amount")::text, ("r0"."quantity")::text, "r0"."selected_addons", "r0"."adjustments", "r0"."pricing_snapshot", ("r0"."service_description")::text, ("r0"."internal_notes")::text, ("r0"."customer_notes")::text, ("r0"."response_notes")::text, "r0"."expires_at", "r0"."acceptance", "r0"."responded_at", "r0"."custom_fields", "r0"."custom_fields_hidden", "r0"."external_ids") order by "r0"."created_at" desc, "r0"."uuid" desc), '[]'::json) from "estimates" as "r0" where "r0"."company_uuid" = e."company_uuid" and "r0"."template_uuid" = e."uuid" and "r0"."deleted_at" is null)))
        order by e."created_at" desc, e."uuid" desc), '[]'::json)
    from (
    select *
      from "templates" as e
      where e."company_uuid" = ? and e."deleted_at" is null
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "rows";

-- load by uuid (the loaders; the keys one array)
select e."uuid", e."company_uuid", e."created_at", e."updated_at", e."deleted_at", e."name", e."description", e."pricing_type", e."base_price", e."tier_good", e."tier_better", e."tier_best", e."addons", e."tax_rate", e."external_ids"
  from "templates" as e
  where e."company_uuid" = ? and e."uuid" = any(?::uuid[]);

-- read one live record by uuid (readActive, GET of one record; the key a one-element array)
select e."uuid", e."company_uuid", e."created_at", e."updated_at", e."deleted_at", e."name", e."description", e."pricing_type", e."base_price", e."tier_good", e."tier_better", e."tier_best", e."addons", e."tax_rate", e."external_ids"
  from "templates" as e
  where e."company_uuid" = ? and e."uuid" = any(?::uuid[]) and e."deleted_at" is null
  order by e."created_at" desc, e."uuid" desc;
