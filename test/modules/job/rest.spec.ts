import { addUser, createTenant, rest, Tenant, TestApp, useTestApp } from '../../helpers/app';

const t = useTestApp();

async function customer(t: TestApp, a: Tenant, first = 'Ada') {
  return (await rest(t, a).post('/customers', { first_name: first, last_name: 'Lovelace' })).body.data;
}
async function location(t: TestApp, a: Tenant, body: object = {}) {
  return (await rest(t, a).post('/locations', { name: 'Main', address1: '1 Elm', city: 'Springfield', state: 'IL', zip: '62701', ...body })).body.data;
}

describe('REST jobs', () => {
  it('creates with defaults, a job_number and embeds; get and list embed as documented', async () => {
    const a = await createTenant(t);
    const c = await customer(t, a);
    const loc = await location(t, a);
    const tech = await addUser(t, a);
    const res = await rest(t, a).post('/jobs', {
      customer_uuid: c.uuid, title: ' Fix sink ', location_uuid: loc.uuid, assigned_to_user_id: tech.id,
      estimated_amount: 120.5, scheduled_date: '2026-12-01', scheduled_time_start: '09:00', scheduled_time_end: '11:30',
    });
    expect(res.status).toBe(200);
    const j = res.body.data;
    expect(j).toMatchObject({
      job_number: '1', title: 'Fix sink', status: 'New', priority: 'Normal', is_urgent: false, is_emergency: false,
      customer_uuid: c.uuid, location_uuid: loc.uuid, assigned_to_user_id: tech.id, estimated_amount: 120.5, actual_amount: null,
      scheduled_date: '2026-12-01', scheduled_time_start: '09:00', scheduled_time_end: '11:30',
      started_at: null, completed_at: null, invoiced_at: null, paid_at: null, deleted_at: null,
      customer: { uuid: c.uuid, first_name: 'Ada', last_name: 'Lovelace' },
      location: { uuid: loc.uuid, name: 'Main', city: 'Springfield', state: 'IL' },
      assigned_user: { id: tech.id, first_name: 'Tess', last_name: 'Tech' },
    });
    const got = await rest(t, a).get(`/jobs/${j.uuid}`);
    expect(got.body).toEqual({ success: true, data: j });
    const list = await rest(t, a).get('/jobs');
    expect(list.body.data.pagination).toEqual({ page: 1, limit: 50, total: 1, total_pages: 1 });
    expect(list.body.data.jobs[0].customer).toEqual({ uuid: c.uuid, first_name: 'Ada', last_name: 'Lovelace' });
    expect(list.body.data.jobs[0]).not.toHaveProperty('location');
    const second = (await rest(t, a).post('/jobs', { customer_uuid: c.uuid, title: 'Two' })).body.data;
    expect(second).toMatchObject({ job_number: '2', location: null, assigned_user: null });
  });

  it('numbers jobs uniquely under concurrent creates, per company', async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'Other' });
    const c = await customer(t, a);
    const cb = await customer(t, b);
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => rest(t, a).post('/jobs', { customer_uuid: c.uuid, title: `Job ${i}` })));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const numbers = results.map((r) => Number(r.body.data.job_number)).sort((x, y) => x - y);
    expect(numbers).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect((await rest(t, b).post('/jobs', { customer_uuid: cb.uuid, title: 'B' })).body.data.job_number).toBe('1');
  });

  it('applies status side effects once, and a sent timestamp beats the automatic one', async () => {
    const a = await createTenant(t);
    const c = await customer(t, a);
    const j = (await rest(t, a).post('/jobs', { customer_uuid: c.uuid, title: 'T', status: 'In Progress' })).body.data;
    expect(j.started_at).toMatch(/Z$/);
    const done = (await rest(t, a).put(`/jobs/${j.uuid}`, { status: 'Complete', actual_amount: 99.99 })).body.data;
    expect(done).toMatchObject({ status: 'Complete', started_at: j.started_at, actual_amount: 99.99 });
    expect(done.completed_at).toMatch(/Z$/);
    const again = (await rest(t, a).put(`/jobs/${j.uuid}`, { status: 'In Progress' })).body.data;
    expect(again.started_at).toBe(j.started_at);
    const inv = (await rest(t, a).put(`/jobs/${j.uuid}`, { status: 'Invoiced', invoiced_at: '2026-01-02T03:04:05+01:00' })).body.data;
    expect(inv.invoiced_at).toBe('2026-01-02T02:04:05.000Z');
    const back = (await rest(t, a).put(`/jobs/${j.uuid}`, { status: 'New' })).body.data;
    expect(back).toMatchObject({ status: 'New', completed_at: done.completed_at });
  });

  it('keeps a timestamp scheduled_date as its date in the company timezone', async () => {
    const a = await createTenant(t);
    const c = await customer(t, a);
    // 03:00 UTC on Dec 2 is still Dec 1 in New York (the default timezone).
    const j = (await rest(t, a).post('/jobs', { customer_uuid: c.uuid, title: 'T', scheduled_date: '2026-12-02T03:00:00Z' })).body.data;
    expect(j.scheduled_date).toBe('2026-12-01');
    await location(t, a, { is_primary: true, timezone: 'Asia/Tokyo' });
    const k = (await rest(t, a).put(`/jobs/${j.uuid}`, { scheduled_date: '2026-12-02T20:00:00Z' })).body.data;
    expect(k.scheduled_date).toBe('2026-12-03');
  });

  it.each([
    [{ customer_uuid: undefined }, 'customer_uuid'],
    [{ title: '  ' }, 'title'],
    [{ customer_uuid: 'x' }, 'customer_uuid'],
    [{ status: 'in progress' }, 'status'],
    [{ priority: 'Urgent' }, 'priority'],
    [{ scheduled_time_start: '9:00' }, 'scheduled_time_start'],
    [{ scheduled_time_end: '24:00' }, 'scheduled_time_end'],
    [{ scheduled_time_start: '10:00', scheduled_time_end: '09:59' }, 'scheduled_time_end'],
    [{ scheduled_date: '2026-02-30' }, 'scheduled_date'],
    [{ scheduled_date: '2026-12-01T10:00:00' }, 'scheduled_date'],
    [{ estimated_amount: -1 }, 'estimated_amount'],
    [{ estimated_amount: 1.234 }, 'estimated_amount'],
    [{ job_number: '7' }, 'job_number'],
    [{ is_urgent: 'yes' }, 'is_urgent'],
    [{ assigned_to_user_id: '00000000-0000-4000-8000-000000000000' }, 'assigned_to_user_id'],
    [{ location_uuid: '00000000-0000-4000-8000-000000000000' }, 'location_uuid'],
  ])('refuses %j naming %s', async (extra, field) => {
    const a = await createTenant(t);
    const c = await customer(t, a);
    const res = await rest(t, a).post('/jobs', { customer_uuid: c.uuid, title: 'T', ...extra });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it('checks the time window on the merged record, and GET → edit → PUT works', async () => {
    const a = await createTenant(t);
    const c = await customer(t, a);
    const j = (await rest(t, a).post('/jobs', { customer_uuid: c.uuid, title: 'T', scheduled_time_start: '10:00' })).body.data;
    const bad = await rest(t, a).put(`/jobs/${j.uuid}`, { scheduled_time_end: '09:00' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe('scheduled_time_end');
    const ok = await rest(t, a).put(`/jobs/${j.uuid}`, { ...j, title: 'Edited', scheduled_time_end: '10:30' });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ title: 'Edited', job_number: '1', scheduled_time_end: '10:30' });
    const ro = await rest(t, a).put(`/jobs/${j.uuid}`, { job_number: '99' });
    expect(ro.status).toBe(400);
    expect(ro.body.error.details[0].field).toBe('job_number');
    const clear = await rest(t, a).put(`/jobs/${j.uuid}`, { description: '', scheduled_time_start: null });
    expect(clear.body.data).toMatchObject({ description: null, scheduled_time_start: null });
    expect((await rest(t, a).put(`/jobs/${j.uuid}`, { title: null })).status).toBe(400);
  });

  it('filters by status list, priority, customer, location, assignee and search', async () => {
    const a = await createTenant(t);
    const c1 = await customer(t, a, 'One');
    const c2 = await customer(t, a, 'Two');
    const loc = await location(t, a);
    const tech = await addUser(t, a);
    const mk = (body: object) => rest(t, a).post('/jobs', { customer_uuid: c1.uuid, title: 'Generic', ...body }).then((r) => r.body.data);
    const j1 = await mk({ title: 'Leaky faucet', status: 'Scheduled', priority: 'High' });
    const j2 = await mk({ customer_uuid: c2.uuid, description: 'water HEATER 100% broken', status: 'In Progress', location_uuid: loc.uuid });
    const j3 = await mk({ assigned_to_user_id: tech.id, priority: 'Emergency' });
    const uuids = async (q: string) => (await rest(t, a).get(`/jobs?${q}`)).body.data.jobs.map((j: { uuid: string }) => j.uuid);
    expect(await uuids('status=scheduled,IN PROGRESS')).toEqual([j2.uuid, j1.uuid]);
    expect(await uuids('status=New')).toEqual([j3.uuid]);
    expect(await uuids('priority=high')).toEqual([j1.uuid]);
    expect(await uuids(`customer_uuid=${c2.uuid}`)).toEqual([j2.uuid]);
    expect(await uuids(`location_uuid=${loc.uuid}`)).toEqual([j2.uuid]);
    expect(await uuids(`assigned_to_user_id=${tech.id}`)).toEqual([j3.uuid]);
    expect(await uuids('search=FAUCET')).toEqual([j1.uuid]);
    expect(await uuids('search=heater%20100%25')).toEqual([j2.uuid]);
    expect(await uuids('search=%25')).toEqual([j2.uuid]);
    expect(await uuids(`search=${j3.job_number}`)).toContain(j3.uuid);
    expect(await uuids(`customer_uuid=${c1.uuid}&priority=Emergency`)).toEqual([j3.uuid]);
    expect(await uuids('customer_uuid=00000000-0000-4000-8000-000000000000')).toEqual([]);
    for (const q of ['status=Done', 'priority=x', 'customer_uuid=nope', 'color=red', 'limit=0']) {
      expect((await rest(t, a).get(`/jobs?${q}`)).status).toBe(400);
    }
  });

  it('soft deletes: 404 afterwards, listed only with include_deleted', async () => {
    const a = await createTenant(t);
    const c = await customer(t, a);
    const j = (await rest(t, a).post('/jobs', { customer_uuid: c.uuid, title: 'T' })).body.data;
    const del = await rest(t, a).delete(`/jobs/${j.uuid}`);
    expect(del.body).toEqual({ success: true, data: { message: 'Job deleted' } });
    expect((await rest(t, a).get(`/jobs/${j.uuid}`)).status).toBe(404);
    expect((await rest(t, a).put(`/jobs/${j.uuid}`, { title: 'x' })).status).toBe(404);
    expect((await rest(t, a).delete(`/jobs/${j.uuid}`)).status).toBe(404);
    expect((await rest(t, a).get('/jobs')).body.data.jobs).toEqual([]);
    expect((await rest(t, a).get('/jobs?include_deleted=true')).body.data.jobs[0].deleted_at).toMatch(/Z$/);
    expect((await rest(t, a).get('/jobs/not-a-uuid')).status).toBe(404);
  });

  it('keeps companies apart: invisible, unchangeable, unreferenceable', async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'Rival' });
    const ca = await customer(t, a);
    const cb = await customer(t, b);
    const locB = await location(t, b);
    const techB = await addUser(t, b);
    const ja = (await rest(t, a).post('/jobs', { customer_uuid: ca.uuid, title: 'Mine' })).body.data;
    expect((await rest(t, b).get(`/jobs/${ja.uuid}`)).status).toBe(404);
    expect((await rest(t, b).put(`/jobs/${ja.uuid}`, { title: 'x' })).status).toBe(404);
    expect((await rest(t, b).delete(`/jobs/${ja.uuid}`)).status).toBe(404);
    expect((await rest(t, b).get('/jobs')).body.data.jobs).toEqual([]);
    expect((await rest(t, b).get(`/jobs?customer_uuid=${ca.uuid}`)).body.data.jobs).toEqual([]);
    const messages = new Set<string>();
    for (const body of [{ customer_uuid: cb.uuid }, { location_uuid: locB.uuid }, { assigned_to_user_id: techB.id }]) {
      const res = await rest(t, a).post('/jobs', { customer_uuid: ca.uuid, title: 'T', ...body });
      expect(res.status).toBe(400);
      messages.add(res.body.error.details[0].message.replace(/^\S+ /, ''));
    }
    // A deleted customer gives the same message as another company's.
    await rest(t, a).delete(`/customers/${ca.uuid}`);
    const gone = await rest(t, a).post('/jobs', { customer_uuid: ca.uuid, title: 'T' });
    expect(gone.status).toBe(400);
    expect(gone.body.error.details[0]).toEqual({ field: 'customer_uuid', message: (await rest(t, a).post('/jobs', { customer_uuid: cb.uuid, title: 'T' })).body.error.details[0].message });
    // The deleted customer's job stays readable and updatable, with its customer embedded.
    const still = await rest(t, a).put(`/jobs/${ja.uuid}`, { title: 'Still mine' });
    expect(still.body.data).toMatchObject({ title: 'Still mine', customer: { uuid: ca.uuid } });
  });
});
