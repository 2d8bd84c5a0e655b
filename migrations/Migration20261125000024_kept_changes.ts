import { Migration } from '@mikro-orm/migrations';

// A change count beside each kept count (docs/benchmark.md, "Remembered totals"; issues 14 and
// 20): `kept_counts.changes`, per company and table, the number of rows every statement inserted,
// updated or deleted, kept by the same statement-level triggers and slots as the counts of
// migration 0016 (no change waits for another transaction's). It only grows (TRUNCATE adds one to
// every slot of the table instead of deleting them), so two snapshots that see the same sum have
// seen the same committed changes of the company's rows: a list whose conditions read only the
// listed row may reuse an exact total counted under the same sum (src/data/remembered-totals.ts).
//
// The functions are 0016's with the change count added; down() puts 0016's back.

const apply = (deltas: string, changes: boolean) => `
      declare r record; taken bigint;
      begin
        for r in select company_uuid, sum(l) as l, sum(a) as a${changes ? ', sum(c) as c' : ''} from (${deltas}) as x
                 group by company_uuid having sum(l) <> 0 or sum(a) <> 0${changes ? ' or sum(c) <> 0' : ''} order by company_uuid loop
          select kc.slot into taken from kept_counts as kc where kc.company_uuid = r.company_uuid and kc.table_name = TG_TABLE_NAME
            limit 1 for update skip locked;
          if found then
            update kept_counts set live = live + r.l, all_rows = all_rows + r.a${changes ? ', changes = changes + r.c' : ''}
              where company_uuid = r.company_uuid and table_name = TG_TABLE_NAME and slot = taken;
          else
            insert into kept_counts (company_uuid, table_name, slot, live, all_rows${changes ? ', changes' : ''})
              values (r.company_uuid, TG_TABLE_NAME, nextval('kept_counts_slot_seq'), r.l, r.a${changes ? ', r.c' : ''});
          end if;
        end loop;
        return null;
      end`;

/** The trigger functions: 0016's (`changes` false) or with the change count. */
function functions(changes: boolean): string[] {
  // Every row of the statement counts one change: rows added, rows removed, and both images of an
  // updated row (a row moved to another company changes both companies).
  const c = changes ? ', 1 as c' : '';
  const added = (rows: string) => `select company_uuid, (deleted_at is null)::int as l, 1 as a${c} from ${rows}`;
  const removed = (rows: string) => `select company_uuid, -(deleted_at is null)::int as l, -1 as a${c} from ${rows}`;
  const truncated = changes
    ? `update kept_counts set live = 0, all_rows = 0, changes = changes + 1 where table_name = TG_TABLE_NAME;`
    : `delete from kept_counts where table_name = TG_TABLE_NAME;`;
  return [
    `create or replace function kept_counts_inserted() returns trigger language plpgsql as $$ ${apply(added('new_rows'), changes)} $$`,
    `create or replace function kept_counts_deleted() returns trigger language plpgsql as $$ ${apply(removed('old_rows'), changes)} $$`,
    `create or replace function kept_counts_updated() returns trigger language plpgsql as $$ ${apply(`${added('new_rows')} union all ${removed('old_rows')}`, changes)} $$`,
    `create or replace function kept_counts_truncated() returns trigger language plpgsql as $$
      begin
        ${truncated}
        return null;
      end $$`,
  ];
}

export class Migration20261125000024_kept_changes extends Migration {
  async up(): Promise<void> {
    this.addSql(`alter table kept_counts add column changes bigint not null default 0`);
    for (const f of functions(true)) this.addSql(f);
  }

  async down(): Promise<void> {
    for (const f of functions(false)) this.addSql(f);
    this.addSql(`delete from kept_counts where live = 0 and all_rows = 0`);
    this.addSql(`alter table kept_counts drop column changes`);
  }
}
