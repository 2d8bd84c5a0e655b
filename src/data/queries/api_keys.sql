-- api_keys: every statement the read model runs on it (src/data/list.ts, src/data/keyed.ts), written by `npm run sql`.
-- Each ? is a parameter; the company's key is passed to every statement.

-- list: a page of the live rows, newest first, and their total
select case when "p"."n" < ?::int and ("p"."n" > 0 or ?::int = 0) then ?::int + "p"."n" else (
  select count(*)
    from "api_keys" as e
    where e."company_uuid" = ?) end as "total", "p"."rows"
  from (
  select coalesce(json_agg(json_build_array(("e"."id")::text, ("e"."company_uuid")::text, ("e"."user_id")::text, ("e"."key_hash")::text, ("e"."key_prefix")::text, ("e"."name")::text, "e"."scopes", "e"."allowed_ips", "e"."usage_limit", ("e"."usage_period")::text, "e"."created_at", "e"."last_used_at", "e"."revoked_at")
        order by e."created_at" desc, e."id" desc), '[]'::json) as "rows", count(*)::int as "n"
    from (
    select *
      from "api_keys" as e
      where e."company_uuid" = ?
      order by e."created_at" desc, e."id" desc
      limit ? offset ?) as e) as "p";

-- list, a page from row 1000 on (keys first)
select case when "p"."n" < ?::int and ("p"."n" > 0 or ?::int = 0) then ?::int + "p"."n" else (
  select count(*)
    from "api_keys" as e
    where e."company_uuid" = ?) end as "total", "p"."rows"
  from (
  select coalesce(json_agg(json_build_array(("e"."id")::text, ("e"."company_uuid")::text, ("e"."user_id")::text, ("e"."key_hash")::text, ("e"."key_prefix")::text, ("e"."name")::text, "e"."scopes", "e"."allowed_ips", "e"."usage_limit", ("e"."usage_period")::text, "e"."created_at", "e"."last_used_at", "e"."revoked_at")
        order by e."created_at" desc, e."id" desc), '[]'::json) as "rows", count(*)::int as "n"
    from "api_keys" as e
    where e."id" = any(array(
      select e."id"
        from "api_keys" as e
        where e."company_uuid" = ?
        order by e."created_at" desc, e."id" desc
        limit ? offset ?))) as "p";

-- list with its user
select case when "p"."n" < ?::int and ("p"."n" > 0 or ?::int = 0) then ?::int + "p"."n" else (
  select count(*)
    from "api_keys" as e
    where e."company_uuid" = ?) end as "total", "p"."rows"
  from (
  select coalesce(json_agg(json_build_array(json_build_array(("e"."id")::text, ("e"."company_uuid")::text, ("e"."user_id")::text, ("e"."key_hash")::text, ("e"."key_prefix")::text, ("e"."name")::text, "e"."scopes", "e"."allowed_ips", "e"."usage_limit", ("e"."usage_period")::text, "e"."created_at", "e"."last_used_at", "e"."revoked_at"), json_build_array((select json_build_array(("r0"."id")::text, ("r0"."company_uuid")::text, ("r0"."first_name")::text, ("r0"."last_name")::text, ("r0"."email")::text, ("r0"."phone")::text, ("r0"."role")::text, "r0"."active", "r0"."created_at", "r0"."updated_at") from "users" as "r0" where "r0"."company_uuid" = e."company_uuid" and "r0"."id" = e."user_id")))
        order by e."created_at" desc, e."id" desc), '[]'::json) as "rows", count(*)::int as "n"
    from (
    select *
      from "api_keys" as e
      where e."company_uuid" = ?
      order by e."created_at" desc, e."id" desc
      limit ? offset ?) as e) as "p";

-- load by id (the loaders; the keys one array)
select e."id", e."company_uuid", e."user_id", e."key_hash", e."key_prefix", e."name", e."scopes", e."allowed_ips", e."usage_limit", e."usage_period", e."created_at", e."last_used_at", e."revoked_at"
  from "api_keys" as e
  where e."company_uuid" = ? and e."id" = any(?::uuid[]);
