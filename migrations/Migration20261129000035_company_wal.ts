import { Migration } from '@mikro-orm/migrations';

// Read-your-writes on streaming replicas (docs/scaling.md): where each company's last committed
// write is in the WAL.
//
// A row trigger on every table with company_uuid (and on companies) marks the writing transaction
// in company_write_marks, once per company and transaction (the transaction-local setting
// fsc.marked skips the insert for further rows of the same company). The mark commits with the
// write. A sweep (src/db/replicas.ts, after each commit and every second, in every process) deletes
// the committed marks and raises company_wal.lsn to pg_current_wal_insert_lsn(), both in one transaction.
// A reader asks the primary for the company's target position: pg_current_wal_insert_lsn() while a mark
// of the company is visible (a write committed whose position is not recorded yet), else
// company_wal.lsn; a replica serves the read only when pg_last_wal_replay_lsn() has reached it.
export class Migration20261129000035_company_wal extends Migration {
  async up(): Promise<void> {
    this.addSql(`create table company_write_marks (
      xid xid8 not null default pg_current_xact_id(),
      company_uuid uuid not null,
      primary key (xid, company_uuid)
    )`);
    this.addSql(`create index company_write_marks_company_idx on company_write_marks (company_uuid)`);
    this.addSql(`create table company_wal (
      company_uuid uuid primary key,
      lsn pg_lsn not null
    )`);
    this.addSql(`create function fsc_mark_company_write() returns trigger language plpgsql as $$
      declare c uuid;
      begin
        if tg_op = 'DELETE' then c := old.company_uuid; else c := new.company_uuid; end if;
        if c is null or current_setting('fsc.marked', true) = c::text then return null; end if;
        insert into company_write_marks (company_uuid) values (c) on conflict do nothing;
        perform set_config('fsc.marked', c::text, true);
        -- An update that moves a row to another company (none does) marks the old one too.
        if tg_op = 'UPDATE' and old.company_uuid is distinct from c then
          insert into company_write_marks (company_uuid) values (old.company_uuid) on conflict do nothing;
        end if;
        return null;
      end $$`);
    this.addSql(`create function fsc_mark_company_row_write() returns trigger language plpgsql as $$
      declare c uuid;
      begin
        if tg_op = 'DELETE' then c := old.uuid; else c := new.uuid; end if;
        if current_setting('fsc.marked', true) = c::text then return null; end if;
        insert into company_write_marks (company_uuid) values (c) on conflict do nothing;
        perform set_config('fsc.marked', c::text, true);
        return null;
      end $$`);
    // A table made later gets its trigger from its migration: select fsc_track_company_writes('<table>').
    this.addSql(`create function fsc_track_company_writes(t regclass) returns void language plpgsql as $$
      begin
        execute format('create trigger %I after insert or update or delete on %s for each row execute function fsc_mark_company_write()', 'company_wal_' || (select relname from pg_class where oid = t), t);
      end $$`);
    this.addSql(`do $$
      declare r record;
      begin
        for r in select c.table_name from information_schema.columns c join information_schema.tables t using (table_schema, table_name)
                 where c.table_schema = 'public' and c.column_name = 'company_uuid' and t.table_type = 'BASE TABLE'
                   and c.table_name not in ('company_write_marks', 'company_wal')
        loop
          perform fsc_track_company_writes(r.table_name::regclass);
        end loop;
      end $$`);
    this.addSql(`create trigger company_wal_companies after insert or update or delete on companies for each row execute function fsc_mark_company_row_write()`);
  }

  async down(): Promise<void> {
    this.addSql(`do $$
      declare r record;
      begin
        for r in select tgname, tgrelid::regclass as t from pg_trigger where tgname like 'company_wal_%' loop
          execute format('drop trigger %I on %s', r.tgname, r.t);
        end loop;
      end $$`);
    this.addSql(`drop function fsc_track_company_writes(regclass)`);
    this.addSql(`drop function fsc_mark_company_row_write()`);
    this.addSql(`drop function fsc_mark_company_write()`);
    this.addSql(`drop table company_wal`);
    this.addSql(`drop table company_write_marks`);
  }
}
