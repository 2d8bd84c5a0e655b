import type { Client } from 'pg';

// Visits for the calendar scenario: `techs` technicians of the big company, each with two-hour
// visits back to back (four a day, every day), spread over the company's jobs, so that no
// technician is double-booked. Set-based like bench/seed.ts: the assignment trigger and the kept
// reach's trigger on assignments are off while the rows go in; visit_assignments is filled by one
// statement (the same rows the trigger writes), and job_reach by one refresh per job of the company.

export const VISITS_START = Date.UTC(2025, 0, 6, 14); // 2025-01-06 08:00 in America/Chicago
export const TECHS = 40;
export const VISITS_PER_DAY = 4;

/** The middle day of the seeded range, at the first visit's hour (the calendar scenario's week starts there). */
export function calendarWeek(visits: number): { from: string; to: string } {
  const days = Math.ceil(visits / TECHS / VISITS_PER_DAY);
  const from = VISITS_START + Math.floor(days / 2) * 86_400_000;
  return { from: new Date(from).toISOString(), to: new Date(from + 7 * 86_400_000).toISOString() };
}

export async function seedVisits(db: Client, companyUuid: string, visits: number): Promise<string[]> {
  await db.query(
    `insert into users (id, company_uuid, first_name, last_name, role, created_at, updated_at)
     select gen_random_uuid(), $1, 'Tech', 'Number ' || i, 'technician', now(), now() from generate_series(1, $2::int) i`,
    [companyUuid, TECHS],
  );
  const triggers = [
    ['visits', 'visits_sync_assignments_insert'],
    ['visit_assignments', 'visit_assignments_job_reach_insert_delete'],
  ];
  for (const [table, trigger] of triggers) await db.query(`alter table ${table} disable trigger ${trigger}`);
  try {
    await db.query(
      `with techs as (select id, row_number() over (order by id) - 1 as k from users where company_uuid = $1 and first_name = 'Tech'),
       js as (select uuid, row_number() over (order by uuid) - 1 as rn from jobs where company_uuid = $1 and deleted_at is null),
       n as (select count(*) as c from js),
       v as (select i, i % $2::int as tech, i / $2::int as slot from generate_series(0, $3::int - 1) i),
       t as (select v.*, to_timestamp($4::double precision / 1000) + make_interval(days => (slot / $5::int)::int, hours => 2 * (slot % $5::int)::int) as st from v)
       insert into visits (uuid, company_uuid, job_uuid, title, status, starts_at, ends_at, all_day, visit_date, assigned_user_ids, created_at, updated_at)
       select gen_random_uuid(), $1, js.uuid, 'Visit ' || t.i, 'Scheduled', t.st, t.st + interval '2 hours', false,
              (t.st at time zone 'America/Chicago')::date, array[techs.id], now() - make_interval(secs => t.i), now() - make_interval(secs => t.i)
       from t join techs on techs.k = t.tech cross join n join js on js.rn = t.i % n.c`,
      [companyUuid, TECHS, visits, VISITS_START, VISITS_PER_DAY],
    );
    await db.query(
      `insert into visit_assignments (visit_uuid, user_id, company_uuid, period, active)
       select uuid, assigned_user_ids[1], company_uuid, period, true from visits where company_uuid = $1`,
      [companyUuid],
    );
    await db.query(`analyze visits, visit_assignments`);
    await db.query(`select count(job_reach_refresh(uuid)) from jobs where company_uuid = $1`, [companyUuid]);
  } finally {
    for (const [table, trigger] of triggers) await db.query(`alter table ${table} enable trigger ${trigger}`);
  }
  const { rows } = await db.query(`select id from users where company_uuid = $1 and first_name = 'Tech' order by id`, [companyUuid]);
  return rows.map((r) => r.id as string);
}
