import { Migration } from '@mikro-orm/migrations';

export class Migration20261121000002_jobs extends Migration {
  async up(): Promise<void> {
    this.addSql(`
      create table jobs (
        uuid uuid primary key,
        company_uuid uuid not null references companies(uuid),
        job_number text,
        customer_uuid uuid not null references customers(uuid),
        location_uuid uuid references locations(uuid),
        assigned_to_user_id uuid references users(id),
        title text not null,
        description text,
        status text not null default 'New' check (status in ('New', 'Contacted', 'Scheduled', 'In Progress',
          'Needs Approval', 'Ready to Invoice', 'Invoiced', 'Complete', 'Estimate Sent', 'Estimate Approved')),
        priority text not null default 'Normal' check (priority in ('Low', 'Normal', 'High', 'Emergency')),
        is_urgent boolean not null default false,
        is_emergency boolean not null default false,
        service_address1 text, service_address2 text, service_city text, service_state text, service_zip text,
        estimated_amount numeric(12,2) check (estimated_amount >= 0),
        actual_amount numeric(12,2) check (actual_amount >= 0),
        scheduled_date date,
        scheduled_time_start text check (scheduled_time_start ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
        scheduled_time_end text check (scheduled_time_end ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
        started_at timestamptz(3),
        completed_at timestamptz(3),
        invoiced_at timestamptz(3),
        paid_at timestamptz(3),
        internal_notes text,
        customer_notes text,
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now(),
        deleted_at timestamptz(3)
      )`);
    // job_number is unique per company (deleted jobs keep theirs).
    this.addSql(`create unique index jobs_company_number_idx on jobs (company_uuid, job_number)`);
    this.addSql(`create index jobs_company_created_idx on jobs (company_uuid, created_at desc, uuid desc)`);
    this.addSql(`create index jobs_status_idx on jobs (company_uuid, status, created_at desc, uuid desc)`);
    this.addSql(`create index jobs_priority_idx on jobs (company_uuid, priority, created_at desc, uuid desc)`);
    this.addSql(`create index jobs_customer_idx on jobs (customer_uuid, created_at desc, uuid desc)`);
    this.addSql(`create index jobs_location_idx on jobs (location_uuid, created_at desc, uuid desc)`);
    this.addSql(`create index jobs_assigned_idx on jobs (assigned_to_user_id, created_at desc, uuid desc)`);
    this.addSql(`create index jobs_title_trgm_idx on jobs using gin (title gin_trgm_ops)`);
    this.addSql(`create index jobs_description_trgm_idx on jobs using gin (description gin_trgm_ops)`);
    this.addSql(`create index jobs_number_trgm_idx on jobs using gin (job_number gin_trgm_ops)`);

    this.addSql(`
      create table job_photos (
        uuid uuid primary key,
        company_uuid uuid not null references companies(uuid),
        job_uuid uuid not null references jobs(uuid),
        user_id uuid not null references users(id),
        storage_key text not null,
        storage_backend text not null check (storage_backend in ('local', 's3')),
        photo_type text not null default 'during' check (photo_type in ('before', 'during', 'after')),
        file_name text,
        file_size integer check (file_size >= 0),
        mime_type text,
        taken_at timestamptz(3),
        customer_email_sent boolean not null default false,
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now(),
        deleted_at timestamptz(3)
      )`);
    this.addSql(`create index job_photos_company_created_idx on job_photos (company_uuid, created_at desc, uuid desc)`);
    this.addSql(`create index job_photos_job_idx on job_photos (job_uuid, created_at desc, uuid desc)`);
    this.addSql(`create index job_photos_job_type_idx on job_photos (job_uuid, photo_type, created_at desc, uuid desc)`);
  }

  async down(): Promise<void> {
    this.addSql(`drop table if exists job_photos`);
    this.addSql(`drop table if exists jobs`);
  }
}
