import { REACH_TABLES, ReachTable, holdToReach, reachParams, reachSql } from '../../src/data/reach';
import { TENANT_FILTER } from '../../src/data/base.entity';
import { LIVE_FILTER } from '../../src/data/live-filter';
import { Job } from '../../src/modules/job/job.entity';
import { Visit } from '../../src/modules/visit/visit.entity';
import { Customer } from '../../src/modules/customer/customer.entity';
import { Location } from '../../src/modules/location/location.entity';
import { JobPhoto } from '../../src/modules/job-photo/job-photo.entity';
import { createTenant, rest, Tenant, useTestApp } from '../helpers/app';
import { technicianWorld } from '../helpers/technicians';

// The reach's two forms (src/data/reach.ts) agree: the SQL of the hand-written statements and the
// reach filter of a technician's EntityManager select the same rows of every table, deleted ones
// included (reach is about assignment; liveness is the usual condition beside it).

const t = useTestApp();
jest.setTimeout(120_000);

const ENTITIES: Record<ReachTable, new () => { uuid: string }> = { jobs: Job, visits: Visit, customers: Customer, locations: Location, job_photos: JobPhoto };

async function bySql(owner: Tenant, userId: string, table: ReachTable): Promise<string[]> {
  const rows = await t.orm.em.getConnection().execute<{ uuid: string }[]>(
    `select e.uuid from "${table}" as e where e.company_uuid = ? and ${reachSql(table, 'e')}`,
    [owner.companyUuid, ...reachParams(table, { companyId: owner.companyUuid, userId })],
  );
  return rows.map((r) => r.uuid).sort();
}

async function byFilter(owner: Tenant, userId: string, table: ReachTable): Promise<string[]> {
  const em = t.orm.em.fork();
  em.setFilterParams(TENANT_FILTER, { companyId: owner.companyUuid });
  holdToReach(em, { companyId: owner.companyUuid, access: { role: 'technician', userId } });
  const found = await em.find(ENTITIES[table], {}, { filters: { [LIVE_FILTER]: false } });
  return found.map((r) => r.uuid).sort();
}

it('the SQL and the filter select the same rows of every table, for each technician', async () => {
  const owner = await createTenant(t, { addons: ['job_photos'] });
  const w = await technicianWorld(t, owner);
  // A deleted visit of the technician's crew: the visit is theirs (with include_deleted), its job is not.
  const deleted = (await rest(t, owner).post(`/jobs/${w.jobs.other.uuid}/visits`, { starts_at: '2026-06-02T08:00:00Z', ends_at: '2026-06-02T09:00:00Z', assigned_user_ids: [w.tech.userId] })).body.data;
  expect((await rest(t, owner).delete(`/visits/${deleted.uuid}`)).status).toBe(200);
  const auto = (await rest(t, owner).get(`/jobs/${w.jobs.mine.uuid}/visits`)).body.data.visits.find((v: { starts_at: string | null }) => !v.starts_at).uuid;
  const sorted = (...ids: string[]) => ids.sort();
  const expected: Record<ReachTable, string[]> = {
    jobs: sorted(w.jobs.mine.uuid, w.jobs.crew.uuid),
    visits: sorted(w.visits.mine.uuid, auto, w.visits.crew.uuid, deleted.uuid),
    customers: sorted(w.customers.mine.uuid, w.customers.crew.uuid),
    locations: [w.locations.mine.uuid],
    job_photos: [w.photos.mine],
  };
  for (const table of REACH_TABLES) {
    expect([table, await bySql(owner, w.tech.userId, table)]).toEqual([table, expected[table]]);
    expect([table, await byFilter(owner, w.tech.userId, table)]).toEqual([table, expected[table]]);
    // The other technician, and an owner's user id (no job of theirs): the two forms agree too.
    for (const userId of [w.other.userId, owner.userId]) expect([table, await byFilter(owner, userId, table)]).toEqual([table, await bySql(owner, userId, table)]);
  }
  expect(await bySql(owner, owner.userId, 'jobs')).toEqual([]);
});
