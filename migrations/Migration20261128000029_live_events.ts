import { Migration } from '@mikro-orm/migrations';

// Live updates (docs/live-updates.md). A transaction that wrote events notifies the channel
// `fsc_events` at its commit (PostgreSQL sends notifications only for committed transactions and
// folds equal ones of a transaction into one), and each server process's feed reader, LISTENing
// on its direct connection, wakes to read the feed from its last position. The notification
// carries nothing: the feed is the truth, so a notification lost (a reconnect) loses no event.
// The reader reads every company's events by position (events_position_idx, migration 0015).
export class Migration20261128000029_live_events extends Migration {
  async up(): Promise<void> {
    this.addSql(`create function events_notify() returns trigger language plpgsql as $$ begin perform pg_notify('fsc_events', ''); return null; end $$`);
    // event_transactions gets one row per writing transaction (its first event), so one
    // notification per transaction.
    this.addSql(`create trigger event_transactions_notify after insert on event_transactions for each row execute function events_notify()`);
  }

  async down(): Promise<void> {
    this.addSql(`drop trigger if exists event_transactions_notify on event_transactions`);
    this.addSql(`drop function if exists events_notify()`);
  }
}
