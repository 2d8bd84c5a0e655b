import { Migration } from '@mikro-orm/migrations';

// A key's last_used_at (src/auth/last-used.ts) is bookkeeping of the request, not a write of the
// company's data: the first request of each minute sets it, and with migration 0035's trigger that
// update marked the company written, so the read right after it (the same request's, or the next
// one's) went to the primary while a replica had every write of the company (docs/scaling.md,
// "Reads on replicas"). The api_keys trigger is made again in two: inserts and deletes as before,
// and updates only when a column other than last_used_at changes (any column, present or added later).
export class Migration20261129000038_key_use_not_a_write extends Migration {
  async up(): Promise<void> {
    this.addSql(`drop trigger company_wal_api_keys on api_keys`);
    this.addSql(`create trigger company_wal_api_keys after insert or delete on api_keys for each row execute function fsc_mark_company_write()`);
    this.addSql(
      `create trigger company_wal_api_keys_update after update on api_keys for each row ` +
        `when ((to_jsonb(old) - 'last_used_at') is distinct from (to_jsonb(new) - 'last_used_at')) execute function fsc_mark_company_write()`,
    );
  }

  async down(): Promise<void> {
    this.addSql(`drop trigger company_wal_api_keys_update on api_keys`);
    this.addSql(`drop trigger company_wal_api_keys on api_keys`);
    this.addSql(`select fsc_track_company_writes('api_keys')`);
  }
}
