import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { toGlobalId } from '../../src/schema/global-id';
import { createTenant, gql, rest, Tenant, useTestApp } from '../helpers/app';
import { png } from '../helpers/images';
import { technicianWorld } from '../helpers/technicians';

// What a technician sees (docs/people-and-access.md): the jobs assigned to them or with a visit of
// their crew, their own visits, those jobs' customers and locations; anything else is 404, and
// left out of lists, searches, totals, relations and the calendar; money reads null. Both surfaces.

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fsc-reach-'));
const t = useTestApp({ DATA_DIR: dataDir });
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
jest.setTimeout(120_000);

let owner: Tenant;
let w: Awaited<ReturnType<typeof technicianWorld>>;

beforeEach(async () => {
  owner = await createTenant(t, { addons: ['job_photos'] });
  w = await technicianWorld(t, owner);
});

const uuids = (items: Array<{ uuid: string }>) => items.map((i) => i.uuid).sort();
const sorted = (...ids: string[]) => [...ids].sort();

describe('REST', () => {
  it("a job assigned to someone else is 404, and so are its visits, photos and customer", async () => {
    const r = rest(t, w.tech);
    const other = w.jobs.other.uuid;
    for (const path of [`/jobs/${other}`, `/jobs/${other}/visits`, `/jobs/${other}/photos`, `/jobs/${other}/photos/${w.photos.other}`, `/visits/${w.visits.other.uuid}`, `/customers/${w.customers.other.uuid}`, `/locations/${w.locations.other.uuid}`]) {
      const res = await r.get(path);
      expect([path, res.status, res.body.error?.code]).toEqual([path, 404, 'NOT_FOUND']);
    }
    // Writes they may make elsewhere: not here.
    expect((await r.post(`/visits/${w.visits.other.uuid}/complete`, {})).status).toBe(404);
    expect((await r.put(`/visits/${w.visits.othersOnMine.uuid}`, { status: 'En Route' })).status).toBe(404);
    // The owner sees it all.
    expect((await rest(t, owner).get(`/jobs/${w.jobs.other.uuid}`)).status).toBe(200);
  });

  it('lists, searches and totals hold only what is theirs', async () => {
    const r = rest(t, w.tech);
    const jobs = await r.get('/jobs?limit=50');
    expect(uuids(jobs.body.data.jobs)).toEqual(sorted(w.jobs.mine.uuid, w.jobs.crew.uuid));
    expect(jobs.body.data.pagination.total).toBe(2);
    // A page shorter than its limit and one that is not: the total is counted in their reach either way.
    const first = await r.get('/jobs?limit=1');
    expect(first.body.data.pagination).toMatchObject({ total: 2, total_pages: 2 });
    const search = await r.get('/jobs?search=Boiler&limit=1');
    expect(search.body.data.pagination.total).toBe(2);
    expect(uuids((await r.get('/jobs?search=other')).body.data.jobs)).toEqual([]);
    expect(uuids((await r.get('/jobs?search=next door')).body.data.jobs)).toEqual([]);
    expect(uuids((await r.get(`/jobs?customer_uuid=${w.customers.mine.uuid}`)).body.data.jobs)).toEqual([w.jobs.mine.uuid]);
    expect(uuids((await r.get(`/jobs?customer_uuid=${w.customers.other.uuid}`)).body.data.jobs)).toEqual([]);

    expect(uuids((await r.get('/locations')).body.data.locations)).toEqual([w.locations.mine.uuid]);
    expect((await r.get(`/jobs/${w.jobs.mine.uuid}/photos`)).body.data.photos.map((p: { uuid: string }) => p.uuid)).toEqual([w.photos.mine]);
    const customers = await r.get('/customers?limit=1');
    expect(customers.body.data.pagination.total).toBe(2);
    expect(uuids((await r.get('/customers')).body.data.customers)).toEqual(sorted(w.customers.mine.uuid, w.customers.crew.uuid));
    // A search twice (the second may reuse a remembered total): never the company's.
    for (let i = 0; i < 2; i++) {
      const found = await r.get('/customers?search=o&limit=1');
      expect(found.body.data.pagination.total).toBe(2);
    }
    expect((await rest(t, owner).get('/customers?search=o&limit=1')).body.data.pagination.total).toBe(3);
    expect((await rest(t, owner).get('/jobs?limit=1')).body.data.pagination.total).toBe(4);
  });

  it('the calendar shows their own visits only', async () => {
    const r = rest(t, w.tech);
    const all = await r.get('/visits?from=2026-06-01T00:00:00Z&to=2026-06-02T00:00:00Z');
    expect(uuids(all.body.data.visits)).toEqual(sorted(w.visits.mine.uuid, w.visits.crew.uuid));
    expect(all.body.data.pagination.total).toBe(2);
    // Another user's calendar: only the visit they share.
    const others = await r.get(`/visits?user_id=${w.other.userId}&from=2026-06-01T00:00:00Z&to=2026-06-02T00:00:00Z`);
    expect(uuids(others.body.data.visits)).toEqual([w.visits.crew.uuid]);
    // Of their job, the visits of their crew (the one made by the job's assignment, unscheduled, too), not the other's.
    const ofJob = (await rest(t, owner).get(`/jobs/${w.jobs.mine.uuid}/visits`)).body.data.visits as Array<{ uuid: string; assigned_user_ids: string[] }>;
    expect(ofJob.length).toBe(3);
    const theirs = ofJob.filter((v) => v.assigned_user_ids.includes(w.tech.userId)).map((v) => v.uuid);
    expect(theirs).toContain(w.visits.mine.uuid);
    expect(uuids((await r.get(`/jobs/${w.jobs.mine.uuid}/visits`)).body.data.visits)).toEqual(sorted(...theirs));
    expect((await rest(t, owner).get('/visits')).body.data.pagination.total).toBe(7);
  });

  it('they upload photos to their job, not to another’s', async () => {
    const upload = (jobUuid: string) => request(t.app).post(`/api/v1/jobs/${jobUuid}/photos`).set('Authorization', `Bearer ${w.tech.key}`).attach('photos', png(3, 3), 'a.png');
    const mine = await upload(w.jobs.mine.uuid);
    expect(mine.status).toBe(200);
    expect(mine.body.data.photos[0]).toMatchObject({ job_uuid: w.jobs.mine.uuid, user_id: w.tech.userId });
    const other = await upload(w.jobs.other.uuid);
    expect([other.status, other.body.error?.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('they complete their own visit; money reads null on their answers, not on the owner’s', async () => {
    const r = rest(t, w.tech);
    const done = await r.post(`/visits/${w.visits.mine.uuid}/complete`, {});
    expect(done.status).toBe(200);
    expect(done.body.data.status).toBe('Completed');
    const job = await r.get(`/jobs/${w.jobs.mine.uuid}`);
    expect(job.status).toBe(200);
    expect(job.body.data).toMatchObject({ estimated_amount: null, actual_amount: null, title: 'Boiler mine' });
    expect(job.body.data.customer.uuid).toBe(w.customers.mine.uuid);
    const list = await r.get('/jobs');
    for (const j of list.body.data.jobs) expect([j.estimated_amount, j.actual_amount]).toEqual([null, null]);
    const seen = await rest(t, owner).get(`/jobs/${w.jobs.mine.uuid}`);
    expect([seen.body.data.estimated_amount, seen.body.data.actual_amount]).toEqual([500, 450]);
  });
});

describe('GraphQL', () => {
  it("a job assigned to someone else is NOT_FOUND and absent from lists, totals, customer { jobs } and the calendar", async () => {
    const one = await gql(t, w.tech, 'query($u: UUID!) { job(uuid: $u) { uuid } }', { u: w.jobs.other.uuid });
    expect(one.errors?.[0].extensions.code).toBe('NOT_FOUND');
    const visit = await gql(t, w.tech, 'query($u: UUID!) { visit(uuid: $u) { uuid } }', { u: w.visits.other.uuid });
    expect(visit.errors?.[0].extensions.code).toBe('NOT_FOUND');
    const customer = await gql(t, w.tech, 'query($u: UUID!) { customer(uuid: $u) { uuid } }', { u: w.customers.other.uuid });
    expect(customer.errors?.[0].extensions.code).toBe('NOT_FOUND');
    // node(id): absent, as an id of nothing.
    const node = await gql(t, w.tech, 'query($id: ID!) { node(id: $id) { id } }', { id: toGlobalId('Job', w.jobs.other.uuid) });
    expect(node.data?.node ?? null).toBeNull();
    const mine = await gql(t, w.tech, 'query($id: ID!) { node(id: $id) { id } }', { id: toGlobalId('Job', w.jobs.mine.uuid) });
    expect(mine.data.node).toEqual({ id: toGlobalId('Job', w.jobs.mine.uuid) });

    const lists = await gql(
      t,
      w.tech,
      `{ jobs(limit: 1) { items { uuid } pagination { total } }
         search: jobs(search: "Boiler") { items { uuid } pagination { total } }
         customers { items { uuid jobs(limit: 10) { uuid visits(limit: 10) { uuid startsAt } } } pagination { total } }
         visits(from: "2026-06-01T00:00:00Z") { items { uuid job { uuid } } pagination { total } } }`,
    );
    expect(lists.errors).toBeUndefined();
    expect(lists.data.jobs.pagination.total).toBe(2);
    expect(uuids(lists.data.search.items)).toEqual(sorted(w.jobs.mine.uuid, w.jobs.crew.uuid));
    expect(lists.data.customers.pagination.total).toBe(2);
    const jobsOfCustomers = lists.data.customers.items.flatMap((c: { jobs: Array<{ uuid: string; visits: Array<{ uuid: string }> }> }) => c.jobs);
    expect(uuids(jobsOfCustomers)).toEqual(sorted(w.jobs.mine.uuid, w.jobs.crew.uuid));
    // Their visits only: the scheduled two and the unscheduled one their assignment made.
    const visitsOfJobs = jobsOfCustomers.flatMap((j: { visits: Array<{ uuid: string; startsAt: string | null }> }) => j.visits);
    expect(uuids(visitsOfJobs.filter((v: { startsAt: string | null }) => v.startsAt))).toEqual(sorted(w.visits.mine.uuid, w.visits.crew.uuid));
    expect(visitsOfJobs.length).toBe(3);
    expect(uuids(lists.data.visits.items)).toEqual(sorted(w.visits.mine.uuid, w.visits.crew.uuid));
    expect(lists.data.visits.pagination.total).toBe(2);

    // customer { jobs } of a customer they see, one by one (the loaders, not a list's prefetch).
    const own = await gql(t, w.tech, 'query($u: UUID!) { customer(uuid: $u) { jobs { uuid } } }', { u: w.customers.mine.uuid });
    expect(own.data?.customer?.jobs.map((j: { uuid: string }) => j.uuid)).toEqual([w.jobs.mine.uuid]);
  });

  it('money is null for them, nested or not', async () => {
    const q = `query($u: UUID!) { job(uuid: $u) { estimatedAmount actualAmount customer { jobs { estimatedAmount actualAmount } } }
      jobs { items { estimatedAmount actualAmount } } visits { items { job { estimatedAmount actualAmount } } } }`;
    const tech = await gql(t, w.tech, q, { u: w.jobs.mine.uuid });
    expect(tech.errors).toBeUndefined();
    const amounts = JSON.stringify(tech.data).match(/"(estimatedAmount|actualAmount)":[^,}]+/g)!;
    expect(amounts.length).toBeGreaterThanOrEqual(10);
    expect(amounts.filter((a) => !a.endsWith(':null'))).toEqual([]);
    const seen = await gql(t, owner, q, { u: w.jobs.mine.uuid });
    expect(seen.data.job).toMatchObject({ estimatedAmount: 500, actualAmount: 450 });
  });

  it('they complete their own visit, not another’s', async () => {
    const m = 'mutation($u: UUID!) { completeVisit(uuid: $u) { uuid status } }';
    expect((await gql(t, w.tech, m, { u: w.visits.mine.uuid })).data?.completeVisit.status).toBe('COMPLETED');
    expect((await gql(t, w.tech, m, { u: w.visits.other.uuid })).errors?.[0].extensions.code).toBe('NOT_FOUND');
  });
});
