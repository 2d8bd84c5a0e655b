import { Migration } from '@mikro-orm/migrations';

// A webhook endpoint receives only the events its key could read in the feed
// (docs/people-and-access.md): the event resources readable by the key that created or last changed
// it, kept on the endpoint (null: every resource, as every endpoint made before keys had scopes).
export class Migration20261128000028_webhook_readable extends Migration {
  async up(): Promise<void> {
    this.addSql(`alter table webhook_endpoints add column readable_resources text[]`);
  }

  async down(): Promise<void> {
    this.addSql(`alter table webhook_endpoints drop column readable_resources`);
  }
}
