import { addUser, createTenant, rest, Tenant, TestApp, useTestApp } from '../../helpers/app';
import { at, makeJob, makeVisit, slot } from '../../helpers/visits';

// Visits and crews over REST (docs/visits.md).

const t = useTestApp();


describe('visits over REST', () => {
  it('creates, reads, lists, updates and deletes a visit of a job', async () => {
    const a = await createTenant(t);
    const j = await makeJob(t, a);
    const v = await makeVisit(t, a, j.uuid, { title: 'Rough-in', instructions: 'Side door', ...slot(13, 15), assigned_user_ids: [a.userId] });
    expect(v).toMatchObject({ job_uuid: j.uuid, title: 'Rough-in', instructions: 'Side door', status: 'Scheduled', starts_at: at(13), ends_at: at(15), all_day: false, visit_date: '2026-06-01', assigned_user_ids: [a.userId], completed_at: null, deleted_at: null });
    expect(v.job).toEqual({ uuid: j.uuid, job_number: '1', title: 'Install', status: 'New' });
    expect(Object.keys(v)).toEqual(['uuid', 'job_uuid', 'title', 'instructions', 'status', 'starts_at', 'ends_at', 'all_day', 'visit_date', 'assigned_user_ids', 'completed_at', 'schedule_uuid', 'occurrence_date', 'schedule_exception', 'schedule_conflicts', 'custom_fields', 'external_ids', 'created_at', 'updated_at', 'deleted_at', 'job']);
    expect((await rest(t, a).get(`/visits/${v.uuid}`)).body.data).toEqual(v);
    const list = await rest(t, a).get(`/jobs/${j.uuid}/visits`);
    expect(list.body.data.visits.map((x: { uuid: string }) => x.uuid)).toEqual([v.uuid]);
    expect(list.body.data.pagination).toEqual({ page: 1, limit: 50, total: 1, total_pages: 1 });
    // GET → PUT works; an unscheduled visit has neither end.
    const { job: _job, ...editable } = v;
    expect((await rest(t, a).put(`/visits/${v.uuid}`, editable)).status).toBe(200);
    const put = await rest(t, a).put(`/visits/${v.uuid}`, { starts_at: null, ends_at: null });
    expect(put.body.data).toMatchObject({ status: 'Unscheduled', visit_date: null, starts_at: null });
    expect((await rest(t, a).put(`/visits/${v.uuid}`, slot(9, 10))).body.data.status).toBe('Scheduled');
    expect((await rest(t, a).delete(`/visits/${v.uuid}`)).body.data).toEqual({ message: 'Visit deleted' });
    expect((await rest(t, a).get(`/visits/${v.uuid}`)).status).toBe(404);
    expect((await rest(t, a).get(`/jobs/${j.uuid}/visits`)).body.data.visits).toEqual([]);
    expect((await rest(t, a).get(`/jobs/${j.uuid}/visits?include_deleted=true`)).body.data.visits).toHaveLength(1);
  });

  it('validates times: both ends or neither, ends after starts, all-day needs its date', async () => {
    const a = await createTenant(t);
    const j = await makeJob(t, a);
    const bad = async (body: object, field: string) => {
      const res = await rest(t, a).post(`/jobs/${j.uuid}/visits`, body);
      expect(res.status).toBe(400);
      expect(res.body.error.details[0].field).toBe(field);
    };
    await bad({ starts_at: at(9) }, 'ends_at');
    await bad({ ends_at: at(9) }, 'starts_at');
    await bad(slot(10, 9), 'ends_at');
    await bad(slot(10, 10), 'ends_at');
    await bad({ all_day: true }, 'visit_date');
    await bad({ all_day: true, visit_date: '2026-06-01', ...slot(9, 10) }, 'starts_at');
    await bad({ visit_date: '2026-06-01' }, 'visit_date');
    await bad({ status: 'En Route' }, 'status');
    await bad({ starts_at: '2026-06-01T09:00:00', ends_at: at(10) }, 'starts_at');
    await bad({ assigned_user_ids: ['nope'] }, 'assigned_user_ids');
    await bad({ status: 'Done' }, 'status');
    expect((await rest(t, a).get(`/jobs/${j.uuid}/visits`)).body.data.pagination.total).toBe(0);
    const un = await makeVisit(t, a, j.uuid, {});
    expect(un).toMatchObject({ status: 'Unscheduled', starts_at: null, ends_at: null, all_day: false, visit_date: null, assigned_user_ids: [], title: null });
  });

  it('the calendar: half-open overlap, filters, order by start with unscheduled last, pagination', async () => {
    const a = await createTenant(t);
    const tess = (await addUser(t, a)).id;
    const j1 = await makeJob(t, a);
    const j2 = await makeJob(t, a);
    const late = await makeVisit(t, a, j1.uuid, { ...slot(14, 16), assigned_user_ids: [tess] });
    const early = await makeVisit(t, a, j2.uuid, { ...slot(8, 10), assigned_user_ids: [a.userId] });
    const mid = await makeVisit(t, a, j2.uuid, { ...slot(10, 12), assigned_user_ids: [a.userId, tess] });
    const none = await makeVisit(t, a, j1.uuid, {});
    const uuids = async (q: string) => {
      const res = await rest(t, a).get(`/visits${q}`);
      expect(res.status).toBe(200);
      return res.body.data.visits.map((v: { uuid: string }) => v.uuid);
    };
    expect(await uuids('')).toEqual([early.uuid, mid.uuid, late.uuid, none.uuid]);
    // [from, to) overlaps: a visit ending at `from` or starting at `to` is outside.
    expect(await uuids(`?from=${at(10)}&to=${at(14)}`)).toEqual([mid.uuid]);
    expect(await uuids(`?from=${at(9)}&to=${at(10)}`)).toEqual([early.uuid]);
    expect(await uuids(`?from=${at(15)}`)).toEqual([late.uuid]);
    expect(await uuids(`?to=${at(10)}`)).toEqual([early.uuid]);
    expect(await uuids(`?user_id=${tess}`)).toEqual([mid.uuid, late.uuid]);
    expect(await uuids(`?user_id=${tess}&from=${at(12)}&to=${at(20)}`)).toEqual([late.uuid]);
    expect(await uuids(`?job_uuid=${j1.uuid}`)).toEqual([late.uuid, none.uuid]);
    expect(await uuids(`?status=unscheduled`)).toEqual([none.uuid]);
    expect(await uuids(`?status=Scheduled,Unscheduled&job_uuid=${j2.uuid}`)).toEqual([early.uuid, mid.uuid]);
    const page2 = (await rest(t, a).get('/visits?limit=3&page=2')).body.data;
    expect(page2.visits.map((v: { uuid: string }) => v.uuid)).toEqual([none.uuid]);
    expect(page2.pagination).toEqual({ page: 2, limit: 3, total: 4, total_pages: 2 });
    expect((await rest(t, a).get(`/visits?from=${at(12)}&to=${at(12)}`)).status).toBe(400);
    expect((await rest(t, a).get(`/visits?from=2026-06-01`)).status).toBe(400);
    expect((await rest(t, a).get(`/visits?bogus=1`)).status).toBe(400);
  });

  it('complete: Completed with completed_at (default now, or the one sent); a Cancelled visit is 400', async () => {
    const a = await createTenant(t);
    const j = await makeJob(t, a);
    const v = await makeVisit(t, a, j.uuid, slot(9, 10));
    const before = Date.now();
    const done = (await rest(t, a).post(`/visits/${v.uuid}/complete`)).body.data;
    expect(done.status).toBe('Completed');
    expect(Date.parse(done.completed_at)).toBeGreaterThanOrEqual(before - 1000);
    const again = (await rest(t, a).post(`/visits/${v.uuid}/complete`, { completed_at: '2026-06-01T10:05:00-04:00' })).body.data;
    expect(again.completed_at).toBe('2026-06-01T14:05:00.000Z');
    expect((await rest(t, a).put(`/visits/${v.uuid}`, { status: 'Scheduled' })).body.data).toMatchObject({ status: 'Scheduled', completed_at: null });
    await rest(t, a).put(`/visits/${v.uuid}`, { status: 'Cancelled' });
    const refused = await rest(t, a).post(`/visits/${v.uuid}/complete`);
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('VALIDATION_ERROR');
    expect((await rest(t, a).get(`/visits/${v.uuid}`)).body.data.status).toBe('Cancelled');
    expect((await rest(t, a).post(`/visits/${v.uuid}/complete`, { completed_at: 'yesterday' })).status).toBe(400);
  });

  it('assign: replace (default), add, remove; users of another company are refused without detail', async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'B' });
    const tess = (await addUser(t, a)).id;
    const j = await makeJob(t, a);
    const v = await makeVisit(t, a, j.uuid, slot(9, 10));
    const assign = (body: object) => rest(t, a).post(`/visits/${v.uuid}/assign`, body);
    expect((await assign({ user_ids: [tess] })).body.data.assigned_user_ids).toEqual([tess]);
    expect((await assign({ user_ids: [a.userId, tess], mode: 'add' })).body.data.assigned_user_ids).toEqual([tess, a.userId]);
    expect((await assign({ user_ids: [tess], mode: 'remove' })).body.data.assigned_user_ids).toEqual([a.userId]);
    expect((await assign({ user_ids: [tess, tess], mode: 'replace' })).body.data.assigned_user_ids).toEqual([tess]);
    const foreign = await assign({ user_ids: [a.userId, b.userId], mode: 'add' });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.details).toEqual([{ field: 'user_ids', message: 'user_ids must list users of this company' }]);
    expect(JSON.stringify(foreign.body)).not.toContain(b.userId);
    const missing = await assign({ user_ids: ['00000000-0000-4000-8000-000000000000'] });
    expect(missing.body.error).toEqual(foreign.body.error);
    expect((await assign({ user_ids: [tess], mode: 'swap' })).status).toBe(400);
    expect((await assign({ mode: 'add' })).status).toBe(400);
    expect((await rest(t, a).get(`/visits/${v.uuid}`)).body.data.assigned_user_ids).toEqual([tess]);
    // The job shows the visit's first user.
    expect((await rest(t, a).get(`/jobs/${j.uuid}`)).body.data.assigned_to_user_id).toBe(tess);
  });

  it('tenancy: another company cannot read, change, list or reference visits, jobs or users', async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'B' });
    const j = await makeJob(t, a);
    const v = await makeVisit(t, a, j.uuid, { ...slot(9, 10), assigned_user_ids: [a.userId] });
    expect((await rest(t, b).get(`/visits/${v.uuid}`)).status).toBe(404);
    expect((await rest(t, b).put(`/visits/${v.uuid}`, { title: 'x' })).status).toBe(404);
    expect((await rest(t, b).delete(`/visits/${v.uuid}`)).status).toBe(404);
    expect((await rest(t, b).post(`/visits/${v.uuid}/complete`)).status).toBe(404);
    expect((await rest(t, b).post(`/visits/${v.uuid}/assign`, { user_ids: [b.userId] })).status).toBe(404);
    expect((await rest(t, b).get(`/jobs/${j.uuid}/visits`)).status).toBe(404);
    expect((await rest(t, b).post(`/jobs/${j.uuid}/visits`, {})).status).toBe(404);
    expect((await rest(t, b).get('/visits')).body.data.visits).toEqual([]);
    expect((await rest(t, b).get(`/visits?job_uuid=${j.uuid}`)).body.data.visits).toEqual([]);
    expect((await rest(t, b).get(`/visits?user_id=${a.userId}`)).body.data.visits).toEqual([]);
    const bj = await makeJob(t, b);
    const cross = await rest(t, b).post(`/jobs/${bj.uuid}/visits`, { assigned_user_ids: [a.userId] });
    expect(cross.status).toBe(400);
    expect(cross.body.error.details).toEqual([{ field: 'assigned_user_ids', message: 'assigned_user_ids must list users of this company' }]);
    const bv = await makeVisit(t, b, bj.uuid, slot(9, 10));
    expect((await rest(t, b).put(`/visits/${bv.uuid}`, { assigned_user_ids: [a.userId] })).status).toBe(400);
    expect((await rest(t, a).get(`/visits/${v.uuid}`)).body.data.assigned_user_ids).toEqual([a.userId]);
  });
});
