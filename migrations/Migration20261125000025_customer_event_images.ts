import { Migration } from '@mikro-orm/migrations';
import { TRACKED, triggerFunctions } from './Migration20261125000010_events';

// Customers' event rows without the search columns (docs/events.md, "Storage").
// Migration 0023 added two stored generated columns to customers, `search_text` and
// `phone_digits`, which the entity does not map and no field renders. The event triggers copy the
// whole row (`to_jsonb`), so every customer event stored both, and an update's `previous` held
// the old search text beside the field that changed: about twice the bytes of the fields
// themselves. The customers' three trigger functions are made again with the two columns left out
// of the row image and of the comparison that finds `previous`; the events already stored lose
// them too. Nothing is lost: both columns are computed from fields the image keeps.
export const OMIT = ['search_text', 'phone_digits'];
const customers = TRACKED.find((t) => t.table === 'customers')!;
const replace = (sql: string) => sql.replace(/^create function/, 'create or replace function');

export class Migration20261125000025_customer_event_images extends Migration {
  async up(): Promise<void> {
    for (const sql of triggerFunctions({ ...customers, omit: OMIT })) this.addSql(replace(sql));
    this.addSql(`update events set row = row - 'search_text' - 'phone_digits', previous = previous - 'search_text' - 'phone_digits'
      where resource = 'customer' and (row ? 'search_text' or row ? 'phone_digits')`);
  }

  async down(): Promise<void> {
    // The stored events keep their smaller images: they render the same.
    for (const sql of triggerFunctions(customers)) this.addSql(replace(sql));
  }
}
