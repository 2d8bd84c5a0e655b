import { Migration } from '@mikro-orm/migrations';
import { Migration20261121000009_document_counts } from './Migration20261121000009_document_counts';

// Kept counts for every list of a company's records (docs/benchmark.md, "Kept counts"): the
// numbered documents of migration 0009, and now customers, locations and templates, whose
// unfiltered lists counted their rows on every request (an index-only scan of 100,000 customers
// cost ~5–7 ms, ten times that at a million). Each (company, table) keeps two numbers: its live
// rows (the default list) and all its rows (`include_deleted`).
//
// Each (company, table) count is split into slots, rows `(company_uuid, table_name, slot)`; the
// count is the sum of its slots. Every statement that inserts, deletes or updates rows (soft
// delete, restore, a change of company) adds its change per company, over its transition tables,
// to one slot, in the same transaction: a slot that no other transaction holds (FOR UPDATE SKIP
// LOCKED), or, when every slot of the count is held, a new slot (a number from a sequence, which no
// other transaction can be inserting). So a change never waits for another transaction's count:
// concurrent creates in a company are not serialised, and a count row can take part in no
// deadlock (a transaction never waits on one). A count has as many slots as the most
// transactions that ever changed it at the same time. The slot stays held until the transaction
// ends; a list reads the counts in the same statement (snapshot) as its rows, its own
// transaction's changes included.
//
// This replaces 0009's notes moved at commit (document_counts_pending): those made no statement
// wait, but a creation's commit waited for any other commit of the same count; and the note, its
// deletion at commit and the upsert cost a customer create ~20–25% (docs/benchmark.md, "Growth").
//
// The list of tables must stay identical to KEPT_TABLES in src/data/kept-counts.ts (a test
// compares them with the triggers in the database).
const KEPT_COUNT_TABLES = ['jobs', 'estimates', 'invoices', 'payments', 'customers', 'locations', 'templates'];
const OLD_TABLES = ['jobs', 'estimates', 'invoices', 'payments'];

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
      slot bigint not null,
      live bigint not null,
      all_rows bigint not null,
      primary key (company_uuid, table_name, slot)
    )`);
    this.addSql(`create sequence kept_counts_slot_seq`);
    // Per company: the statement's change, live (0 or 1 per row) and all (1), plus for rows added,
    // minus for rows removed; added to a free slot, else to a new one.
    const apply = (deltas: string) => `
      declare r record; taken bigint;
      begin
        for r in select company_uuid, sum(l) as l, sum(a) as a from (${deltas}) as x
                 group by company_uuid having sum(l) <> 0 or sum(a) <> 0 order by company_uuid loop
          select kc.slot into taken from kept_counts as kc where kc.company_uuid = r.company_uuid and kc.table_name = TG_TABLE_NAME
            limit 1 for update skip locked;
          if found then
            update kept_counts set live = live + r.l, all_rows = all_rows + r.a
              where company_uuid = r.company_uuid and table_name = TG_TABLE_NAME and slot = taken;
          else
            insert into kept_counts (company_uuid, table_name, slot, live, all_rows)
              values (r.company_uuid, TG_TABLE_NAME, nextval('kept_counts_slot_seq'), r.l, r.a);
          end if;
        end loop;
        return null;
      end`;
    const added = (rows: string) => `select company_uuid, (deleted_at is null)::int as l, 1 as a from ${rows}`;
    const removed = (rows: string) => `select company_uuid, -(deleted_at is null)::int as l, -1 as a from ${rows}`;
    this.addSql(`create function kept_counts_inserted() returns trigger language plpgsql as $$ ${apply(added('new_rows'))} $$`);
    this.addSql(`create function kept_counts_deleted() returns trigger language plpgsql as $$ ${apply(removed('old_rows'))} $$`);
    this.addSql(`create function kept_counts_updated() returns trigger language plpgsql as $$ ${apply(`${added('new_rows')} union all ${removed('old_rows')}`)} $$`);
    this.addSql(`create function kept_counts_truncated() returns trigger language plpgsql as $$
      begin
        delete from kept_counts where table_name = TG_TABLE_NAME;
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
    this.addSql(`drop table if exists kept_counts`);
    this.addSql(`drop sequence if exists kept_counts_slot_seq`);
    // Migration 0009 as it was applied: its tables, functions and triggers, counting the rows there.
    const before = new Migration20261121000009_document_counts(this.driver, this.config);
    await before.up();
    for (const q of before.getQueries()) this.addSql(q);
  }
}
