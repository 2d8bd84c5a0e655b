import { Migration } from '@mikro-orm/migrations';

// Online payments (docs/payments.md): each company's payment settings, the Stripe events already
// handled (one row per event id: a repeated or concurrent delivery finds it and does nothing), and
// on payments the refunded part and one payment per PaymentIntent of a company.
export class Migration20261128000032_online_payments extends Migration {
  async up(): Promise<void> {
    this.addSql(`create table payment_settings (
      company_uuid uuid primary key references companies (uuid) on delete cascade,
      stripe_account_id text,
      accept_card boolean not null default true,
      accept_ach boolean not null default false,
      deposit_percent numeric(5,2) not null default 0 check (deposit_percent >= 0 and deposit_percent <= 100),
      pass_fees boolean not null default false,
      updated_at timestamptz(3) not null default now()
    )`);
    this.addSql(`create unique index payment_settings_account_idx on payment_settings (stripe_account_id) where stripe_account_id is not null`);
    this.addSql(`create table stripe_events (
      id text primary key,
      type text not null,
      account text,
      company_uuid uuid references companies (uuid) on delete cascade,
      outcome text not null,
      received_at timestamptz(3) not null default now()
    )`);
    this.addSql(`alter table payments add column refunded_amount numeric(12,2) not null default 0`);
    this.addSql(`alter table payments add constraint payments_refund_within_amount check (refunded_amount >= 0 and refunded_amount <= amount)`);
    this.addSql(`alter table payments alter column created_by_user_id drop not null`);
    // One payment per PaymentIntent: whatever the order, repetition or concurrency of its events.
    this.addSql(`create unique index payments_stripe_intent_idx on payments (company_uuid, transaction_id) where payment_details->>'source' = 'stripe'`);
  }

  async down(): Promise<void> {
    this.addSql(`drop index payments_stripe_intent_idx`);
    this.addSql(`alter table payments drop constraint payments_refund_within_amount`);
    this.addSql(`alter table payments drop column refunded_amount`);
    this.addSql(`drop table stripe_events`);
    this.addSql(`drop table payment_settings`);
  }
}
