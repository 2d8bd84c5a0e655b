-- custom_field_definitions: every statement the read model runs on it (src/data/list.ts, src/data/keyed.ts), written by `npm run sql`.
-- Each ? is a parameter; the company's key is passed to every statement.

-- list: a page of the live rows, newest first, and their total
select case when "p"."n" < ?::int and ("p"."n" > 0 or ?::int = 0) then ?::int + "p"."n" else (
  select count(*)
    from "custom_field_definitions" as e
    where e."company_uuid" = ? and e."deleted_at" is null) end as "total", "p"."rows"
  from (
  select coalesce(json_agg(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."resource")::text, ("e"."key")::text, ("e"."label")::text, ("e"."type")::text, "e"."options", "e"."required", "e"."default_value", "e"."show_on_documents", "e"."position")
        order by e."created_at" desc, e."uuid" desc), '[]'::json) as "rows", count(*)::int as "n"
    from (
    select *
      from "custom_field_definitions" as e
      where e."company_uuid" = ? and e."deleted_at" is null
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "p";

-- list with include_deleted: all the rows, and their total
select case when "p"."n" < ?::int and ("p"."n" > 0 or ?::int = 0) then ?::int + "p"."n" else (
  select count(*)
    from "custom_field_definitions" as e
    where e."company_uuid" = ?) end as "total", "p"."rows"
  from (
  select coalesce(json_agg(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."resource")::text, ("e"."key")::text, ("e"."label")::text, ("e"."type")::text, "e"."options", "e"."required", "e"."default_value", "e"."show_on_documents", "e"."position")
        order by e."created_at" desc, e."uuid" desc), '[]'::json) as "rows", count(*)::int as "n"
    from (
    select *
      from "custom_field_definitions" as e
      where e."company_uuid" = ?
      order by e."created_at" desc, e."uuid" desc
      limit ? offset ?) as e) as "p";

-- list, a page from row 1000 on (keys first)
select case when "p"."n" < ?::int and ("p"."n" > 0 or ?::int = 0) then ?::int + "p"."n" else (
  select count(*)
    from "custom_field_definitions" as e
    where e."company_uuid" = ? and e."deleted_at" is null) end as "total", "p"."rows"
  from (
  select coalesce(json_agg(json_build_array(("e"."uuid")::text, ("e"."company_uuid")::text, "e"."created_at", "e"."updated_at", "e"."deleted_at", ("e"."resource")::text, ("e"."key")::text, ("e"."label")::text, ("e"."type")::text, "e"."options", "e"."required", "e"."default_value", "e"."show_on_documents", "e"."position")
        order by e."created_at" desc, e."uuid" desc), '[]'::json) as "rows", count(*)::int as "n"
    from "custom_field_definitions" as e
    where e."uuid" = any(array(
      select e."uuid"
        from "custom_field_definitions" as e
        where e."company_uuid" = ? and e."deleted_at" is null
        order by e."created_at" desc, e."uuid" desc
        limit ? offset ?))) as "p";

-- load by uuid (the loaders; the keys one array)
select e."uuid", e."company_uuid", e."created_at", e."updated_at", e."deleted_at", e."resource", e."key", e."label", e."type", e."options", e."required", e."default_value", e."show_on_documents", e."position"
  from "custom_field_definitions" as e
  where e."company_uuid" = ? and e."uuid" = any(?::uuid[]);

-- read one live record by uuid (readActive, GET of one record; the key a one-element array)
select e."uuid", e."company_uuid", e."created_at", e."updated_at", e."deleted_at", e."resource", e."key", e."label", e."type", e."options", e."required", e."default_value", e."show_on_documents", e."position"
  from "custom_field_definitions" as e
  where e."company_uuid" = ? and e."uuid" = any(?::uuid[]) and e."deleted_at" is null
  order by e."created_at" desc, e."uuid" desc;
