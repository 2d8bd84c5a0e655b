import { Migration } from '@mikro-orm/migrations';

// People, roles and scoped keys (docs/people-and-access.md). Users get a role, an active flag and a
// phone; every user that exists already becomes an owner (they could do everything until now).
// Keys get a name, scopes (default `*`: the user's role's rights) and last_used_at, written at most
// once a minute per key.
//
// last_used_at must not empty the key caches (migration 0020): the api_keys trigger is made again
// to fire only for updates of the other columns. A column added to api_keys later that the key
// lookup reads goes into KEY_COLUMNS here (or into a migration of its own that makes the trigger again).
const KEY_COLUMNS = ['company_uuid', 'user_id', 'key_hash', 'key_prefix', 'allowed_ips', 'usage_limit', 'usage_period', 'revoked_at', 'name', 'scopes'];

export class Migration20261128000027_roles extends Migration {
  async up(): Promise<void> {
    this.addSql(`alter table users add column role text not null default 'owner' check (role in ('owner', 'admin', 'office', 'technician'))`);
    this.addSql(`alter table users alter column role drop default`);
    this.addSql(`alter table users add column active boolean not null default true`);
    this.addSql(`alter table users add column phone text`);
    // Emails are unique per company (case-insensitive; the services store them lower-cased).
    this.addSql(`create unique index users_company_email_idx on users (company_uuid, lower(email)) where email is not null`);
    this.addSql(`alter table api_keys add column name text`);
    this.addSql(`alter table api_keys add column scopes text[] not null default '{*}'`);
    this.addSql(`alter table api_keys add column last_used_at timestamptz(3)`);
    this.addSql(`drop trigger if exists api_keys_access_notify on api_keys`);
    this.addSql(`create trigger api_keys_access_notify after update of ${KEY_COLUMNS.join(', ')} or delete on api_keys for each statement execute function access_changed()`);
    this.addSql(`select pg_notify('fsc_access', 'migration')`);
  }

  async down(): Promise<void> {
    this.addSql(`drop trigger if exists api_keys_access_notify on api_keys`);
    this.addSql(`create trigger api_keys_access_notify after update or delete on api_keys for each statement execute function access_changed()`);
    this.addSql(`alter table api_keys drop column last_used_at`);
    this.addSql(`alter table api_keys drop column scopes`);
    this.addSql(`alter table api_keys drop column name`);
    this.addSql(`drop index if exists users_company_email_idx`);
    this.addSql(`alter table users drop column phone`);
    this.addSql(`alter table users drop column active`);
    this.addSql(`alter table users drop column role`);
    this.addSql(`select pg_notify('fsc_access', 'migration')`);
  }
}
