import { Migration } from '@mikro-orm/migrations';

// Usage counters of API keys with a usage limit (docs/access-and-operations.md): one row per key and fixed UTC
// window, incremented with one atomic upsert per request so every server process shares it.
export class Migration20261121000005_access extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      create table api_key_usage (
        key_id uuid not null references api_keys(id) on delete cascade,
        window_start timestamptz not null,
        count integer not null default 0,
        primary key (key_id, window_start)
      )`);
    // Lets old windows be pruned by time.
    this.addSql(`create index api_key_usage_window_idx on api_key_usage (window_start)`);
  }

  async down(): Promise<void> {
    this.addSql(`drop table if exists api_key_usage`);
  }
}
