import { Migration } from '@mikro-orm/migrations';

// Every change of an API key, a company or a user notifies the channel `fsc_access`, which each
// server process LISTENs on to empty its API key cache (src/auth/key-cache.ts,
// docs/access-and-operations.md): revocation, add-ons, IP allow-lists and usage limits then apply
// to the next request in every process, whichever process or SQL session made the change.
//
// Statement triggers (one notification per statement, and PostgreSQL folds equal notifications
// of one transaction into one), sent at commit, never for a rolled-back change. Inserts notify
// nothing: a new row cannot make a kept row stale (keys are unique; missing keys are not kept).
// The tables must stay identical to ACCESS_TABLES in src/auth/key-cache.ts (test/http/key-cache.spec.ts).
const TABLES = ['api_keys', 'companies', 'users'];

export class Migration20261125000020_access_notify extends Migration {
  async up(): Promise<void> {
    this.addSql(`create or replace function access_changed() returns trigger language plpgsql as $$
begin
  perform pg_notify('fsc_access', tg_table_name);
  return null;
end $$`);
    for (const t of TABLES) {
      this.addSql(`create trigger ${t}_access_notify after update or delete on ${t} for each statement execute function access_changed()`);
      this.addSql(`create trigger ${t}_access_notify_truncate after truncate on ${t} for each statement execute function access_changed()`);
    }
    // Changes made while the triggers were away (this migration reverted, then applied again,
    // with migrations below it changing companies meanwhile) reach no cache: empty them all.
    this.addSql(`select pg_notify('fsc_access', 'migration')`);
  }

  async down(): Promise<void> {
    for (const t of TABLES) {
      this.addSql(`drop trigger if exists ${t}_access_notify on ${t}`);
      this.addSql(`drop trigger if exists ${t}_access_notify_truncate on ${t}`);
    }
    this.addSql(`drop function if exists access_changed()`);
    // From here on, changes notify nothing: no process may keep what it has.
    this.addSql(`select pg_notify('fsc_access', 'migration')`);
  }
}
