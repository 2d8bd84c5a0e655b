import { Client } from 'pg';
import { initOrm } from '../src/db/orm';
import { createKey, createUser } from '../src/modules/company/company.admin';
import { UserRole } from '../src/modules/user/user.entity';
import type { Tenant } from './setup';

// The reach rows (a technician's job list, a scoped key's GET): one technician of the big company
// with `jobs` of its jobs, spread evenly over the company's list (every n-th by number), assigned to
// them (`assigned_to_user_id`) and each with one visit of their own, so that every job is in their
// reach both ways, the costlier form of the rule. Visits go in through the assignment trigger (a
// few hundred rows), two hours each, back to back, in a year no other seeded visit uses.

export interface ReachSeed {
  /** A technician's key (role technician, scopes `*`). */
  technicianKey: string;
  /** The owner's `customers:read` key. */
  customersReadKey: string;
}

export async function seedReach(url: string, big: Tenant, jobs: number): Promise<ReachSeed> {
  const orm = await initOrm(url, 2);
  let technicianId: string;
  let technicianKey: string;
  let customersReadKey: string;
  try {
    const em = orm.em.fork();
    const tech = await createUser(em, { companyUuid: big.companyUuid, firstName: 'Reach', lastName: 'Technician', role: UserRole.TECHNICIAN });
    technicianId = tech.id;
    technicianKey = (await createKey(em, { companyUuid: big.companyUuid, userId: tech.id, name: 'bench technician' })).apiKey;
    customersReadKey = (await createKey(em, { companyUuid: big.companyUuid, userId: big.userId, name: 'bench customers:read', scopes: ['customers:read'] })).apiKey;
  } finally {
    await orm.close(true);
  }
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    await db.query(
      `with n as (select count(*) c from jobs where company_uuid = $1 and deleted_at is null),
       picked as (select uuid, row_number() over (order by job_number::int) - 1 rn from jobs where company_uuid = $1 and deleted_at is null)
       update jobs j set assigned_to_user_id = $2 from picked, n
       where j.uuid = picked.uuid and picked.rn % greatest(1, n.c / $3::int) = 0 and picked.rn / greatest(1, n.c / $3::int) < $3::int`,
      [big.companyUuid, technicianId, jobs],
    );
    await db.query(
      `insert into visits (uuid, company_uuid, job_uuid, title, status, starts_at, ends_at, all_day, visit_date, assigned_user_ids, created_at, updated_at)
       select gen_random_uuid(), $1, j.uuid, 'Reach visit ' || j.job_number, 'Scheduled', st, st + interval '2 hours', false,
              (st at time zone 'America/Chicago')::date, array[$2::uuid], now(), now()
       from (select uuid, job_number, timestamptz '2023-01-02 14:00Z' + make_interval(hours => 2 * (row_number() over (order by job_number::int))::int) st
             from jobs where company_uuid = $1 and assigned_to_user_id = $2) j`,
      [big.companyUuid, technicianId],
    );
    // As the main seed leaves every table (bench/setup.ts): vacuumed and analyzed, job_reach too
    // (filled by the triggers above; unvacuumed, each index-only read of it visited the heap).
    await db.query('vacuum analyze jobs, visits, visit_assignments, job_reach, users, api_keys');
  } finally {
    await db.end();
  }
  return { technicianKey, customersReadKey };
}
