import { Migration } from '@mikro-orm/migrations';
import { Migration20261121000009_document_counts } from './Migration20261121000009_document_counts';

// Kept counts for every list of a company's records (docs/benchmark.md, "Kept counts"): the
// numbered documents of migration 0009, and now customers, locations and templates, whose
// unfiltered lists counted their rows on every request (an index-only scan of 100,000 customers
// cost ~5–7 ms, ten times that at a million). Each (company, table) keeps two numbers: its live
// rows (the default list) and all its rows (`include_deleted`).
//
// The mechanism of 0009, unchanged in its parts: each statement that inserts, deletes or updates
// rows (soft delete, restore, a change of company) notes its change per company in
// kept_counts_pending, over its transition tables, in the same transaction; at commit a deferred
// trigger moves the transaction's notes into kept_counts, as the last thing the transaction does,
// locking the count rows in one order (company, table): no deadlock with the transaction's other locks.
//
// New: a count is split into up to 16 slots, and a commit adds its change to one slot picked at
// random; the count is the sum of the slots. A customer's creation holds no other lock of its
// company (a numbered document's holds its numbering row anyway), so one count row per company
// would have made concurrent creates in a company wait for each other's commit; with 16 slots,
// two commits wait only when they pick the same slot, and then only for the other's commit.
//
// The list of tables must stay identical to KEPT_TABLES in src/data/kept-counts.ts (a test
// compares them with the triggers in the database).
const KEPT_COUNT_TABLES = ['jobs', 'estimates', 'invoices', 'payments', 'customers', 'locations', 'templates'];
const OLD_TABLES = ['jobs', 'estimates', 'invoices', 'payments'];
const KEPT_COUNT_SLOTS = 16;

export class Migration20261125000016_kept_counts extends Migration {
  async up(): Promise<void> {
    // 0009's objects go; its triggers on the numbered documents are made again below.
    for (const t of OLD_TABLES) for (const e of ['insert', 'update', 'delete', 'truncate']) this.addSql(`drop trigger if exists ${t}_count_${e} on ${t}`);
    for (const f of ['inserted', 'deleted', 'updated', 'truncated']) this.addSql(`drop function if exists document_counts_${f}()`);
    this.addSql(`drop table if exists document_counts_pending`);
    this.addSql(`drop function if exists document_counts_commit()`);
    this.addSql(`drop table if exists document_counts`);

    this.addSql(`create table kept_counts (
      company_uuid uuid not null,
      table_name text not null,
      slot smallint not null check (slot >= 0 and slot < ${KEPT_COUNT_SLOTS}),
      live bigint not null,
      all_rows bigint not null,
      primary key (company_uuid, table_name, slot)
    )`);
    this.addSql(`create table kept_counts_pending (
      company_uuid uuid not null,
      table_name text not null,
      live bigint not null,
      all_rows bigint not null,
      txid bigint not null default txid_current()
    )`);
    this.addSql(`create index kept_counts_pending_txid_idx on kept_counts_pending (txid)`);
    // At commit (or SET CONSTRAINTS … IMMEDIATE), the first of the transaction's notes moves them
    // all, in order, each (company, table) into one slot picked at random; the others find nothing left.
    this.addSql(`create function kept_counts_commit() returns trigger language plpgsql as $$
      begin
        with moved as (delete from kept_counts_pending where txid = txid_current() returning company_uuid, table_name, live, all_rows)
        insert into kept_counts as kc (company_uuid, table_name, slot, live, all_rows)
        select company_uuid, table_name, floor(random() * ${KEPT_COUNT_SLOTS})::smallint, sum(live), sum(all_rows) from moved
        group by company_uuid, table_name having sum(live) <> 0 or sum(all_rows) <> 0
        order by company_uuid, table_name
        on conflict (company_uuid, table_name, slot) do update set live = kc.live + excluded.live, all_rows = kc.all_rows + excluded.all_rows;
        return null;
      end $$`);
    this.addSql(`create constraint trigger kept_counts_pending_commit after insert on kept_counts_pending
      deferrable initially deferred for each row execute function kept_counts_commit()`);
    // Per row of a statement: live (0 or 1) and all (1), plus for rows added, minus for rows removed.
    const apply = (deltas: string) => `
      insert into kept_counts_pending (company_uuid, table_name, live, all_rows)
      select company_uuid, TG_TABLE_NAME, sum(l), sum(a) from (${deltas}) as x
      group by company_uuid having sum(l) <> 0 or sum(a) <> 0`;
    const added = (rows: string) => `select company_uuid, (deleted_at is null)::int as l, 1 as a from ${rows}`;
    const removed = (rows: string) => `select company_uuid, -(deleted_at is null)::int as l, -1 as a from ${rows}`;
    this.addSql(`create function kept_counts_inserted() returns trigger language plpgsql as $$
      begin ${apply(added('new_rows'))}; return null; end $$`);
    this.addSql(`create function kept_counts_deleted() returns trigger language plpgsql as $$
      begin ${apply(removed('old_rows'))}; return null; end $$`);
    this.addSql(`create function kept_counts_updated() returns trigger language plpgsql as $$
      begin ${apply(`${added('new_rows')} union all ${removed('old_rows')}`)}; return null; end $$`);
    this.addSql(`create function kept_counts_truncated() returns trigger language plpgsql as $$
      begin
        delete from kept_counts where table_name = TG_TABLE_NAME;
        delete from kept_counts_pending where table_name = TG_TABLE_NAME;
        return null;
      end $$`);
    for (const t of KEPT_COUNT_TABLES) {
      // No change of the table between its count and its triggers (CREATE TRIGGER would wait for
      // this lock anyway); the counts start from the rows as they are, in slot 0.
      this.addSql(`lock table ${t} in share row exclusive mode`);
      this.addSql(
        `insert into kept_counts (company_uuid, table_name, slot, live, all_rows) ` +
          `select company_uuid, '${t}', 0, count(*) filter (where deleted_at is null), count(*) from ${t} group by company_uuid`,
      );
      this.addSql(`create trigger ${t}_count_insert after insert on ${t} referencing new table as new_rows for each statement execute function kept_counts_inserted()`);
      this.addSql(`create trigger ${t}_count_update after update on ${t} referencing old table as old_rows new table as new_rows for each statement execute function kept_counts_updated()`);
      this.addSql(`create trigger ${t}_count_delete after delete on ${t} referencing old table as old_rows for each statement execute function kept_counts_deleted()`);
      this.addSql(`create trigger ${t}_count_truncate after truncate on ${t} for each statement execute function kept_counts_truncated()`);
    }
  }

  async down(): Promise<void> {
    for (const t of KEPT_COUNT_TABLES) {
      for (const e of ['insert', 'update', 'delete', 'truncate']) this.addSql(`drop trigger if exists ${t}_count_${e} on ${t}`);
    }
    for (const f of ['inserted', 'deleted', 'updated', 'truncated']) this.addSql(`drop function if exists kept_counts_${f}()`);
    this.addSql(`drop table if exists kept_counts_pending`);
    this.addSql(`drop function if exists kept_counts_commit()`);
    this.addSql(`drop table if exists kept_counts`);
    // Migration 0009 as it was applied: its tables, functions and triggers, counting the rows there.
    const before = new Migration20261121000009_document_counts(this.driver, this.config);
    await before.up();
    for (const q of before.getQueries()) this.addSql(q);
  }
}
