import { Migration } from '@mikro-orm/migrations';

// Live counts of the numbered documents (jobs, estimates, invoices, payments) per company, kept
// by triggers in the same transaction as every change, so that a list without filters reads its
// total from one row instead of counting the company's rows: counting 50,000 invoices cost ~3.5 ms
// of the database's time on every page, more than the page itself.
//
// Exact: each statement that inserts, deletes, soft-deletes or restores documents notes its
// change per company in document_counts_pending (one row per statement and company, over the
// statement's transition table: a bulk insert of 50,000 rows is one row); at commit, a deferred
// trigger moves the transaction's notes into document_counts. Both tables change with the
// transaction, so a list, which reads the rows and `live` plus the pending notes in one
// statement, gets its total from the same snapshot as its rows; the notes it sees are its own
// transaction's (others' are uncommitted, or gone at their commit).
//
// The count rows are locked at commit only, in one order (company, table), after everything else
// the transaction does: a count row locked by a statement would be held while the transaction
// goes on to lock other rows (deleting an invoice locks its job after the invoice; creating one
// locks the job before inserting), and two such transactions deadlocked.
//
// Only numbered documents: a count row is locked while its transaction commits, and a document's
// creation already holds its company's numbering lock (numbering_settings or company_sequences)
// until then, so the count adds no waiting; customers, locations, templates and photos are
// created without such a lock and are counted by their indexes. TRUNCATE of a table clears its counts.
//
// The list of tables must stay identical to COUNTED_TABLES in src/data/document-counts.ts.
const TABLES = ['jobs', 'estimates', 'invoices', 'payments'];

export class Migration20261121000009_document_counts extends Migration {
  async up(): Promise<void> {
    this.addSql(`create table document_counts (
      company_uuid uuid not null,
      table_name text not null,
      live bigint not null,
      primary key (company_uuid, table_name)
    )`);
    this.addSql(`create table document_counts_pending (
      company_uuid uuid not null,
      table_name text not null,
      n bigint not null,
      txid bigint not null default txid_current()
    )`);
    this.addSql(`create index document_counts_pending_txid_idx on document_counts_pending (txid)`);
    // At commit (or SET CONSTRAINTS … IMMEDIATE), the first of the transaction's notes moves them
    // all, in order; the others find nothing left.
    this.addSql(`create function document_counts_commit() returns trigger language plpgsql as $$
      begin
        with moved as (delete from document_counts_pending where txid = txid_current() returning company_uuid, table_name, n)
        insert into document_counts as dc (company_uuid, table_name, live)
        select company_uuid, table_name, sum(n) from moved group by company_uuid, table_name having sum(n) <> 0
        order by company_uuid, table_name
        on conflict (company_uuid, table_name) do update set live = dc.live + excluded.live;
        return null;
      end $$`);
    this.addSql(`create constraint trigger document_counts_pending_commit after insert on document_counts_pending
      deferrable initially deferred for each row execute function document_counts_commit()`);
    const apply = (deltas: string) => `
      insert into document_counts_pending (company_uuid, table_name, n)
      select company_uuid, TG_TABLE_NAME, sum(d) from (${deltas}) as x
      group by company_uuid having sum(d) <> 0`;
    this.addSql(`create function document_counts_inserted() returns trigger language plpgsql as $$
      begin ${apply(`select company_uuid, 1 as d from new_rows where deleted_at is null`)}; return null; end $$`);
    this.addSql(`create function document_counts_deleted() returns trigger language plpgsql as $$
      begin ${apply(`select company_uuid, -1 as d from old_rows where deleted_at is null`)}; return null; end $$`);
    this.addSql(`create function document_counts_updated() returns trigger language plpgsql as $$
      begin ${apply(`select company_uuid, 1 as d from new_rows where deleted_at is null union all select company_uuid, -1 from old_rows where deleted_at is null`)}; return null; end $$`);
    this.addSql(`create function document_counts_truncated() returns trigger language plpgsql as $$
      begin
        delete from document_counts where table_name = TG_TABLE_NAME;
        delete from document_counts_pending where table_name = TG_TABLE_NAME;
        return null;
      end $$`);
    for (const t of TABLES) {
      // No change of the table between its count and its triggers (CREATE TRIGGER would wait for
      // this lock anyway); the counts start from the rows as they are.
      this.addSql(`lock table ${t} in share row exclusive mode`);
      this.addSql(`insert into document_counts (company_uuid, table_name, live) select company_uuid, '${t}', count(*) from ${t} where deleted_at is null group by company_uuid`);
      this.addSql(`create trigger ${t}_count_insert after insert on ${t} referencing new table as new_rows for each statement execute function document_counts_inserted()`);
      this.addSql(`create trigger ${t}_count_update after update on ${t} referencing old table as old_rows new table as new_rows for each statement execute function document_counts_updated()`);
      this.addSql(`create trigger ${t}_count_delete after delete on ${t} referencing old table as old_rows for each statement execute function document_counts_deleted()`);
      this.addSql(`create trigger ${t}_count_truncate after truncate on ${t} for each statement execute function document_counts_truncated()`);
    }
  }

  async down(): Promise<void> {
    for (const t of TABLES) {
      for (const e of ['insert', 'update', 'delete', 'truncate']) this.addSql(`drop trigger if exists ${t}_count_${e} on ${t}`);
    }
    for (const f of ['inserted', 'deleted', 'updated', 'truncated']) this.addSql(`drop function if exists document_counts_${f}()`);
    this.addSql(`drop table if exists document_counts_pending`);
    this.addSql(`drop function if exists document_counts_commit()`);
    this.addSql(`drop table if exists document_counts`);
  }
}
