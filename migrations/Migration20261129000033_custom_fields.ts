import { Migration } from '@mikro-orm/migrations';

// Custom fields, tags and external ids (docs/custom-fields.md).
// - custom_field_definitions: a company's typed fields per resource; a key is the company's for
//   that resource for good (a deleted definition keeps it, so restoring it finds its values).
// - custom_fields (shown) and custom_fields_hidden (the values of deleted definitions, kept and
//   moved back on restore) on the six resources that carry values; a GIN index on jsonb_path_ops
//   serves the equality filters (`custom_fields @> '{"k": v}'`).
// - tags on customers and jobs, matched case-insensitively through lower_tags (GIN).
// - external_ids (`{"source": "id"}`) on every resource, each pair claimed in external_ids, whose
//   primary key makes one (company, resource, source, id) one record's; the claim is an
//   INSERT … ON CONFLICT DO NOTHING in a trigger, so concurrent writers of one id wait for each
//   other and all but the first are refused (SQLSTATE 23505, constraint external_id_taken).
export const VALUE_TABLES = ['customers', 'locations', 'jobs', 'visits', 'estimates', 'invoices'];
export const EXTERNAL_TABLES = [...VALUE_TABLES, 'payments', 'templates'];

export class Migration20261129000033_custom_fields extends Migration {
  async up(): Promise<void> {
    this.addSql(`create table custom_field_definitions (
      uuid uuid primary key,
      company_uuid uuid not null references companies (uuid) on delete cascade,
      resource text not null,
      key text not null,
      label text not null,
      type text not null,
      options jsonb,
      required boolean not null default false,
      default_value jsonb,
      show_on_documents boolean not null default false,
      position integer not null default 0,
      created_at timestamptz(3) not null,
      updated_at timestamptz(3) not null,
      deleted_at timestamptz(3)
    )`);
    this.addSql(`create unique index custom_field_definitions_key_idx on custom_field_definitions (company_uuid, resource, key)`);
    for (const t of VALUE_TABLES) {
      this.addSql(`alter table ${t} add column custom_fields jsonb not null default '{}', add column custom_fields_hidden jsonb not null default '{}'`);
      this.addSql(`create index ${t}_custom_fields_idx on ${t} using gin (custom_fields jsonb_path_ops)`);
    }
    this.addSql(`create function lower_tags(text[]) returns text[] language sql immutable parallel safe as $$ select array(select lower(t) from unnest($1) as t) $$`);
    for (const t of ['customers', 'jobs']) {
      this.addSql(`alter table ${t} add column tags text[] not null default '{}'`);
      this.addSql(`create index ${t}_tags_idx on ${t} using gin (lower_tags(tags))`);
    }
    this.addSql(`create table external_ids (
      company_uuid uuid not null references companies (uuid) on delete cascade,
      resource text not null,
      source text not null,
      external_id text not null,
      record_uuid uuid not null,
      primary key (company_uuid, resource, source, external_id)
    )`);
    this.addSql(`create index external_ids_record_idx on external_ids (record_uuid)`);
    // Keeps external_ids in step with a row's external_ids column; TG_ARGV[0] is the resource.
    this.addSql(`create function external_ids_claim() returns trigger language plpgsql as $$
      declare pair record; holder uuid;
      begin
        if TG_OP = 'UPDATE' and new.external_ids = old.external_ids then return null; end if;
        delete from external_ids x where x.company_uuid = new.company_uuid and x.resource = TG_ARGV[0] and x.record_uuid = new.uuid
          and (new.external_ids ->> x.source) is distinct from x.external_id;
        for pair in select key, value from jsonb_each_text(new.external_ids) loop
          insert into external_ids (company_uuid, resource, source, external_id, record_uuid)
            values (new.company_uuid, TG_ARGV[0], pair.key, pair.value, new.uuid) on conflict do nothing;
          select x.record_uuid into holder from external_ids x
            where x.company_uuid = new.company_uuid and x.resource = TG_ARGV[0] and x.source = pair.key and x.external_id = pair.value;
          if holder <> new.uuid then
            raise exception 'external id taken' using errcode = '23505', constraint = 'external_id_taken', column = pair.key, detail = holder::text;
          end if;
        end loop;
        return null;
      end $$`);
    for (const t of EXTERNAL_TABLES) {
      this.addSql(`alter table ${t} add column external_ids jsonb not null default '{}'`);
      const resource = t.replace(/s$/, '');
      this.addSql(`create trigger ${t}_external_ids_insert after insert on ${t} for each row when (new.external_ids <> '{}') execute function external_ids_claim('${resource}')`);
      this.addSql(`create trigger ${t}_external_ids_update after update of external_ids on ${t} for each row execute function external_ids_claim('${resource}')`);
    }
  }

  async down(): Promise<void> {
    for (const t of EXTERNAL_TABLES) {
      this.addSql(`drop trigger ${t}_external_ids_insert on ${t}`);
      this.addSql(`drop trigger ${t}_external_ids_update on ${t}`);
      this.addSql(`alter table ${t} drop column external_ids`);
    }
    this.addSql(`drop function external_ids_claim()`);
    this.addSql(`drop table external_ids`);
    for (const t of ['customers', 'jobs']) this.addSql(`alter table ${t} drop column tags`);
    this.addSql(`drop function lower_tags(text[])`);
    for (const t of VALUE_TABLES) this.addSql(`alter table ${t} drop column custom_fields, drop column custom_fields_hidden`);
    this.addSql(`drop table custom_field_definitions`);
  }
}
