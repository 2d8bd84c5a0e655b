import { addUser, createTenant, gql, rest, TestApp, useDbClient, useTestApp } from '../../helpers/app';
import { makeJob, makeVisit } from '../../helpers/visits';
import { companyTodayIn } from '../../../src/modules/company/company.rules';
import { addDays } from '../../../src/modules/schedule/schedule.rrule';
import { extendSchedules } from '../../../src/modules/schedule/schedule.task';
import { localParts } from '../../../src/modules/visit/visit.time';

// Job schedules on both surfaces (docs/recurring-work.md): visits written with the PUT, exceptions
// kept, deleted occurrences skipped for good, conflicts reported, tenancy.

const t = useTestApp();
const db = useDbClient();
const NY = 'America/New_York';
const today = () => companyTodayIn(NY);

type V = { uuid: string; occurrence_date: string; status: string; starts_at: string; assigned_user_ids: string[]; schedule_conflicts: unknown[]; schedule_exception: boolean };

async function visitsOf(tt: TestApp, a: Parameters<typeof rest>[1], jobUuid: string): Promise<V[]> {
  const res = await rest(tt, a).get(`/jobs/${jobUuid}/visits?limit=1000`);
  expect(res.status).toBe(200);
  return res.body.data.visits;
}

describe('job schedules', () => {
  it('PUT writes a visit for every occurrence to the horizon, at the local time, in the same transaction', async () => {
    const a = await createTenant(t);
    const j = await makeJob(t, a);
    const startsOn = addDays(today(), 1);
    const res = await rest(t, a).put(`/jobs/${j.uuid}/schedule`, { rrule: 'FREQ=DAILY', starts_on: startsOn, start_time: '09:00', duration_minutes: 90, horizon_days: 30, title: 'Pool service' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ job_uuid: j.uuid, rrule: 'FREQ=DAILY', starts_on: startsOn, start_time: '09:00', duration_minutes: 90, all_day: false, horizon_days: 30, timezone: NY, generated_through: addDays(today(), 29) });
    const visits = await visitsOf(t, a, j.uuid);
    expect(visits.map((v) => v.occurrence_date)).toEqual(Array.from({ length: 29 }, (_, i) => addDays(startsOn, i)));
    expect(visits.every((v) => localParts(new Date(v.starts_at), NY).time === '09:00' && v.status === 'Scheduled')).toBe(true);
    expect((await rest(t, a).get(`/jobs/${j.uuid}/schedule`)).body.data.uuid).toBe(res.body.data.uuid);
    // The job's schedule fields mirror its next visit.
    expect((await rest(t, a).get(`/jobs/${j.uuid}`)).body.data).toMatchObject({ scheduled_date: startsOn, scheduled_time_start: '09:00', scheduled_time_end: '10:30' });
    // Generated visits are the system's: visit.created events with actor system.
    const { rows } = await db.query(`select count(*)::int as n, count(*) filter (where actor is null)::int as system from events where type = 'visit.created' and company_uuid = $1`, [a.companyUuid]);
    expect(rows[0]).toEqual({ n: 29, system: 29 });
    // The schedule's own change: job.schedule_changed, the job as its object, the key's actor.
    const changed = (await rest(t, a).get('/events?types=job.schedule_changed')).body.data.events;
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatchObject({ resource: 'job', record_uuid: j.uuid, actor: { type: 'api_key' }, data: { object: { uuid: j.uuid } } });
  });

  it('starts at today when starts_on lies in the past, and the background task extends to the horizon exactly once', async () => {
    const a = await createTenant(t);
    const j = await makeJob(t, a);
    await rest(t, a).put(`/jobs/${j.uuid}/schedule`, { rrule: 'FREQ=WEEKLY', starts_on: addDays(today(), -70), all_day: true, horizon_days: 28 });
    const first = await visitsOf(t, a, j.uuid);
    expect(first.length).toBe(4);
    expect(first[0].occurrence_date >= today()).toBe(true);
    // A later day: the horizon moves; two runs at once add each occurrence once.
    // A deleted job's schedule is not extended.
    const gone = await makeJob(t, a);
    await rest(t, a).put(`/jobs/${gone.uuid}/schedule`, { rrule: 'FREQ=WEEKLY', starts_on: today(), all_day: true, horizon_days: 28 });
    expect((await rest(t, a).delete(`/jobs/${gone.uuid}`)).status).toBe(200);
    const later = new Date(Date.now() + 21 * 86_400_000);
    await Promise.all([extendSchedules(t.orm, later), extendSchedules(t.orm, later)]);
    expect((await db.query(`select count(*)::int as n from visits where job_uuid = $1`, [gone.uuid])).rows[0].n).toBe(4);
    const after = await visitsOf(t, a, j.uuid);
    expect(after.length).toBe(7);
    expect(new Set(after.map((v) => v.occurrence_date)).size).toBe(7);
  });

  it('keeps hand-moved and completed visits on a change, and a deleted occurrence stays skipped', async () => {
    const a = await createTenant(t);
    const j = await makeJob(t, a);
    const body = { rrule: 'FREQ=DAILY', starts_on: addDays(today(), 1), start_time: '08:00', duration_minutes: 60, horizon_days: 10 };
    await rest(t, a).put(`/jobs/${j.uuid}/schedule`, body);
    const [v1, v2, v3] = await visitsOf(t, a, j.uuid);
    const moved = new Date(new Date(v1.starts_at).getTime() + 3600_000).toISOString();
    const movedEnd = new Date(new Date(v1.starts_at).getTime() + 7200_000).toISOString();
    expect((await rest(t, a).put(`/visits/${v1.uuid}`, { starts_at: moved, ends_at: movedEnd })).body.data.schedule_exception).toBe(true);
    expect((await rest(t, a).post(`/visits/${v2.uuid}/complete`)).status).toBe(200);
    expect((await rest(t, a).delete(`/visits/${v3.uuid}`)).status).toBe(200);
    // Same rule, a new time: the untouched visits move, the three above stay as they are.
    const changed = await gql(t, a, `mutation($j: UUID!, $i: JobScheduleInput!) { setJobSchedule(jobUuid: $j, input: $i) { startTime } }`, {
      j: j.uuid,
      i: { rrule: 'FREQ=DAILY', startsOn: body.starts_on, startTime: '14:00', durationMinutes: 60, horizonDays: 10 },
    });
    expect(changed.errors).toBeUndefined();
    const after = await visitsOf(t, a, j.uuid);
    const by = new Map(after.map((v) => [v.occurrence_date, v]));
    expect(by.get(v1.occurrence_date)).toMatchObject({ uuid: v1.uuid, starts_at: moved });
    expect(by.get(v2.occurrence_date)).toMatchObject({ uuid: v2.uuid, status: 'Completed', starts_at: v2.starts_at });
    expect(by.has(v3.occurrence_date)).toBe(false);
    expect(after.length).toBe(8);
    expect(after.filter((v) => ![v1.uuid, v2.uuid].includes(v.uuid)).every((v) => localParts(new Date(v.starts_at), NY).time === '14:00')).toBe(true);
    // Extending again does not bring the deleted occurrence back.
    await extendSchedules(t.orm, new Date(Date.now() + 3 * 86_400_000));
    expect((await visitsOf(t, a, j.uuid)).some((v) => v.occurrence_date === v3.occurrence_date)).toBe(false);
    // DELETE: future untouched visits go; the moved and completed ones stay.
    expect((await rest(t, a).delete(`/jobs/${j.uuid}/schedule`)).status).toBe(200);
    expect((await visitsOf(t, a, j.uuid)).map((v) => v.uuid).sort()).toEqual([v1.uuid, v2.uuid].sort());
    expect((await rest(t, a).get(`/jobs/${j.uuid}/schedule`)).status).toBe(404);
    // Set, changed, deleted: three job.schedule_changed; the background's extensions are none.
    expect((await rest(t, a).get('/events?types=job.schedule_changed')).body.data.events).toHaveLength(3);
  });

  it('creates an occurrence whose user is booked elsewhere with the free users, listing the conflict', async () => {
    const a = await createTenant(t);
    const tess = (await addUser(t, a)).id;
    const j = await makeJob(t, a);
    const other = await makeJob(t, a);
    const day = addDays(today(), 2);
    const blocking = await makeVisit(t, a, other.uuid, { all_day: true, visit_date: day, assigned_user_ids: [tess] });
    const res = await rest(t, a).put(`/jobs/${j.uuid}/schedule`, { rrule: 'FREQ=DAILY', starts_on: addDays(today(), 1), start_time: '10:00', duration_minutes: 60, horizon_days: 7, assigned_user_ids: [tess, a.userId] });
    expect(res.status).toBe(200);
    const visits = await visitsOf(t, a, j.uuid);
    const clash = visits.find((v) => v.occurrence_date === day)!;
    expect(clash.assigned_user_ids).toEqual([a.userId]);
    expect(clash.schedule_conflicts).toEqual([{ user_id: tess, visit_uuid: blocking.uuid }]);
    expect(visits.filter((v) => v.occurrence_date !== day).every((v) => v.assigned_user_ids.length === 2 && v.schedule_conflicts.length === 0)).toBe(true);
  });

  it('previews occurrences without writing, on both surfaces', async () => {
    const a = await createTenant(t);
    const body = { rrule: 'FREQ=MONTHLY;BYMONTHDAY=31', starts_on: '2031-01-01', start_time: '09:00', duration_minutes: 60, limit: 3, timezone: NY };
    const res = await rest(t, a).post('/schedules/preview', body);
    expect(res.status).toBe(200);
    expect(res.body.data.occurrences).toEqual([
      { occurrence_date: '2031-01-31', starts_at: '2031-01-31T14:00:00.000Z', ends_at: '2031-01-31T15:00:00.000Z' },
      { occurrence_date: '2031-03-31', starts_at: '2031-03-31T13:00:00.000Z', ends_at: '2031-03-31T14:00:00.000Z' },
      { occurrence_date: '2031-05-31', starts_at: '2031-05-31T13:00:00.000Z', ends_at: '2031-05-31T14:00:00.000Z' },
    ]);
    const g = await gql(t, a, `query($i: SchedulePreviewInput!) { previewSchedule(input: $i) { occurrences { occurrenceDate } } }`, {
      i: { rrule: 'FREQ=MONTHLY;BYDAY=-1FR', startsOn: '2031-01-01', allDay: true, limit: 2 },
    });
    expect(g.data.previewSchedule.occurrences).toEqual([{ occurrenceDate: '2031-01-31' }, { occurrenceDate: '2031-02-28' }]);
    const { rows } = await db.query(`select count(*)::int as n from visits`);
    expect(rows[0].n).toBe(0);
  });

  it('refuses rules outside the subset and incomplete times with 400 naming the field', async () => {
    const a = await createTenant(t);
    const j = await makeJob(t, a);
    const bad = await rest(t, a).put(`/jobs/${j.uuid}/schedule`, { rrule: 'FREQ=HOURLY;BYHOUR=3', starts_on: '2031-01-01', all_day: true });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe('rrule');
    const noTime = await rest(t, a).put(`/jobs/${j.uuid}/schedule`, { rrule: 'FREQ=DAILY', starts_on: '2031-01-01' });
    expect(noTime.status).toBe(400);
    expect(noTime.body.error.details[0].field).toBe('start_time');
    const horizon = await rest(t, a).put(`/jobs/${j.uuid}/schedule`, { rrule: 'FREQ=DAILY', starts_on: '2031-01-01', all_day: true, horizon_days: 731 });
    expect(horizon.status).toBe(400);
    expect(horizon.body.error.details[0].field).toBe('horizon_days');
  });

  it("keeps another company's job and schedule out of reach (404), and Job.schedule reads it in GraphQL", async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'Other' });
    const j = await makeJob(t, a);
    await rest(t, a).put(`/jobs/${j.uuid}/schedule`, { rrule: 'FREQ=WEEKLY', starts_on: '2031-01-01', all_day: true, horizon_days: 7 });
    expect((await rest(t, b).get(`/jobs/${j.uuid}/schedule`)).status).toBe(404);
    expect((await rest(t, b).put(`/jobs/${j.uuid}/schedule`, { rrule: 'FREQ=DAILY', starts_on: '2031-01-01', all_day: true })).status).toBe(404);
    expect((await rest(t, b).delete(`/jobs/${j.uuid}/schedule`)).status).toBe(404);
    const g = await gql(t, a, `query($u: UUID!) { job(uuid: $u) { schedule { rrule allDay } } }`, { u: j.uuid });
    expect(g.data.job.schedule).toEqual({ rrule: 'FREQ=WEEKLY', allDay: true });
    const del = await gql(t, b, `mutation($u: UUID!) { deleteJobSchedule(jobUuid: $u) { message } }`, { u: j.uuid });
    expect(del.errors?.[0].extensions.code).toBe('NOT_FOUND');
  });
});
