import { Migration } from '@mikro-orm/migrations';

// Invoices, their payments, and the stored responses behind Idempotency-Key (docs/invoices-and-payments.md, §9).
export class Migration20261121000004_invoices extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      create table invoices (
        uuid uuid primary key,
        company_uuid uuid not null references companies(uuid),
        invoice_number text not null,
        customer_uuid uuid not null references customers(uuid),
        job_uuid uuid references jobs(uuid),
        estimate_uuid uuid references estimates(uuid),
        location_uuid uuid references locations(uuid),
        invoice_type text not null default 'Full' check (invoice_type in ('Full', 'Partial', 'Progress')),
        progress_percentage numeric(7,4) check (progress_percentage > 0 and progress_percentage <= 100),
        issue_date date not null,
        due_date date not null,
        subtotal numeric(12,2) not null default 0 check (subtotal >= 0),
        tax_amount numeric(12,2) not null default 0 check (tax_amount >= 0),
        discount_amount numeric(12,2) not null default 0 check (discount_amount >= 0),
        total_amount numeric(12,2) not null default 0 check (total_amount >= 0),
        paid_amount numeric(12,2) not null default 0 check (paid_amount >= 0),
        balance_amount numeric(12,2) not null default 0,
        line_items jsonb,
        notes text,
        terms text,
        internal_notes text,
        -- 'Overdue' is computed on read (a Pending invoice past due with a balance), never stored.
        status text not null default 'Pending' check (status in ('Draft', 'Pending', 'Paid')),
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now(),
        deleted_at timestamptz(3),
        -- The last line of defence against overpayment and an inconsistent balance.
        constraint invoices_paid_within_total check (paid_amount <= total_amount),
        constraint invoices_balance_consistent check (balance_amount = total_amount - paid_amount),
        constraint invoices_due_after_issue check (due_date >= issue_date)
      )`);
    // Deleted invoices keep their numbers: a number is never assigned twice in a company.
    this.addSql(`create unique index invoices_company_number_idx on invoices (company_uuid, invoice_number)`);
    this.addSql(`create index invoices_company_created_idx on invoices (company_uuid, created_at desc, uuid desc)`);
    this.addSql(`create index invoices_company_status_idx on invoices (company_uuid, status, due_date)`);
    this.addSql(`create index invoices_customer_idx on invoices (customer_uuid, created_at desc, uuid desc)`);
    this.addSql(`create index invoices_job_idx on invoices (job_uuid, created_at desc, uuid desc)`);
    this.addSql(`create index invoices_estimate_idx on invoices (estimate_uuid)`);
    this.addSql(`create index invoices_location_idx on invoices (location_uuid)`);
    this.addSql(`create index invoices_number_trgm_idx on invoices using gin (invoice_number gin_trgm_ops)`);

    this.addSql(`
      create table payments (
        uuid uuid primary key,
        company_uuid uuid not null references companies(uuid),
        payment_number text not null,
        invoice_uuid uuid not null references invoices(uuid),
        customer_uuid uuid not null references customers(uuid),
        payment_type text not null check (payment_type in ('credit_card', 'ach', 'check', 'cash', 'other')),
        payment_method text,
        amount numeric(12,2) not null check (amount > 0),
        processing_fee numeric(12,2) not null default 0 check (processing_fee >= 0),
        payment_date date not null,
        transaction_id text,
        reference_number text,
        authorization_code text,
        payment_details jsonb,
        notes text,
        status text not null default 'Completed' check (status in ('Pending', 'Completed', 'Failed', 'Refunded')),
        processed_at timestamptz(3),
        created_by_user_id uuid not null references users(id),
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now(),
        deleted_at timestamptz(3),
        constraint payments_fee_within_amount check (processing_fee <= amount)
      )`);
    this.addSql(`create unique index payments_company_number_idx on payments (company_uuid, payment_number)`);
    this.addSql(`create index payments_company_created_idx on payments (company_uuid, created_at desc, uuid desc)`);
    // The balance sum and Invoice.payments read by invoice.
    this.addSql(`create index payments_invoice_idx on payments (invoice_uuid, created_at desc, uuid desc) where deleted_at is null`);
    this.addSql(`create index payments_customer_idx on payments (customer_uuid, created_at desc, uuid desc)`);
    this.addSql(`create index payments_company_type_idx on payments (company_uuid, payment_type, created_at desc)`);
    this.addSql(`create index payments_company_status_idx on payments (company_uuid, status, created_at desc)`);

    this.addSql(`
      create table idempotency_keys (
        api_key_id uuid not null references api_keys(id),
        route text not null,
        key text not null,
        company_uuid uuid not null references companies(uuid),
        request_hash text not null,
        state text not null default 'running' check (state in ('running', 'done')),
        response jsonb,
        created_at timestamptz(3) not null default now(),
        expires_at timestamptz(3) not null,
        primary key (api_key_id, route, key)
      )`);
    this.addSql(`create index idempotency_keys_expiry_idx on idempotency_keys (company_uuid, expires_at)`);
  }

  async down(): Promise<void> {
    this.addSql(`drop table if exists idempotency_keys`);
    this.addSql(`drop table if exists payments`);
    this.addSql(`drop table if exists invoices`);
  }
}
