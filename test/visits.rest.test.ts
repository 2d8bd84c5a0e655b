import { addUser, createTenant, rest, Tenant, TestApp, useTestApp } from './helpers/app';

const t = useTestApp();

async function job(t: TestApp, a: Tenant, extra: object = {}) {
  const c = (await rest(t, a).post('/customers', { first_name: 'Ada', last_name: 'Lovelace' })).body.data;
  const res = await rest(t, a).post('/jobs', { customer_uuid: c.uuid, title: 'Install', ...extra });
  expect(res.status).toBe(200);
  return res.body.data;
}

describe('visits over REST', () => {
  it('creates, reads, lists, updates and deletes a visit of a job', async () => {
    const a = await createTenant(t);
    const j = await job(t, a);
    const created = await rest(t, a).post(`/jobs/${j.uuid}/visits`, { title: 'Rough-in', starts_at: '2026-06-01T13:00:00Z', ends_at: '2026-06-01T15:00:00Z', assigned_user_ids: [a.userId] });
    expect(created.body.error).toBeUndefined();
    const v = created.body.data;
    expect(v).toMatchObject({ job_uuid: j.uuid, title: 'Rough-in', status: 'Scheduled', starts_at: '2026-06-01T13:00:00.000Z', ends_at: '2026-06-01T15:00:00.000Z', all_day: false, visit_date: '2026-06-01', assigned_user_ids: [a.userId], completed_at: null });
    expect(Object.keys(v)).toEqual(['uuid', 'job_uuid', 'title', 'instructions', 'status', 'starts_at', 'ends_at', 'all_day', 'visit_date', 'assigned_user_ids', 'completed_at', 'created_at', 'updated_at', 'deleted_at', 'job']);
    expect((await rest(t, a).get(`/visits/${v.uuid}`)).body.data).toEqual(v);
    const list = await rest(t, a).get(`/jobs/${j.uuid}/visits`);
    expect(list.body.data.visits.map((x: any) => x.uuid)).toEqual([v.uuid]);
    const mirrored = (await rest(t, a).get(`/jobs/${j.uuid}`)).body.data;
    expect(mirrored).toMatchObject({ scheduled_date: '2026-06-01', scheduled_time_start: '09:00', scheduled_time_end: '11:00', assigned_to_user_id: a.userId });
    const put = await rest(t, a).put(`/visits/${v.uuid}`, { starts_at: null, ends_at: null });
    expect(put.body.data).toMatchObject({ status: 'Unscheduled', visit_date: null });
    expect((await rest(t, a).delete(`/visits/${v.uuid}`)).body.data).toEqual({ message: 'Visit deleted' });
    expect((await rest(t, a).get(`/visits/${v.uuid}`)).status).toBe(404);
  });
});
