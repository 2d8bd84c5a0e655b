import type { Client } from 'pg';

// Set-based seeding: every table is filled by one INSERT … SELECT over generate_series per
// company, so 100,000 customers take seconds. Values vary enough for realistic plans (names,
// e-mails, phones, types, statuses, dates spread over years) and satisfy every CHECK constraint.

export interface SeedCompany {
  uuid: string;
  userId: string;
  customers: number;
  jobs: number;
  invoices: number;
}

const FIRST = ['James', 'Mary', 'Robert', 'Patricia', 'John', 'Jennifer', 'Michael', 'Linda', 'David', 'Elizabeth', 'William', 'Barbara', 'Richard', 'Susan', 'Joseph', 'Jessica', 'Thomas', 'Sarah', 'Charles', 'Karen', 'Christopher', 'Lisa', 'Daniel', 'Nancy', 'Matthew', 'Betty', 'Anthony', 'Sandra', 'Mark', 'Margaret', 'Donald', 'Ashley', 'Steven', 'Kimberly', 'Andrew', 'Emily', 'Paul', 'Donna', 'Joshua', 'Michelle', 'Kenneth', 'Carol', 'Kevin', 'Amanda', 'Brian', 'Melissa', 'George', 'Deborah', 'Timothy', 'Stephanie'];
const LAST = ['Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez', 'Hernandez', 'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin', 'Lee', 'Perez', 'Thompson', 'White', 'Harris', 'Sanchez', 'Clark', 'Ramirez', 'Lewis', 'Robinson', 'Walker', 'Young', 'Allen', 'King', 'Wright', 'Scott', 'Torres', 'Nguyen', 'Hill', 'Flores', 'Green', 'Adams', 'Nelson', 'Baker', 'Hall', 'Rivera', 'Campbell', 'Mitchell', 'Carter', 'Roberts', 'Gomez', 'Phillips', 'Evans', 'Turner', 'Diaz', 'Parker', 'Cruz', 'Edwards', 'Collins', 'Reyes', 'Stewart', 'Morris', 'Morales', 'Murphy', 'Cook', 'Rogers', 'Gutierrez', 'Ortiz', 'Morgan', 'Cooper', 'Peterson', 'Bailey', 'Reed', 'Kelly', 'Howard', 'Ramos', 'Kim', 'Cox', 'Ward', 'Richardson', 'Watson', 'Brooks', 'Chavez', 'Wood', 'James', 'Bennett', 'Gray', 'Mendoza', 'Ruiz', 'Hughes', 'Price', 'Alvarez', 'Castillo', 'Sanders', 'Patel', 'Myers', 'Long', 'Ross', 'Foster', 'Jimenez'];
const CITY = ['Springfield', 'Chicago', 'Peoria', 'Naperville', 'Rockford', 'Joliet', 'Aurora', 'Champaign', 'Decatur', 'Evanston'];
const STREET = ['Main St', 'Oak Ave', 'Maple Dr', 'Cedar Ln', 'Elm St', 'Pine Rd', 'Washington Blvd', 'Lake St', 'Hill Rd', 'Park Ave'];

const arr = (xs: string[]) => `array[${xs.map((x) => `'${x.replace(/'/g, "''")}'`).join(',')}]::text[]`;

/** Fills one company. Rows get created_at spread back from now, newest first like real use. */
export async function seedCompany(db: Client, c: SeedCompany): Promise<void> {
  const p = [c.uuid];
  // Two service locations, one primary (the company timezone comes from it).
  await db.query(
    `insert into locations (uuid, company_uuid, name, address1, city, state, zip, timezone, is_primary, created_at, updated_at)
     select gen_random_uuid(), $1, 'Branch ' || i, (100 + i) || ' Depot Rd', 'Springfield', 'IL', '62701', 'America/Chicago', i = 1,
            now() - make_interval(days => 900 + i), now() - make_interval(days => 900 + i)
     from generate_series(1, 2) i`,
    p,
  );
  // Customers: one every ~9 minutes over the past ~2 years for the big company.
  await db.query(
    `insert into customers (uuid, company_uuid, first_name, last_name, company_name, email, phone, customer_type, is_vip,
        physical_address1, physical_city, physical_state, physical_zip, billing_address1, billing_city, billing_state, billing_zip,
        notes, created_at, updated_at)
     select gen_random_uuid(), $1, f, l,
            case when i % 5 = 0 then l || ' ' || (${arr(['Holdings', 'Properties', 'Group', 'Rentals', 'Foods'])})[1 + (i / 5) % 5] end,
            lower(f || '.' || l || i || '@' || (${arr(['example.com', 'mail.example', 'inbox.example'])})[1 + i % 3]),
            lpad((200 + (i * 7) % 800)::text, 3, '0') || '-' || lpad((200 + (i * 13) % 800)::text, 3, '0') || '-' || lpad((i % 10000)::text, 4, '0'),
            case when i % 5 = 0 then 'Commercial' else 'Residential' end, i % 20 = 0,
            (10 + (i * 17) % 9000) || ' ' || (${arr(STREET)})[1 + i % 10], (${arr(CITY)})[1 + (i / 3) % 10], 'IL', lpad((60000 + i % 3000)::text, 5, '0'),
            (10 + (i * 17) % 9000) || ' ' || (${arr(STREET)})[1 + i % 10], (${arr(CITY)})[1 + (i / 3) % 10], 'IL', lpad((60000 + i % 3000)::text, 5, '0'),
            case when i % 7 = 0 then 'Gate code ' || (1000 + i % 9000) end,
            ts, ts
     from (select i, (${arr(FIRST)})[1 + i % ${FIRST.length}] f, (${arr(LAST)})[1 + (i * 7) % ${LAST.length}] l,
                  now() - make_interval(secs => i * 540 + (i * 37) % 500) ts
           from generate_series(1, $2::int) i) s`,
    [c.uuid, c.customers],
  );
  // Jobs: each to a customer picked by a stride over the customers' row numbers.
  await db.query(
    `with cs as (select uuid, row_number() over (order by uuid) rn from customers where company_uuid = $1)
     insert into jobs (uuid, company_uuid, job_number, customer_uuid, location_uuid, assigned_to_user_id, title, description, status, priority,
        estimated_amount, actual_amount, scheduled_date, created_at, updated_at)
     select gen_random_uuid(), $1, i::text, cs.uuid,
            (select uuid from locations where company_uuid = $1 and is_primary), $3,
            (${arr(['Water heater replacement', 'Panel upgrade', 'AC tune-up', 'Drain cleaning', 'Furnace repair', 'Outlet install', 'Leak repair', 'Thermostat install'])})[1 + i % 8] || ' #' || i,
            case when i % 3 = 0 then 'Customer reports intermittent issue' end,
            case when i <= $4::int then 'Invoiced' else (${arr(['New', 'Scheduled', 'In Progress', 'Complete'])})[1 + i % 4] end,
            (${arr(['Low', 'Normal', 'Normal', 'High'])})[1 + i % 4],
            (150 + (i * 31) % 2000)::numeric(12,2), case when i % 2 = 0 then (140 + (i * 29) % 2100)::numeric(12,2) end,
            (now() - make_interval(secs => i * 960))::date,
            now() - make_interval(secs => i * 960), now() - make_interval(secs => i * 960)
     from generate_series(1, $2::int) i
     join cs on cs.rn = 1 + (i::bigint * 7919) % (select count(*) from cs)`,
    [c.uuid, c.jobs, c.userId, c.invoices],
  );
  // Invoices: one per job (the job's customer), two line items (labor, taxed parts). Every third is
  // paid in full, every third half paid, the rest open (some past due); every 50th a draft.
  await db.query(
    `with j as (select uuid, customer_uuid, job_number::int n from jobs where company_uuid = $1 and job_number::int <= $2::int),
     amounts as (
       select j.*, (1 + n % 4) qty, 85.00::numeric(12,2) rate, (20 + n % 200)::numeric(12,2) parts,
              round((20 + n % 200) * 0.0825, 2) parts_tax
       from j),
     t as (
       select a.*, qty * rate + parts subtotal, qty * rate + parts + parts_tax total,
              case when n % 50 = 0 then 'Draft' when n % 3 = 0 then 'Paid' else 'Pending' end st,
              now() - make_interval(secs => n * 960 - 3600) ts
       from amounts a)
     insert into invoices (uuid, company_uuid, invoice_number, customer_uuid, job_uuid, invoice_type, issue_date, due_date,
        subtotal, tax_amount, discount_amount, total_amount, paid_amount, balance_amount, line_items, notes, terms, status, created_at, updated_at)
     select gen_random_uuid(), $1, 'INV-' || lpad(n::text, greatest(4, length(n::text)), '0'), customer_uuid, uuid, 'Full',
            ts::date, ts::date + 30, subtotal, parts_tax, 0, total,
            case when st = 'Paid' then total when st = 'Pending' and n % 3 = 1 then round(total / 2, 2) else 0 end,
            total - case when st = 'Paid' then total when st = 'Pending' and n % 3 = 1 then round(total / 2, 2) else 0 end,
            jsonb_build_array(
              jsonb_build_object('description', 'Labor', 'quantity', qty, 'unitPrice', rate, 'lineTotal', qty * rate, 'taxRate', 0, 'taxAmount', 0),
              jsonb_build_object('description', 'Parts', 'quantity', 1, 'unitPrice', parts, 'lineTotal', parts, 'taxRate', 8.25, 'taxAmount', parts_tax)),
            case when n % 4 = 0 then 'Thank you for your business' end, 'Net 30', st, ts, ts
     from t`,
    [c.uuid, c.invoices],
  );
  // Payments: the full amount for paid invoices, half for the half-paid ones.
  await db.query(
    `insert into payments (uuid, company_uuid, payment_number, invoice_uuid, customer_uuid, payment_type, payment_method, amount, processing_fee,
        payment_date, reference_number, status, processed_at, created_by_user_id, created_at, updated_at)
     select gen_random_uuid(), company_uuid, (row_number() over (order by created_at, uuid))::text, uuid, customer_uuid,
            (array['credit_card','ach','check','cash']::text[])[1 + (extract(epoch from created_at)::bigint % 4)::int],
            case when paid_amount > 0 then 'visa' end, paid_amount, round(paid_amount * 0.029, 2),
            created_at::date + 3, 'REF-' || left(uuid::text, 8), 'Completed', created_at + interval '3 days', $2,
            created_at + interval '3 days', created_at + interval '3 days'
     from invoices where company_uuid = $1 and paid_amount > 0`,
    [c.uuid, c.userId],
  );
  // Counters continue after the seeded numbers, as they would after real use.
  await db.query(
    `insert into company_sequences (company_uuid, name, value)
     values ($1, 'job_number', $2), ($1, 'payment_number', (select count(*) from payments where company_uuid = $1))
     on conflict (company_uuid, name) do update set value = excluded.value`,
    [c.uuid, c.jobs],
  );
  await db.query(
    `insert into numbering_settings (company_uuid, kind, prefix, padding, next_number) values ($1, 'invoice', 'INV-', 4, $2::bigint + 1)
     on conflict (company_uuid, kind) do update set next_number = excluded.next_number`,
    [c.uuid, c.invoices],
  );
}
