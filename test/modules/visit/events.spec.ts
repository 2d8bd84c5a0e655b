import { createTenant, gql, rest, useTestApp } from '../../helpers/app';
import { makeJob, makeVisit, slot } from '../../helpers/visits';

// Visits in the event log (migration 0014, docs/events.md) and their restore on both surfaces
// (docs/visits.md).
const t = useTestApp();

async function feed(key: string, types: string) {
  const res = await rest(t, key).get(`/events?types=${types}&limit=1000`);
  expect(res.status).toBe(200);
  return res.body.data.events as Array<{ type: string; record_uuid: string; data: { object: any; previous?: any } }>;
}

it('a visit emits created, updated (a crew change with previous), deleted and restored events, its object as GET shows it', async () => {
  const a = await createTenant(t);
  const job = await makeJob(t, a);
  const visit = await makeVisit(t, a, job.uuid, slot(9, 11));
  const assigned = await rest(t, a).post(`/visits/${visit.uuid}/assign`, { user_ids: [a.userId] });
  expect(assigned.status).toBe(200);
  expect((await rest(t, a).delete(`/visits/${visit.uuid}`)).status).toBe(200);
  const restored = await rest(t, a).post(`/visits/${visit.uuid}/restore`);
  expect(restored.status).toBe(200);
  expect(restored.body.data.assigned_user_ids).toEqual([a.userId]);

  const events = (await feed(a.key, 'visit.*')).filter((e) => e.record_uuid === visit.uuid);
  expect(events.map((e) => e.type)).toEqual(['visit.created', 'visit.updated', 'visit.deleted', 'visit.restored']);
  expect(events[1].data.previous.assigned_user_ids).toEqual([]);
  const { job: _summary, ...asGet } = (await rest(t, a).get(`/visits/${visit.uuid}`)).body.data;
  expect(events[3].data.object).toEqual(asGet);
  // The catalogue lists them.
  const types = (await rest(t, a).get('/event_types')).body.data;
  expect(JSON.stringify(types)).toContain('visit.restored');
});

it('restore: not deleted 400, another company 404, GraphQL restoreVisit, and the crew is booked again', async () => {
  const a = await createTenant(t);
  const b = await createTenant(t, { name: 'Other' });
  const job = await makeJob(t, a);
  const first = await makeVisit(t, a, job.uuid, { ...slot(9, 11), assigned_user_ids: [a.userId] });
  expect((await rest(t, a).post(`/visits/${first.uuid}/restore`)).status).toBe(400);
  await rest(t, a).delete(`/visits/${first.uuid}`);
  expect((await rest(t, b).post(`/visits/${first.uuid}/restore`)).status).toBe(404);
  // While it was deleted, the technician was booked at the same time elsewhere: no double booking.
  await makeVisit(t, a, job.uuid, { ...slot(10, 12), assigned_user_ids: [a.userId] });
  const conflict = await gql(t, a, `mutation($u: UUID!) { restoreVisit(uuid: $u) { uuid } }`, { u: first.uuid });
  expect(conflict.errors?.[0].extensions.code).toBe('SCHEDULE_CONFLICT');
  const free = await makeVisit(t, a, job.uuid, slot(14, 15));
  await rest(t, a).delete(`/visits/${free.uuid}`);
  const ok = await gql(t, a, `mutation($u: UUID!) { restoreVisit(uuid: $u) { uuid status } }`, { u: free.uuid });
  expect(ok.errors).toBeUndefined();
  expect(ok.data.restoreVisit.uuid).toBe(free.uuid);
  expect((await rest(t, a).get(`/visits/${free.uuid}`)).status).toBe(200);
});
