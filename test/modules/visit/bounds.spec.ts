import { createTenant, rest, useTestApp } from '../../helpers/app';
import { makeJob } from '../../helpers/visits';

// An all-day visit's day, and a job's scheduled_date (its visit's day), lie between 1900-01-01 and
// 2999-12-31 (docs/visits.md): 9999-12-31 was a 500 (its next day is past what dates can hold).
const t = useTestApp();

it('a day outside 1900–2999 is a 400 naming the field, on a visit and on a job', async () => {
  const a = await createTenant(t);
  const job = await makeJob(t, a);
  const visit = await rest(t, a).post(`/jobs/${job.uuid}/visits`, { all_day: true, visit_date: '9999-12-31' });
  expect(visit.status).toBe(400);
  expect(visit.body.error.details[0].field).toBe('visit_date');
  const c = (await rest(t, a).post('/customers', { first_name: 'A', last_name: 'B' })).body.data;
  const late = await rest(t, a).post('/jobs', { customer_uuid: c.uuid, title: 'T', scheduled_date: '9999-12-31' });
  expect(late.status).toBe(400);
  expect(late.body.error.details[0].field).toBe('scheduled_date');
  expect((await rest(t, a).post(`/jobs/${job.uuid}/visits`, { all_day: true, visit_date: '2999-12-31' })).status).toBe(200);
  expect((await rest(t, a).post('/jobs', { customer_uuid: c.uuid, title: 'T', scheduled_date: '1900-01-01' })).status).toBe(200);
});
