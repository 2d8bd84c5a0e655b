import { Client } from 'pg';
import { addUser, createTenant, gql, rest, Tenant, TestApp, useTestApp } from '../../helpers/app';
import { requireExtensions } from '../../../src/db/orm';
import { localInstant, localParts } from '../../../src/modules/visit/visit.time';
import { mirroredVisit } from '../../../src/modules/visit/visit.schedule';
import { OPEN_STATUSES, VisitStatus } from '../../../src/modules/visit/visit.entity';
import { DEFAULT_TIMEZONE } from '../../../src/data/company-time';
import { at, makeJob, makeVisit, slot } from '../../helpers/visits';

// Double booking refused by the database, DST, and the jobs' schedule fields (docs/visits.md).

const t = useTestApp();


describe('double booking', () => {
  it('refuses a user on two overlapping active visits with 409 SCHEDULE_CONFLICT naming the other visit', async () => {
    const a = await createTenant(t);
    const tess = (await addUser(t, a)).id;
    const j = await makeJob(t, a);
    const first = await makeVisit(t, a, j.uuid, { ...slot(9, 11), assigned_user_ids: [tess] });
    const second = await makeVisit(t, a, j.uuid, slot(10, 12));
    const res = await rest(t, a).post(`/visits/${second.uuid}/assign`, { user_ids: [tess] });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ success: false, data: null, error: { code: 'SCHEDULE_CONFLICT', message: `User ${tess} is already booked on visit ${first.uuid} at an overlapping time` } });
    // Create and update are held by the same constraint; so is moving the first visit.
    expect((await rest(t, a).post(`/jobs/${j.uuid}/visits`, { ...slot(8, 10), assigned_user_ids: [tess] })).status).toBe(409);
    await rest(t, a).post(`/visits/${second.uuid}/assign`, { user_ids: [a.userId] });
    const third = await makeVisit(t, a, j.uuid, { ...slot(12, 13), assigned_user_ids: [tess] });
    expect((await rest(t, a).put(`/visits/${third.uuid}`, slot(10, 13))).status).toBe(409);
    // Half-open: a visit ending at 11 and one starting at 11 do not overlap.
    expect((await rest(t, a).put(`/visits/${third.uuid}`, slot(11, 13))).status).toBe(200);
    await rest(t, a).put(`/visits/${third.uuid}`, slot(12, 13));
    // A cancelled, deleted or unscheduled visit holds no time.
    await rest(t, a).put(`/visits/${first.uuid}`, { status: 'Cancelled' });
    expect((await rest(t, a).post(`/visits/${second.uuid}/assign`, { user_ids: [tess], mode: 'add' })).status).toBe(200);
    expect((await rest(t, a).put(`/visits/${first.uuid}`, { status: 'Scheduled' })).status).toBe(409);
    await rest(t, a).delete(`/visits/${second.uuid}`);
    expect((await rest(t, a).put(`/visits/${first.uuid}`, { status: 'Scheduled' })).status).toBe(200);
    const open = await makeVisit(t, a, j.uuid, { assigned_user_ids: [tess] });
    expect((await rest(t, a).put(`/visits/${open.uuid}`, slot(9, 10))).status).toBe(409);
  });

  it('follows the company setting prevent_double_booking (default on), on both surfaces', async () => {
    const a = await createTenant(t);
    expect((await rest(t, a).get('/companies/me')).body.data.settings).toEqual({ prevent_double_booking: true });
    const off = await rest(t, a).put('/companies/me/settings', { prevent_double_booking: false });
    expect(off.body.data.settings).toEqual({ prevent_double_booking: false });
    const j = await makeJob(t, a);
    const one = await makeVisit(t, a, j.uuid, { ...slot(9, 11), assigned_user_ids: [a.userId] });
    const two = await makeVisit(t, a, j.uuid, { ...slot(10, 12), assigned_user_ids: [a.userId] });
    // Turning it on over an existing overlap is refused, naming a visit.
    const on = await gql(t, a, `mutation { updateCompanySettings(input: { preventDoubleBooking: true }) { settings { preventDoubleBooking } } }`);
    expect(on.errors?.[0].extensions.code).toBe('SCHEDULE_CONFLICT');
    expect([one.uuid, two.uuid].some((u) => on.errors![0].message.includes(u))).toBe(true);
    expect((await gql(t, a, `{ company { settings { preventDoubleBooking } } }`)).data.company.settings.preventDoubleBooking).toBe(false);
    await rest(t, a).delete(`/visits/${two.uuid}`);
    const ok = await gql(t, a, `mutation { updateCompanySettings(input: { preventDoubleBooking: true }) { settings { preventDoubleBooking } } }`);
    expect(ok.data.updateCompanySettings.settings.preventDoubleBooking).toBe(true);
    expect((await rest(t, a).post(`/jobs/${j.uuid}/visits`, { ...slot(10, 12), assigned_user_ids: [a.userId] })).status).toBe(409);
    expect((await rest(t, a).put('/companies/me/settings', { prevent_double_booking: 'no' })).status).toBe(400);
    // Another company's setting is its own.
    const b = await createTenant(t, { name: 'B' });
    expect((await rest(t, b).get('/companies/me')).body.data.settings.prevent_double_booking).toBe(true);
  });

  it('20 concurrent assignments of one technician to overlapping visits: exactly one succeeds', async () => {
    const a = await createTenant(t);
    const tess = (await addUser(t, a)).id;
    const visits = [];
    for (let i = 0; i < 20; i++) {
      const j = await makeJob(t, a);
      visits.push(await makeVisit(t, a, j.uuid, { starts_at: `2026-06-01T09:${String(i).padStart(2, '0')}:00Z`, ends_at: '2026-06-01T11:00:00Z' }));
    }
    const results = await Promise.all(visits.map((v, i) => (i % 2 ? gql(t, a, `mutation($u: UUID!, $i: [UUID!]!) { assignVisit(uuid: $u, input: { userIds: $i }) { uuid } }`, { u: v.uuid, i: [tess] }).then((r) => (r.errors ? 409 : 200)) : rest(t, a).post(`/visits/${v.uuid}/assign`, { user_ids: [tess] }).then((r) => r.status))));
    expect(results.filter((s) => s === 200)).toHaveLength(1);
    expect(results.filter((s) => s === 409)).toHaveLength(19);
    const booked = (await rest(t, a).get(`/visits?user_id=${tess}`)).body.data.visits;
    expect(booked).toHaveLength(1);
    const db = new Client({ connectionString: t.url });
    await db.connect();
    try {
      const rows = await db.query(`select count(*)::int as n from visit_assignments where user_id = $1 and active`, [tess]);
      expect(rows.rows[0].n).toBe(1);
    } finally {
      await db.end();
    }
  });
});

describe('the btree_gist extension', () => {
  it('is available and installed; a missing extension stops the start with a clear message', async () => {
    await expect(requireExtensions(t.orm)).resolves.toBeUndefined();
    const rows = await t.orm.em.getConnection().execute(`select extname from pg_extension where extname = 'btree_gist'`);
    expect(rows).toHaveLength(1);
    await expect(requireExtensions(t.orm, ['btree_gist', 'no_such_extension'])).rejects.toThrow(/^PostgreSQL extension no_such_extension is not available on this server/);
  });
});

describe('time zones', () => {
  it('localInstant reads wall-clock times as PostgreSQL `at time zone` does (the migration backfills with it)', async () => {
    const fixtures: Array<[string, string, string]> = [
      ['2026-03-08', '00:00', 'America/New_York'],
      ['2026-03-08', '02:30', 'America/New_York'], // skipped by spring forward
      ['2026-03-08', '03:00', 'America/New_York'],
      ['2026-11-01', '01:30', 'America/New_York'], // occurs twice
      ['2026-11-02', '00:00', 'America/New_York'],
      ['2026-04-05', '02:30', 'Australia/Sydney'],
      ['2026-10-04', '02:30', 'Australia/Sydney'],
      ['2026-06-01', '09:00', 'Asia/Kolkata'],
      ['2026-06-01', '23:59', 'UTC'],
    ];
    for (const [date, time, tz] of fixtures) {
      const [row] = await t.orm.em.getConnection().execute(`select ((?::date + ?::time) at time zone ?) as at`, [date, time, tz]);
      expect([date, time, tz, localInstant(date, tz, time).toISOString()]).toEqual([date, time, tz, new Date(row.at).toISOString()]);
    }
  });

  it('a visit across the DST change in America/New_York and an all-day visit on that date land on the right local date and hours', async () => {
    const a = await createTenant(t);
    const j = await makeJob(t, a);
    // 2026-03-08: clocks go from 02:00 EST to 03:00 EDT. 01:00 EST = 06:00Z; 04:00 EDT = 08:00Z.
    const night = await makeVisit(t, a, j.uuid, { starts_at: '2026-03-08T01:00:00-05:00', ends_at: '2026-03-08T04:00:00-04:00' });
    expect(night).toMatchObject({ starts_at: '2026-03-08T06:00:00.000Z', ends_at: '2026-03-08T08:00:00.000Z', visit_date: '2026-03-08', all_day: false });
    expect((await rest(t, a).get(`/jobs/${j.uuid}`)).body.data).toMatchObject({ scheduled_date: '2026-03-08', scheduled_time_start: '01:00', scheduled_time_end: '04:00' });
    // The whole local day: 23 hours, from 05:00Z to 04:00Z the next day.
    const day = await makeVisit(t, a, j.uuid, { all_day: true, visit_date: '2026-03-08' });
    expect(day).toMatchObject({ all_day: true, visit_date: '2026-03-08', starts_at: '2026-03-08T05:00:00.000Z', ends_at: '2026-03-09T04:00:00.000Z' });
    const on = async (from: string, to: string) => (await rest(t, a).get(`/visits?from=${from}&to=${to}`)).body.data.visits.map((v: { uuid: string }) => v.uuid);
    expect(await on('2026-03-09T04:00:00Z', '2026-03-10T00:00:00Z')).toEqual([]);
    expect(await on('2026-03-09T03:59:00Z', '2026-03-10T00:00:00Z')).toEqual([day.uuid]);
    expect(await on('2026-03-07T00:00:00Z', '2026-03-08T05:00:00Z')).toEqual([]);
    // The all-day visit holds the day: the same user cannot be booked in it.
    await rest(t, a).post(`/visits/${day.uuid}/assign`, { user_ids: [a.userId] });
    expect((await rest(t, a).post(`/visits/${night.uuid}/assign`, { user_ids: [a.userId] })).status).toBe(409);
    // In another company time zone the same date is another day.
    await rest(t, a).post('/locations', { name: 'HQ', address1: '1 A St', city: 'LA', state: 'CA', zip: '90001', timezone: 'America/Los_Angeles', is_primary: true });
    const west = await makeVisit(t, a, j.uuid, { all_day: true, visit_date: '2026-03-08' });
    expect(west).toMatchObject({ starts_at: '2026-03-08T08:00:00.000Z', ends_at: '2026-03-09T07:00:00.000Z' });
  });
});

const JOB_FIELDS_BEFORE =
  '{"uuid":"JOB","job_number":"1","customer_uuid":"CUST","location_uuid":null,"assigned_to_user_id":"USER","title":"Boiler","description":null,"status":"New","priority":"Normal","is_urgent":false,"is_emergency":false,"service_address1":null,"service_address2":null,"service_city":null,"service_state":null,"service_zip":null,"estimated_amount":null,"actual_amount":null,"scheduled_date":"2026-06-01","scheduled_time_start":"09:00","scheduled_time_end":"11:30","started_at":null,"completed_at":null,"invoiced_at":null,"paid_at":null,"internal_notes":null,"customer_notes":null,"created_at":"TS","updated_at":"TS","deleted_at":null';
const EMBEDS_BEFORE = { customer: { uuid: 'CUST', first_name: 'Ada', last_name: 'Lovelace' }, location: null, assigned_user: { id: 'USER', first_name: 'Account', last_name: 'Owner' } };

describe('the jobs schedule fields (old clients)', () => {
  it('a job created with scheduled_date and assigned_to_user_id has one visit with that user; its GET is unchanged', async () => {
    const a = await createTenant(t);
    const c = (await rest(t, a).post('/customers', { first_name: 'Ada', last_name: 'Lovelace' })).body.data;
    const created = await rest(t, a).post('/jobs', { customer_uuid: c.uuid, title: 'Boiler', scheduled_date: '2026-06-01', scheduled_time_start: '09:00', scheduled_time_end: '11:30', assigned_to_user_id: a.userId });
    const job = created.body.data;
    const got = await rest(t, a).get(`/jobs/${job.uuid}`);
    // The job's GET and POST bodies, recorded for the same requests on the commit before visits
    // existed (9b0ba30), with ids and timestamps replaced: the job's own fields byte for byte, then
    // its embedded summaries (whose key order follows which of their loaders answers first, before
    // and after this change alike).
    // The fields added since (custom data, docs/custom-fields.md) left out: the rest is as it was.
    const norm = (s: string) => s.split(job.uuid).join('JOB').split(c.uuid).join('CUST').split(a.userId).join('USER').replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'TS').replace('"custom_fields":{},"external_ids":{},"tags":[],', '');
    for (const res of [got, created]) {
      expect(norm(res.text).startsWith(`{"success":true,"data":${JOB_FIELDS_BEFORE},`)).toBe(true);
      expect(JSON.parse(norm(res.text)).data).toEqual({ ...JSON.parse(`${JOB_FIELDS_BEFORE}}`), ...EMBEDS_BEFORE });
    }
    expect(job).toMatchObject({ scheduled_date: '2026-06-01', scheduled_time_start: '09:00', scheduled_time_end: '11:30', assigned_to_user_id: a.userId, updated_at: job.created_at });
    const visits = (await rest(t, a).get(`/jobs/${job.uuid}/visits`)).body.data.visits;
    expect(visits).toHaveLength(1);
    expect(visits[0]).toMatchObject({ status: 'Scheduled', all_day: false, starts_at: '2026-06-01T13:00:00.000Z', ends_at: '2026-06-01T15:30:00.000Z', assigned_user_ids: [a.userId] });

    // PUT of the date moves the visit (and a GET → PUT of the whole job changes nothing).
    const { customer: _c, location: _l, assigned_user: _u, uuid: _id, job_number: _n, created_at: _ca, updated_at: _ua, deleted_at: _d, ...body } = job;
    expect((await rest(t, a).put(`/jobs/${job.uuid}`, body)).status).toBe(200);
    expect((await rest(t, a).get(`/jobs/${job.uuid}/visits`)).body.data.visits).toEqual(visits);
    const moved = await rest(t, a).put(`/jobs/${job.uuid}`, { scheduled_date: '2026-06-03' });
    expect(moved.body.data).toMatchObject({ scheduled_date: '2026-06-03', scheduled_time_start: '09:00', scheduled_time_end: '11:30' });
    const after = (await rest(t, a).get(`/jobs/${job.uuid}/visits`)).body.data.visits;
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ uuid: visits[0].uuid, starts_at: '2026-06-03T13:00:00.000Z', ends_at: '2026-06-03T15:30:00.000Z', assigned_user_ids: [a.userId] });
    // A new user replaces the crew; times of an unfinished range make an all-day visit.
    const tess = (await addUser(t, a)).id;
    await rest(t, a).put(`/jobs/${job.uuid}`, { assigned_to_user_id: tess, scheduled_time_end: null });
    const allDay = (await rest(t, a).get(`/visits/${visits[0].uuid}`)).body.data;
    expect(allDay).toMatchObject({ all_day: true, visit_date: '2026-06-03', assigned_user_ids: [tess] });
    expect((await rest(t, a).get(`/jobs/${job.uuid}`)).body.data).toMatchObject({ scheduled_time_start: '09:00', scheduled_time_end: null, assigned_to_user_id: tess });
    // Once that visit is done, a new date makes a new visit; the job then mirrors it.
    await rest(t, a).post(`/visits/${visits[0].uuid}/complete`);
    await rest(t, a).put(`/jobs/${job.uuid}`, { scheduled_date: '2026-06-10', scheduled_time_end: '10:00' });
    const two = (await rest(t, a).get(`/jobs/${job.uuid}/visits`)).body.data.visits;
    expect(two.map((v: { status: string; visit_date: string }) => [v.status, v.visit_date])).toEqual([['Completed', '2026-06-03'], ['Scheduled', '2026-06-10']]);
    // Deleting the job deletes its visits.
    await rest(t, a).delete(`/jobs/${job.uuid}`);
    expect((await rest(t, a).get('/visits')).body.data.visits).toEqual([]);
  });

  it('the job reads its next open visit, else its last one; a job without a schedule has no visit', async () => {
    const a = await createTenant(t);
    const plain = await makeJob(t, a);
    expect((await rest(t, a).get(`/jobs/${plain.uuid}/visits`)).body.data.visits).toEqual([]);
    const tess = (await addUser(t, a)).id;
    const onlyUser = await makeJob(t, a, { assigned_to_user_id: tess });
    expect((await rest(t, a).get(`/jobs/${onlyUser.uuid}/visits`)).body.data.visits).toMatchObject([{ status: 'Unscheduled', assigned_user_ids: [tess] }]);
    const j = await makeJob(t, a);
    const later = await makeVisit(t, a, j.uuid, { ...slot(14, 15, '2026-06-02'), assigned_user_ids: [tess] });
    const sooner = await makeVisit(t, a, j.uuid, { ...slot(13, 14, '2026-06-01'), assigned_user_ids: [a.userId] });
    const read = async () => (await rest(t, a).get(`/jobs/${j.uuid}`)).body.data;
    expect(await read()).toMatchObject({ scheduled_date: '2026-06-01', scheduled_time_start: '09:00', scheduled_time_end: '10:00', assigned_to_user_id: a.userId });
    await rest(t, a).post(`/visits/${sooner.uuid}/complete`);
    expect(await read()).toMatchObject({ scheduled_date: '2026-06-02', scheduled_time_start: '10:00', assigned_to_user_id: tess });
    await rest(t, a).post(`/visits/${later.uuid}/complete`);
    expect(await read()).toMatchObject({ scheduled_date: '2026-06-02', assigned_to_user_id: tess });
    await rest(t, a).delete(`/visits/${later.uuid}`);
    await rest(t, a).delete(`/visits/${sooner.uuid}`);
    expect(await read()).toMatchObject({ scheduled_date: null, scheduled_time_start: null, scheduled_time_end: null, assigned_to_user_id: null });
    // The jobs list filter reads the same fields.
    expect((await rest(t, a).get(`/jobs?assigned_to_user_id=${tess}`)).body.data.jobs.map((x: { uuid: string }) => x.uuid)).toEqual([onlyUser.uuid]);
  });
});

describe("the job's mirror, read as one visit", () => {
  // syncJobMirror reads the mirrored visit from the database (mirrorOf: the first open visit,
  // else the last one); the rule's plain form is mirroredVisit over the job's visits in the
  // calendar's order. After every write of a random sequence, the written job's fields are those
  // of the visit the plain form picks from GET /jobs/{uuid}/visits (which lists them in that order).
  it('after any sequence of visit writes, the job shows the visit mirroredVisit picks from its visits', async () => {
    const a = await createTenant(t);
    const tess = (await addUser(t, a)).id;
    await rest(t, a).put('/companies/me/settings', { prevent_double_booking: false }).expect(200);
    const jobs = [await makeJob(t, a), await makeJob(t, a)];
    let seed = 20_261_130;
    const random = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed % n);
    const pick = <T>(xs: T[]): T => xs[random(xs.length)];
    const day = () => `2026-06-${String(1 + random(9)).padStart(2, '0')}`;
    const when = () => {
      const kind = random(4);
      if (kind === 0) return { starts_at: null, ends_at: null };
      if (kind === 1) return { all_day: true, visit_date: day() };
      const h = 6 + random(10);
      return { all_day: false, ...slot(h, h + 1 + random(3), day()) };
    };
    const shown = (v: { starts_at: string | null; ends_at: string | null; all_day: boolean; visit_date: string | null; assigned_user_ids: string[] } | null) => {
      const start = v?.starts_at && !v.all_day ? localParts(new Date(v.starts_at), DEFAULT_TIMEZONE) : null;
      return {
        scheduled_date: v?.all_day ? v.visit_date : (start?.date ?? null),
        scheduled_time_start: start?.time ?? null,
        scheduled_time_end: start && v?.ends_at ? localParts(new Date(v.ends_at), DEFAULT_TIMEZONE).time : null,
        assigned_to_user_id: v?.assigned_user_ids[0] ?? null,
      };
    };
    const made: { uuid: string; job: string; deleted: boolean; open: boolean }[] = [];
    const wrong: unknown[] = [];
    const kinds = new Set<string>();
    let allClosed = 0;
    for (let step = 0; step < 50; step++) {
      const job = pick(jobs).uuid;
      const live = made.filter((v) => v.job === job && !v.deleted);
      const gone = made.filter((v) => v.job === job && v.deleted);
      // New visits only while a job has fewer than three, and mostly closing ones, so that jobs
      // whose visits are all closed come up often.
      let op = live.length < 3 ? 'create' : pick(['complete', 'complete', 'cancel', 'cancel', 'reopen', 'move', 'crew', 'delete', 'restore']);
      if (op === 'restore' && !gone.length) op = 'cancel';
      // Closing an open visit, reopening a closed one.
      const open = live.filter((x) => x.open === (op !== 'reopen'));
      const target = op === 'restore' ? pick(gone) : ['complete', 'cancel', 'reopen'].includes(op) && open.length ? pick(open) : live.length ? pick(live) : null;
      const v = target?.uuid ?? '';
      const res =
        op === 'create' ? await rest(t, a).post(`/jobs/${job}/visits`, { ...when(), assigned_user_ids: pick([[], [tess], [a.userId, tess]]) })
        : op === 'complete' ? await rest(t, a).post(`/visits/${v}/complete`)
        : op === 'cancel' ? await rest(t, a).put(`/visits/${v}`, { status: 'Cancelled' })
        : op === 'reopen' ? await rest(t, a).put(`/visits/${v}`, { status: 'Scheduled' })
        : op === 'move' ? await rest(t, a).put(`/visits/${v}`, when())
        : op === 'crew' ? await rest(t, a).post(`/visits/${v}/assign`, { user_ids: pick([[], [tess], [tess, a.userId]]) })
        : op === 'delete' ? await rest(t, a).delete(`/visits/${v}`)
        : await rest(t, a).post(`/visits/${v}/restore`);
      if (res.status === 200) {
        kinds.add(op);
        if (op === 'create') made.push({ uuid: res.body.data.uuid, job, deleted: false, open: true });
        if (op === 'delete' || op === 'restore') target!.deleted = op === 'delete';
        else if (op !== 'create') target!.open = OPEN_STATUSES.includes(res.body.data.status);
      }
      const visits = (await rest(t, a).get(`/jobs/${job}/visits?limit=100`)).body.data.visits;
      if (visits.length > 1 && !visits.some((x: { status: VisitStatus }) => OPEN_STATUSES.includes(x.status))) allClosed++;
      const want = shown(mirroredVisit(visits) as never);
      const got = (await rest(t, a).get(`/jobs/${job}`)).body.data;
      const has = { scheduled_date: got.scheduled_date, scheduled_time_start: got.scheduled_time_start, scheduled_time_end: got.scheduled_time_end, assigned_to_user_id: got.assigned_to_user_id };
      if (JSON.stringify(has) !== JSON.stringify(want)) wrong.push({ step, op, has, want });
    }
    expect(wrong.slice(0, 3)).toEqual([]);
    // The sequence went through every kind of write, and through jobs whose visits were all closed.
    expect(allClosed).toBeGreaterThan(5);
    expect([...kinds].sort()).toEqual(['cancel', 'complete', 'create', 'crew', 'delete', 'move', 'reopen', 'restore']);
  });
});

describe('migration 0013', () => {
  it('reverts, and applies again giving existing scheduled jobs one visit each', async () => {
    const a = await createTenant(t);
    const tess = (await addUser(t, a)).id;
    const c = (await rest(t, a).post('/customers', { first_name: 'Ada', last_name: 'Lovelace' })).body.data;
    const b = await createTenant(t, { name: 'B' });
    const bc = (await rest(t, b).post('/customers', { first_name: 'Bo', last_name: 'B' })).body.data;
    const sql = (q: string, p: unknown[] = []) => t.orm.em.getConnection().execute(q, p);
    const migrator = t.orm.getMigrator();
    try {
      await migrator.down({ to: 'Migration20261121000009_document_counts' });
      expect(await sql(`select to_regclass('visits') as r`)).toEqual([{ r: null }]);
      expect(await sql(`select column_name from information_schema.columns where table_name = 'companies' and column_name = 'prevent_double_booking'`)).toEqual([]);
      // Jobs written before visits existed: timed, date only, user only, nothing.
      const insert = `insert into jobs (uuid, company_uuid, customer_uuid, title, status, priority, is_urgent, is_emergency, scheduled_date, scheduled_time_start, scheduled_time_end, assigned_to_user_id, created_at, updated_at)
        values (gen_random_uuid(), ?, ?, ?, 'New', 'Normal', false, false, ?, ?, ?, ?, now(), now())`;
      await sql(insert, [a.companyUuid, c.uuid, 'timed', '2026-03-08', '01:00', '04:00', tess]);
      await sql(insert, [a.companyUuid, c.uuid, 'day', '2026-03-08', null, null, null]);
      await sql(insert, [a.companyUuid, c.uuid, 'user', null, null, null, tess]);
      await sql(insert, [a.companyUuid, c.uuid, 'none', null, null, null, null]);
      // Another company whose old jobs double-book its user: it starts with the setting off.
      await sql(insert, [b.companyUuid, bc.uuid, 'x', '2026-06-01', '09:00', '11:00', b.userId]);
      await sql(insert, [b.companyUuid, bc.uuid, 'y', '2026-06-01', '10:00', '12:00', b.userId]);
    } finally {
      await migrator.up();
    }
    const visits = await sql(
      `select j.title, v.status, v.starts_at::text as starts_at, v.ends_at::text as ends_at, v.all_day, v.visit_date::text as visit_date, v.assigned_user_ids::text[] as users
       from visits v join jobs j on j.uuid = v.job_uuid where v.company_uuid = ? order by j.title`,
      [a.companyUuid],
    );
    expect(visits).toEqual([
      { title: 'day', status: 'Scheduled', starts_at: '2026-03-08 05:00:00+00', ends_at: '2026-03-09 04:00:00+00', all_day: true, visit_date: '2026-03-08', users: [] },
      { title: 'timed', status: 'Scheduled', starts_at: '2026-03-08 06:00:00+00', ends_at: '2026-03-08 08:00:00+00', all_day: false, visit_date: '2026-03-08', users: [tess] },
      { title: 'user', status: 'Unscheduled', starts_at: null, ends_at: null, all_day: false, visit_date: null, users: [tess] },
    ]);
    expect((await rest(t, a).get('/companies/me')).body.data.settings.prevent_double_booking).toBe(true);
    expect((await rest(t, b).get('/companies/me')).body.data.settings.prevent_double_booking).toBe(false);
    expect((await rest(t, b).get('/visits')).body.data.pagination.total).toBe(2);
  });
});
