import { Migration } from '@mikro-orm/migrations';

// Customer documents (docs/documents.md): links that open an estimate or invoice without a key
// (only the token's SHA-256 is stored), the acceptance signed through such a link, and the
// history of documents sent by mail.
export class Migration20261125000012_documents extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      create table share_links (
        uuid uuid primary key,
        company_uuid uuid not null references companies(uuid),
        document_kind text not null check (document_kind in ('estimate', 'invoice')),
        document_uuid uuid not null,
        token_hash bytea not null unique,
        expires_at timestamptz(3) not null,
        revoked_at timestamptz(3),
        created_at timestamptz(3) not null default now()
      )`);
    this.addSql(`create index share_links_document_idx on share_links (company_uuid, document_kind, document_uuid)`);
    this.addSql(`alter table estimates add column acceptance jsonb`);
    this.addSql(`
      create table document_emails (
        uuid uuid primary key,
        company_uuid uuid not null references companies(uuid),
        document_kind text not null check (document_kind in ('estimate', 'invoice')),
        document_uuid uuid not null,
        to_address text not null,
        cc text,
        subject text not null,
        status text not null check (status in ('sent', 'failed')),
        error text,
        message_id text,
        sent_at timestamptz(3),
        created_at timestamptz(3) not null default now()
      )`);
    this.addSql(`create index document_emails_document_idx on document_emails (company_uuid, document_kind, document_uuid, created_at desc)`);
  }

  async down(): Promise<void> {
    this.addSql(`drop table document_emails`);
    this.addSql(`alter table estimates drop column acceptance`);
    this.addSql(`drop table share_links`);
  }
}
