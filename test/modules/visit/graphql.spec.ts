import { addUser, createTenant, gql, rest, useTestApp } from '../../helpers/app';
import { watchStatements } from '../../helpers/statements';
import { at, makeJob, makeVisit, slot } from '../../helpers/visits';

// Visits over GraphQL: the same services and rules as REST (docs/visits.md).

const t = useTestApp();

const FIELDS = `uuid jobUuid title instructions status startsAt endsAt allDay visitDate assignedUserIds completedAt`;

describe('visits over GraphQL', () => {
  it('createVisit, visit, updateVisit, assignVisit, completeVisit, deleteVisit and Job.visits', async () => {
    const a = await createTenant(t);
    const tess = (await addUser(t, a)).id;
    const j = await makeJob(t, a);
    const created = await gql(t, a, `mutation($j: UUID!, $i: VisitCreateInput!) { createVisit(jobUuid: $j, input: $i) { ${FIELDS} job { uuid } assignedUsers { id firstName } } }`, {
      j: j.uuid,
      i: { title: 'Survey', startsAt: at(13), endsAt: at(14), assignedUserIds: [tess] },
    });
    expect(created.errors).toBeUndefined();
    const v = created.data.createVisit;
    expect(v).toMatchObject({ jobUuid: j.uuid, title: 'Survey', status: 'SCHEDULED', startsAt: at(13), visitDate: '2026-06-01', assignedUserIds: [tess], job: { uuid: j.uuid }, assignedUsers: [{ id: tess, firstName: 'Tess' }] });
    // The same record as REST shows.
    const r = (await rest(t, a).get(`/visits/${v.uuid}`)).body.data;
    expect(r).toMatchObject({ uuid: v.uuid, starts_at: v.startsAt, assigned_user_ids: v.assignedUserIds, status: 'Scheduled' });
    const got = await gql(t, a, `query($u: UUID!) { visit(uuid: $u) { ${FIELDS} } }`, { u: v.uuid });
    expect(got.data.visit.uuid).toBe(v.uuid);
    const upd = await gql(t, a, `mutation($u: UUID!) { updateVisit(uuid: $u, input: { allDay: true, visitDate: "2026-06-02" }) { allDay visitDate startsAt endsAt } }`, { u: v.uuid });
    expect(upd.data.updateVisit).toEqual({ allDay: true, visitDate: '2026-06-02', startsAt: '2026-06-02T04:00:00.000Z', endsAt: '2026-06-03T04:00:00.000Z' });
    const bad = await gql(t, a, `mutation($u: UUID!) { updateVisit(uuid: $u, input: { allDay: false, startsAt: "2026-06-02T10:00:00Z", endsAt: "2026-06-02T09:00:00Z" }) { uuid } }`, { u: v.uuid });
    expect(bad.errors?.[0].extensions).toEqual({ code: 'VALIDATION_ERROR', details: [{ field: 'endsAt', message: 'endsAt must be after starts_at' }] });
    const add = await gql(t, a, `mutation($u: UUID!, $i: [UUID!]!) { assignVisit(uuid: $u, input: { userIds: $i, mode: ADD }) { assignedUserIds } }`, { u: v.uuid, i: [a.userId] });
    expect(add.data.assignVisit.assignedUserIds).toEqual([tess, a.userId]);
    const rm = await gql(t, a, `mutation($u: UUID!, $i: [UUID!]!) { assignVisit(uuid: $u, input: { userIds: $i, mode: REMOVE }) { assignedUserIds } }`, { u: v.uuid, i: [tess] });
    expect(rm.data.assignVisit.assignedUserIds).toEqual([a.userId]);
    const second = await makeVisit(t, a, j.uuid, slot(8, 9));
    const jobVisits = await gql(t, a, `query($u: UUID!) { job(uuid: $u) { visits { uuid } } }`, { u: j.uuid });
    expect(jobVisits.data.job.visits.map((x: { uuid: string }) => x.uuid)).toEqual([second.uuid, v.uuid]);
    const done = await gql(t, a, `mutation($u: UUID!) { completeVisit(uuid: $u, input: { completedAt: "2026-06-02T18:00:00Z" }) { status completedAt } }`, { u: v.uuid });
    expect(done.data.completeVisit).toEqual({ status: 'COMPLETED', completedAt: '2026-06-02T18:00:00.000Z' });
    await gql(t, a, `mutation($u: UUID!) { updateVisit(uuid: $u, input: { status: CANCELLED }) { status } }`, { u: second.uuid });
    const refused = await gql(t, a, `mutation($u: UUID!) { completeVisit(uuid: $u) { status } }`, { u: second.uuid });
    expect(refused.errors?.[0].extensions.code).toBe('VALIDATION_ERROR');
    expect((await gql(t, a, `mutation($u: UUID!) { deleteVisit(uuid: $u) { message } }`, { u: second.uuid })).data.deleteVisit.message).toBe('Visit deleted');
    expect((await gql(t, a, `query($u: UUID!) { visit(uuid: $u) { uuid } }`, { u: second.uuid })).errors?.[0].extensions.code).toBe('NOT_FOUND');
  });

  it('the calendar query, User.visits(from, to), conflicts and tenancy', async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'B' });
    const tess = (await addUser(t, a)).id;
    const j = await makeJob(t, a);
    const one = await makeVisit(t, a, j.uuid, { ...slot(9, 10), assigned_user_ids: [tess] });
    const two = await makeVisit(t, a, j.uuid, { ...slot(11, 12), assigned_user_ids: [tess, a.userId] });
    const none = await makeVisit(t, a, j.uuid, {});
    const cal = await gql(t, a, `query($f: DateTime, $t: DateTime, $u: UUID) { visits(from: $f, to: $t, userId: $u) { items { uuid } pagination { total } } }`, { f: at(10), t: at(12), u: tess });
    expect(cal.errors).toBeUndefined();
    expect(cal.data.visits).toEqual({ items: [{ uuid: two.uuid }], pagination: { total: 1 } });
    const all = await gql(t, a, `{ visits(status: [SCHEDULED, UNSCHEDULED], limit: 2, page: 2) { items { uuid } pagination { total totalPages } } }`);
    expect(all.data.visits).toEqual({ items: [{ uuid: none.uuid }], pagination: { total: 3, totalPages: 2 } });
    const users = await gql(t, a, `query($f: DateTime) { users { items { id visits(from: $f) { uuid } } } }`, { f: at(10) });
    expect(users.errors).toBeUndefined();
    const byUser = Object.fromEntries(users.data.users.items.map((u: { id: string; visits: Array<{ uuid: string }> }) => [u.id, u.visits.map((x) => x.uuid)]));
    expect(byUser).toEqual({ [a.userId]: [two.uuid], [tess]: [two.uuid] });
    const conflict = await gql(t, a, `mutation($u: UUID!, $i: [UUID!]!) { assignVisit(uuid: $u, input: { userIds: $i }) { uuid } }`, { u: none.uuid, i: [tess] });
    expect(conflict.errors).toBeUndefined();
    const moved = await gql(t, a, `mutation($u: UUID!) { updateVisit(uuid: $u, input: { startsAt: "2026-06-01T09:30:00Z", endsAt: "2026-06-01T10:30:00Z" }) { uuid } }`, { u: none.uuid });
    expect(moved.errors?.[0]).toMatchObject({ message: `User ${tess} is already booked on visit ${one.uuid} at an overlapping time`, extensions: { code: 'SCHEDULE_CONFLICT' } });
    // Another company: not found, not listed, not referenceable.
    expect((await gql(t, b, `query($u: UUID!) { visit(uuid: $u) { uuid } }`, { u: one.uuid })).errors?.[0].extensions.code).toBe('NOT_FOUND');
    expect((await gql(t, b, `{ visits { items { uuid } } }`)).data.visits.items).toEqual([]);
    expect((await gql(t, b, `mutation($j: UUID!) { createVisit(jobUuid: $j, input: {}) { uuid } }`, { j: j.uuid })).errors?.[0].extensions.code).toBe('NOT_FOUND');
    const bj = await makeJob(t, b);
    const foreign = await gql(t, b, `mutation($j: UUID!, $i: [UUID!]) { createVisit(jobUuid: $j, input: { assignedUserIds: $i }) { uuid } }`, { j: bj.uuid, i: [tess] });
    expect(foreign.errors?.[0].extensions).toEqual({ code: 'VALIDATION_ERROR', details: [{ field: 'assignedUserIds', message: 'assignedUserIds must list users of this company' }] });
    expect((await gql(t, b, `mutation($u: UUID!, $i: [UUID!]!) { assignVisit(uuid: $u, input: { userIds: $i }) { uuid } }`, { u: one.uuid, i: [b.userId] })).errors?.[0].extensions.code).toBe('NOT_FOUND');
  });

  it('a calendar page of 100 visits with their jobs, customers and users costs a fixed number of statements', async () => {
    const a = await createTenant(t);
    await rest(t, a).put('/companies/me/settings', { prevent_double_booking: false });
    const users = [a.userId];
    for (let i = 0; i < 4; i++) users.push((await addUser(t, a, `U${i}`)).id);
    const jobs: Array<{ uuid: string }> = [];
    for (let i = 0; i < 10; i++) jobs.push(await makeJob(t, a));
    for (let batch = 0; batch < 10; batch++) {
      await Promise.all(
        Array.from({ length: 10 }, (_, k) => {
          const n = batch * 10 + k;
          return makeVisit(t, a, jobs[n % 10].uuid, { starts_at: at(8 + (n % 10)), ends_at: at(9 + (n % 10)), assigned_user_ids: [users[n % 5], users[(n + 1) % 5]] });
        }),
      );
    }
    const query = `query($limit: Int) { visits(from: "2026-06-01T00:00:00Z", to: "2026-06-02T00:00:00Z", limit: $limit) { items { uuid job { title customer { firstName } } assignedUsers { firstName } } pagination { total } } }`;
    const statements = watchStatements();
    const measure = async (limit: number) => {
      statements.reset();
      const res = await gql(t, a, query, { limit });
      expect(res.errors).toBeUndefined();
      expect(res.data.visits.items).toHaveLength(limit);
      expect(res.data.visits.items.every((v: { job: { customer: unknown }; assignedUsers: unknown[] }) => v.job.customer && v.assignedUsers.length === 2)).toBe(true);
      return statements.count;
    };
    try {
      const ten = await measure(10);
      const hundred = await measure(100);
      expect(hundred).toBe(ten);
      // The key lookup, the page, its count, the jobs, the users, the customers.
      expect(hundred).toBeLessThanOrEqual(6);
      // Every user's visits of the day with their jobs: one statement for the visits of all users.
      statements.reset();
      const byUser = await gql(t, a, `{ users { items { id visits(from: "2026-06-01T00:00:00Z", to: "2026-06-02T00:00:00Z") { uuid assignedUserIds job { title } } } } }`);
      expect(byUser.errors).toBeUndefined();
      const items = byUser.data.users.items as Array<{ id: string; visits: Array<{ assignedUserIds: string[]; job: unknown }> }>;
      expect(items).toHaveLength(5);
      expect(items.every((u) => u.visits.length === 40 && u.visits.every((v) => v.assignedUserIds.includes(u.id) && v.job))).toBe(true);
      const perUsers = statements.count;
      expect(perUsers).toBeLessThanOrEqual(5);
      // Each job's visits, read in one batch whatever the number of jobs.
      const jobVisits = async (limit: number) => {
        statements.reset();
        const res = await gql(t, a, `query($l: Int) { jobs(limit: $l) { items { visits { uuid assignedUserIds startsAt } } } }`, { l: limit });
        expect(res.errors).toBeUndefined();
        expect(res.data.jobs.items.every((j: { visits: Array<{ assignedUserIds: string[] }> }) => j.visits.length === 10 && j.visits.every((v) => v.assignedUserIds.length === 2))).toBe(true);
        return statements.count;
      };
      expect(await jobVisits(10)).toBe(await jobVisits(2));
    } finally {
      statements.stop();
    }
  });
});
