import { Migration } from '@mikro-orm/migrations';
import { Tracked, TRACKED, triggerFunctions } from './Migration20261125000010_events';
import { VISITS } from './Migration20261125000014_visit_events';
import { OMIT } from './Migration20261125000025_customer_event_images';
import { AGREEMENTS } from './Migration20261128000031_recurring_invoices';

// An update's event rows make each row's images once (docs/events.md, "Storage").
//
// The update trigger of a tracked table (migration 0010) makes the row's old and new images
// (to_jsonb) in a lateral subquery and keeps in `previous` the columns whose values differ. The
// planner folded that subquery into the comparison, so the new image was made again for every
// column of the old one: 29 times for an invoice, whose update's trigger took 1.2 ms to write two
// events (0.5 ms now). The subquery is now a fence (`offset 0`) and each event row takes its image
// from it. The rows written are the same: test/modules/event/images-once.spec.ts writes the same
// updates through both forms and compares them.

/** Every tracked table as it is now: its update's trigger function is made again here. */
export const EVENT_TABLES: Tracked[] = [
  ...TRACKED.map((t) => (t.table === 'customers' ? { ...t, omit: OMIT } : t)),
  VISITS,
  AGREEMENTS,
];

/** The update's trigger function of a tracked table, in one form or the other, to replace the one there. */
export function updatedFunction(t: Tracked, imagesOnce: boolean): string {
  const updated = triggerFunctions(t, { imagesOnce }).find((sql) => sql.startsWith(`create function events_${t.table}_updated()`))!;
  return updated.replace(/^create function/, 'create or replace function');
}

export class Migration20261130000046_event_images_once extends Migration {
  async up(): Promise<void> {
    for (const t of EVENT_TABLES) this.addSql(updatedFunction(t, true));
  }

  async down(): Promise<void> {
    for (const t of EVENT_TABLES) this.addSql(updatedFunction(t, false));
  }
}
