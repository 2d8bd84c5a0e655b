import { randomUUID } from 'node:crypto';
import { createKey, createUser } from '../../src/modules/company/company.admin';
import { UserRole } from '../../src/modules/user/user.entity';
import { rest, Tenant, TestApp } from './app';
import { makeCustomer, makeJob } from './billing';
import { makeVisit, slot } from './visits';

/** A user of the tenant's company with a role and a key of their own, as the admin CLI would make them. */
export async function userWithKey(t: TestApp, tenant: Tenant, role: UserRole, firstName = 'Tess'): Promise<Tenant> {
  const user = await createUser(t.orm.em.fork(), { companyUuid: tenant.companyUuid, firstName, lastName: 'Tech', role });
  const { apiKey } = await createKey(t.orm.em.fork(), { companyUuid: tenant.companyUuid, userId: user.id });
  return { key: apiKey, companyUuid: tenant.companyUuid, userId: user.id };
}

/**
 * A company where a technician has two jobs (one assigned to them, one through a visit of its
 * crew) and another technician has one, each job with its own customer:
 * - mine: assigned to the technician (which makes an unscheduled visit of theirs, docs/visits.md),
 *   with their visit and another's visit;
 * - crew: with a visit whose crew is the other technician first, then the technician (so the
 *   job's `assigned_to_user_id`, its first crew member, is the other's);
 * - other: assigned to the other technician, with the other's visit;
 * - othersAtMine: of the technician's customer and location, assigned to the other technician;
 * mine and other each have a location and a photo.
 */
export async function technicianWorld(t: TestApp, owner: Tenant) {
  const tech = await userWithKey(t, owner, UserRole.TECHNICIAN, 'Tess');
  const other = await userWithKey(t, owner, UserRole.TECHNICIAN, 'Otto');
  const customers = {
    mine: await makeCustomer(t, owner, { first_name: 'Mina', last_name: 'Mine' }),
    crew: await makeCustomer(t, owner, { first_name: 'Cree', last_name: 'Crew' }),
    other: await makeCustomer(t, owner, { first_name: 'Olga', last_name: 'Other' }),
  };
  const r = rest(t, owner);
  const place = async (name: string) => (await r.post('/locations', { name, address1: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' })).body.data;
  const locations = { mine: await place('North'), other: await place('South') };
  const jobs = {
    mine: await makeJob(t, owner, { customer_uuid: customers.mine.uuid, location_uuid: locations.mine.uuid, title: 'Boiler mine', assigned_to_user_id: tech.userId, estimated_amount: 500 }),
    crew: await makeJob(t, owner, { customer_uuid: customers.crew.uuid, title: 'Boiler crew', estimated_amount: 300 }),
    other: await makeJob(t, owner, { customer_uuid: customers.other.uuid, location_uuid: locations.other.uuid, title: 'Boiler other', assigned_to_user_id: other.userId, estimated_amount: 900 }),
    othersAtMine: await makeJob(t, owner, { customer_uuid: customers.mine.uuid, location_uuid: locations.mine.uuid, title: 'Boiler next door', assigned_to_user_id: other.userId }),
  };
  const visits = {
    mine: await makeVisit(t, owner, jobs.mine.uuid, { ...slot(8, 10), assigned_user_ids: [tech.userId] }),
    othersOnMine: await makeVisit(t, owner, jobs.mine.uuid, { ...slot(10, 12), assigned_user_ids: [other.userId] }),
    crew: await makeVisit(t, owner, jobs.crew.uuid, { ...slot(13, 14), assigned_user_ids: [other.userId, tech.userId] }),
    other: await makeVisit(t, owner, jobs.other.uuid, { ...slot(14, 16), assigned_user_ids: [other.userId] }),
  };
  for (const job of Object.values(jobs)) {
    const res = await r.put(`/jobs/${job.uuid}`, { actual_amount: 450 });
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  }
  // A photo row of each of two jobs (their files are not read here).
  const photo = async (jobUuid: string) => {
    const uuid = randomUUID();
    await t.orm.em.getConnection().execute(
      `insert into job_photos (uuid, company_uuid, job_uuid, user_id, storage_key, storage_backend) values (?, ?, ?, ?, ?, 'local')`,
      [uuid, owner.companyUuid, jobUuid, owner.userId, `test/${uuid}.jpg`],
    );
    return uuid;
  };
  const photos = { mine: await photo(jobs.mine.uuid), other: await photo(jobs.other.uuid) };
  return { tech, other, customers, locations, jobs, visits, photos };
}
