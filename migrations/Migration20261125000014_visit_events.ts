import { Migration } from '@mikro-orm/migrations';
import { Tracked, triggerFunctions } from './Migration20261125000010_events';

// Visits (migration 0013) join the event log (migration 0010, docs/events.md): visit.created,
// .updated, .deleted and .restored, written by the same statement-level triggers as every other
// tracked table. A crew change (assign) rewrites the visit's assigned_user_ids, so it is a
// visit.updated with previous.assigned_user_ids.
export const VISITS: Tracked = { table: 'visits', resource: 'visit', changed: [], created: [] };

export class Migration20261125000014_visit_events extends Migration {
  async up(): Promise<void> {
    for (const sql of triggerFunctions(VISITS)) this.addSql(sql);
    this.addSql(`create trigger visits_events_insert after insert on visits referencing new table as new_rows for each statement execute function events_visits_inserted()`);
    this.addSql(`create trigger visits_events_update after update on visits referencing old table as old_rows new table as new_rows for each statement execute function events_visits_updated()`);
    this.addSql(`create trigger visits_events_delete after delete on visits referencing old table as old_rows for each statement execute function events_visits_deleted()`);
  }

  async down(): Promise<void> {
    for (const e of ['insert', 'update', 'delete']) this.addSql(`drop trigger if exists visits_events_${e} on visits`);
    for (const e of ['inserted', 'updated', 'deleted']) this.addSql(`drop function if exists events_visits_${e}()`);
  }
}
