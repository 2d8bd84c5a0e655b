import { Client } from 'pg';
import { jobReachRule } from '../../src/data/reach';
import { UserRole } from '../../src/modules/user/user.entity';
import { createUser } from '../../src/modules/company/company.admin';
import { createTenant, rest, Tenant, useTestApp } from '../helpers/app';
import { userWithKey } from '../helpers/technicians';
import { makeCustomer } from '../helpers/billing';
import { at } from '../helpers/visits';

// The kept reach of jobs (job_reach, migrations/Migration20261129000037_job_reach.ts) and the rule
// it keeps (src/data/reach.ts, read from the base tables): the two forms agree after any sequence
// of writes, through the API and through SQL, and under concurrent crew changes of one job; and a
// technician's job list read from it is the owner's list filtered by the rule.

const t = useTestApp();
jest.setTimeout(300_000);

/** A small seeded generator (mulberry32): a failing sequence is replayed by its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let r = Math.imul(a ^ (a >>> 15), 1 | a);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => t.orm.em.getConnection().execute<T[]>(text, params);

/** The jobs the rule gives a user, from the base tables. */
async function ruled(companyUuid: string, userId: string): Promise<string[]> {
  const rows = await sql<{ uuid: string }>(`select x.uuid from (${jobReachRule}) as x(uuid) order by 1`, [companyUuid, userId, companyUuid, userId]);
  return rows.map((r) => r.uuid);
}

/** The jobs job_reach holds for a user. */
async function kept(companyUuid: string, userId: string): Promise<string[]> {
  return (await sql<{ job_uuid: string }>(`select job_uuid from job_reach where company_uuid = ? and user_id = ? order by 1`, [companyUuid, userId])).map((r) => r.job_uuid);
}

/** job_reach equals the rule for every user of `users`, holds no one else, and copies each job's company, created_at and liveness. */
async function expectExact(companyUuid: string, users: readonly string[], step: string): Promise<void> {
  for (const u of users) expect([step, u, await kept(companyUuid, u)]).toEqual([step, u, await ruled(companyUuid, u)]);
  const strays = await sql(
    `select r.* from job_reach r left join jobs j on j.uuid = r.job_uuid
      where r.company_uuid = ? and (j.uuid is null or r.user_id <> all (?::uuid[]) or r.company_uuid <> j.company_uuid
        or r.created_at <> j.created_at or r.live <> (j.deleted_at is null))`,
    [companyUuid, `{${users.join(',')}}`],
  );
  expect([step, strays]).toEqual([step, []]);
}

it('job_reach equals the rule after a random sequence of writes through the API and SQL', async () => {
  const owner = await createTenant(t);
  const other = await createTenant(t, { name: 'Other Co' });
  const people = [owner.userId, ...(await Promise.all(['Tess', 'Otto', 'Uma'].map(async (n) => (await userWithKey(t, owner, UserRole.TECHNICIAN, n)).userId)))];
  // Another company's job, assigned to its own user: never in this company's rows.
  const elsewhere = (await rest(t, other).post('/jobs', { customer_uuid: (await makeCustomer(t, other)).uuid, title: 'Elsewhere', assigned_to_user_id: other.userId })).body.data;
  const r = rest(t, owner);
  const customer = await makeCustomer(t, owner);
  const seed = Number(process.env.REACH_SEED ?? 20261129);
  const rnd = random(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const crew = () => people.slice(1).filter(() => rnd() < 0.4);
  let day = 0;
  // Each visit its own day: no two crews ever overlap (double booking is another rule).
  const slot = () => {
    const d = new Date(Date.UTC(2026, 5, 1) + day++ * 86_400_000).toISOString().slice(0, 10);
    return { starts_at: at(8, d), ends_at: at(10, d) };
  };
  const ok = (res: { status: number; body: unknown }, what: string) => {
    if (res.status !== 200) throw new Error(`${what} (seed ${seed}): ${res.status} ${JSON.stringify(res.body)}`);
    return (res.body as { data: any }).data;
  };
  // The candidates of each operation, read from the database (an SQL write may leave a live visit
  // of a deleted job, which the API does not touch).
  const jobsWhere = async (cond: string) => (await sql<{ uuid: string }>(`select uuid from jobs where company_uuid = ? and ${cond} order by created_at, uuid`, [owner.companyUuid])).map((x) => x.uuid);
  const visitsWhere = async (cond: string) =>
    (await sql<{ uuid: string }>(`select v.uuid from visits v join jobs j on j.uuid = v.job_uuid where v.company_uuid = ? and ${cond} order by v.created_at, v.uuid`, [owner.companyUuid])).map((x) => x.uuid);
  type Op = () => Promise<void | null>;
  const one = (xs: string[]) => (xs.length ? pick(xs) : null);
  const ops: Array<[string, Op]> = [
    ['create a job (API)', async () => {
      const assignee = rnd() < 0.5 ? pick(people.slice(1)) : undefined;
      ok(await r.post('/jobs', { customer_uuid: customer.uuid, title: 'Job', ...(assignee ? { assigned_to_user_id: assignee } : {}) }), 'create job');
    }],
    ['reassign a job (API)', async () => {
      const job = one(await jobsWhere('deleted_at is null'));
      if (!job) return null;
      ok(await r.put(`/jobs/${job}`, { assigned_to_user_id: rnd() < 0.25 ? null : pick(people.slice(1)) }), 'reassign job');
    }],
    ['create a visit (API)', async () => {
      const job = one(await jobsWhere('deleted_at is null'));
      if (!job) return null;
      ok(await r.post(`/jobs/${job}/visits`, { ...slot(), assigned_user_ids: crew() }), 'create visit');
    }],
    ['change a crew (API)', async () => {
      const v = one(await visitsWhere('v.deleted_at is null and j.deleted_at is null'));
      if (!v) return null;
      ok(await r.post(`/visits/${v}/assign`, { user_ids: crew(), mode: 'replace' }), 'assign');
    }],
    ['delete a visit (API)', async () => {
      const v = one(await visitsWhere('v.deleted_at is null and j.deleted_at is null'));
      if (!v) return null;
      ok(await r.delete(`/visits/${v}`), 'delete visit');
    }],
    ['restore a visit (API)', async () => {
      const v = one(await visitsWhere('v.deleted_at is not null and j.deleted_at is null'));
      if (!v) return null;
      ok(await r.post(`/visits/${v}/restore`), 'restore visit');
    }],
    ['delete a job (API)', async () => {
      const job = one(await jobsWhere('deleted_at is null'));
      if (!job) return null;
      ok(await r.delete(`/jobs/${job}`), 'delete job');
    }],
    ['restore a job (API)', async () => {
      const job = one(await jobsWhere('deleted_at is not null'));
      if (!job) return null;
      ok(await r.post(`/jobs/${job}/restore`), 'restore job');
    }],
    ['set a crew (SQL)', async () => {
      const v = one(await visitsWhere('true'));
      if (!v) return null;
      await sql(`update visits set assigned_user_ids = ?::uuid[] where uuid = ?`, [`{${crew().join(',')}}`, v]);
    }],
    ['reassign a job (SQL)', async () => {
      const job = one(await jobsWhere('true'));
      if (!job) return null;
      await sql(`update jobs set assigned_to_user_id = ? where uuid = ?`, [rnd() < 0.3 ? null : pick(people), job]);
    }],
    ['delete or restore a visit (SQL)', async () => {
      const v = one(await visitsWhere('true'));
      if (!v) return null;
      await sql(`update visits set deleted_at = case when deleted_at is null then now() end where uuid = ?`, [v]);
    }],
    ['move a visit to another job (SQL)', async () => {
      const [v, job] = [one(await visitsWhere('true')), one(await jobsWhere('true'))];
      if (!v || !job) return null;
      await sql(`update visits set job_uuid = ? where uuid = ?`, [job, v]);
    }],
    ['erase a visit (SQL)', async () => {
      const v = one(await visitsWhere('true'));
      if (!v) return null;
      await sql(`delete from visits where uuid = ?`, [v]);
    }],
    ['delete or restore a job, move its created_at (SQL)', async () => {
      const job = one(await jobsWhere('true'));
      if (!job) return null;
      await sql(`update jobs set deleted_at = case when deleted_at is null then now() end, created_at = created_at - interval '1 hour' where uuid = ?`, [job]);
    }],
  ];
  let done = 0;
  for (let step = 0; done < 80 && step < 400; step++) {
    const [name, op] = step < 4 ? ops[0] : pick(ops);
    if ((await op()) === null) continue;
    done++;
    await expectExact(owner.companyUuid, people, `step ${step} (${name}, seed ${seed})`);
  }
  expect((await jobsWhere('true')).length).toBeGreaterThan(4);
  expect((await kept(owner.companyUuid, people[1])).length + (await kept(owner.companyUuid, people[2])).length).toBeGreaterThan(0);
  expect(await kept(other.companyUuid, other.userId)).toEqual([elsewhere.uuid]);
  expect(await kept(owner.companyUuid, other.userId)).toEqual([]);
});

it('twenty concurrent crew changes of one job leave job_reach exact', async () => {
  const owner = await createTenant(t);
  const users = await Promise.all(Array.from({ length: 20 }, async (_, i) => (await createUser(t.orm.em.fork(), { companyUuid: owner.companyUuid, firstName: `Crew${i}`, lastName: 'Tech', role: UserRole.TECHNICIAN })).id));
  const job = (await rest(t, owner).post('/jobs', { customer_uuid: (await makeCustomer(t, owner)).uuid, title: 'Big job' })).body.data;
  const visits: string[] = [];
  for (let i = 0; i < 20; i++) {
    const d = `2026-07-${String(i + 1).padStart(2, '0')}`;
    visits.push((await rest(t, owner).post(`/jobs/${job.uuid}/visits`, { starts_at: at(8, d), ends_at: at(10, d), assigned_user_ids: i % 2 ? [users[(i + 7) % 20]] : [] })).body.data.uuid);
  }
  await expectExact(owner.companyUuid, users, 'before');
  const clients = await Promise.all(
    visits.map(async () => {
      const c = new Client({ connectionString: t.url });
      await c.connect();
      return c;
    }),
  );
  try {
    // Each transaction changes its own visit's crew (no row lock in common) and holds its change a
    // moment before committing, so that without the per-job lock their refreshes would interleave.
    for (const round of [0, 1]) {
      await Promise.all(
        clients.map(async (c, i) => {
          await c.query('begin');
          await c.query('update visits set assigned_user_ids = $1::uuid[] where uuid = $2', [round === 0 ? [users[i]] : i % 3 ? [] : [users[(i + 1) % 20], users[i]], visits[i]]);
          await c.query('select pg_sleep($1)', [((i * 7) % 5) / 100]);
          await c.query('commit');
        }),
      );
      await expectExact(owner.companyUuid, users, `round ${round}`);
    }
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
  expect((await kept(owner.companyUuid, users[3])).length).toBe(1);
});

interface JobRow {
  uuid: string;
  assigned_to_user_id: string | null;
  customer?: { uuid: string } | null;
}

it("a technician's job list (pages, include_deleted, sort, filters) is the owner's list filtered by the rule", async () => {
  const owner = await createTenant(t);
  const techs = await Promise.all(['Tess', 'Otto'].map((n) => userWithKey(t, owner, UserRole.TECHNICIAN, n)));
  const [tess] = techs;
  const r = rest(t, owner);
  const customers = [await makeCustomer(t, owner, { first_name: 'Cara' }), await makeCustomer(t, owner, { first_name: 'Dana' })];
  const rnd = random(7);
  const statuses = ['New', 'Scheduled', 'Complete'];
  let day = 0;
  const jobs: string[] = [];
  for (let i = 0; i < 36; i++) {
    const assignee = rnd() < 0.3 ? tess.userId : rnd() < 0.5 ? techs[1].userId : undefined;
    const res = await r.post('/jobs', { customer_uuid: customers[i % 2].uuid, title: `Job ${String.fromCharCode(65 + ((i * 11) % 26))}${i}`, status: statuses[i % 3], ...(assignee ? { assigned_to_user_id: assignee } : {}) });
    expect(res.body.error).toBeUndefined();
    jobs.push(res.body.data.uuid);
    if (rnd() < 0.4) {
      const d = new Date(Date.UTC(2026, 8, 1) + day++ * 86_400_000).toISOString().slice(0, 10);
      const crew = rnd() < 0.6 ? [techs[1].userId, tess.userId] : [techs[1].userId];
      const v = (await r.post(`/jobs/${res.body.data.uuid}/visits`, { starts_at: at(8, d), ends_at: at(10, d), assigned_user_ids: crew })).body.data;
      if (rnd() < 0.25) expect((await r.delete(`/visits/${v.uuid}`)).status).toBe(200);
    }
    if (rnd() < 0.15) expect((await r.delete(`/jobs/${res.body.data.uuid}`)).status).toBe(200);
  }
  // A third of the jobs made at one instant: the page order's ties (by the key) cross pages.
  await sql(`update jobs set created_at = '2026-01-02T03:04:05Z' where uuid = any(?::uuid[])`, [`{${jobs.filter((_, i) => i % 3 === 0).join(',')}}`]);
  // The rule, in JavaScript, over the visits as stored (those of a deleted job too, which no
  // route lists) and the owner's lists: assigned to her, or with a live visit of her crew.
  const stored = await t.orm.em.getConnection().execute<Array<{ job_uuid: string; assigned_user_ids: string[]; deleted_at: Date | null }>>(`select job_uuid, assigned_user_ids, deleted_at from visits where company_uuid = ?`, [owner.companyUuid]);
  const hers = new Set(stored.filter((v) => !v.deleted_at && v.assigned_user_ids.includes(tess.userId)).map((v) => v.job_uuid));
  expect(jobs.filter((j) => hers.has(j)).length).toBeGreaterThan(3);
  const ownerAll = async (query: string): Promise<JobRow[]> => {
    const res = await r.get(`/jobs?limit=100&${query}`);
    expect(res.body.data.pagination.total).toBeLessThanOrEqual(100);
    return res.body.data.jobs;
  };
  const queries = ['', 'include_deleted=true', 'sort=title', 'sort=-job_number&include_deleted=true', 'status=New,Complete', `customer_uuid=${customers[0].uuid}`, 'search=Job%20A', `status=Scheduled&include_deleted=true`];
  let seen = 0;
  for (const query of queries) {
    const theirs = (await ownerAll(query)).filter((j) => j.assigned_to_user_id === tess.userId || hers.has(j.uuid));
    const expected = theirs.map((j) => j.uuid);
    if (!query) expect(theirs.every((j) => j.customer?.uuid)).toBe(true);
    const got: string[] = [];
    for (let page = 1; page <= Math.max(1, Math.ceil(expected.length / 4)) + 1; page++) {
      const res = await rest(t, tess).get(`/jobs?limit=4&page=${page}${query ? `&${query}` : ''}`);
      expect(res.status).toBe(200);
      expect([query, page, res.body.data.pagination.total]).toEqual([query, page, expected.length]);
      got.push(...res.body.data.jobs.map((j: JobRow) => j.uuid));
      // Each job's embedded customer, as the owner reads it.
      for (const j of res.body.data.jobs as JobRow[]) expect([query, j.uuid, j.customer]).toEqual([query, j.uuid, theirs.find((o) => o.uuid === j.uuid)?.customer]);
    }
    expect([query, got]).toEqual([query, expected]);
    seen += expected.length;
  }
  expect(seen).toBeGreaterThan(20);
});

it("one statement changing the crews of thousands of jobs keeps job_reach, and takes no lock-table entry per job", async () => {
  const owner = await createTenant(t);
  const tess = await userWithKey(t, owner, UserRole.TECHNICIAN, 'Tess');
  const customer = await makeCustomer(t, owner);
  await sql(
    `insert into jobs (uuid, company_uuid, job_number, customer_uuid, title, created_at, updated_at)
     select gen_random_uuid(), ?, 'B' || i, ?, 'Bulk ' || i, now() - make_interval(secs => i), now() from generate_series(1, 2000) i`,
    [owner.companyUuid, customer.uuid],
  );
  // Each job one visit of hers (unscheduled: no time to overlap), in one statement, triggers on. A
  // lock per job in the shared lock table (an advisory lock) would hold 2,000 entries here, and a
  // statement over some 20,000 jobs would fail with "out of shared memory"; the job's row lock holds none.
  const c = new Client({ connectionString: t.url });
  await c.connect();
  try {
    await c.query('begin');
    await c.query(
      `insert into visits (uuid, company_uuid, job_uuid, status, assigned_user_ids, created_at, updated_at)
       select gen_random_uuid(), company_uuid, uuid, 'Unscheduled', array[$1::uuid], now(), now() from jobs where company_uuid = $2`,
      [tess.userId, owner.companyUuid],
    );
    const held = (await c.query(`select count(*)::int as n from pg_locks where pid = pg_backend_pid()`)).rows[0].n;
    expect(held).toBeLessThan(200);
    await c.query('commit');
  } finally {
    await c.end();
  }
  expect((await kept(owner.companyUuid, tess.userId)).length).toBe(2000);
  await sql(`update visits set deleted_at = now() where company_uuid = ? and job_uuid in (select uuid from jobs where company_uuid = ? and job_number::text like '%7')`, [owner.companyUuid, owner.companyUuid]);
  await expectExact(owner.companyUuid, [owner.userId, tess.userId], 'after the bulk writes');
  expect((await kept(owner.companyUuid, tess.userId)).length).toBe(1800);
  const page = await rest(t, tess).get('/jobs?limit=50');
  expect(page.body.data.pagination.total).toBe(1800);
  expect(page.body.data.jobs.map((j: { title: string }) => j.title).slice(0, 3)).toEqual(['Bulk 1', 'Bulk 2', 'Bulk 3']);
  // A deep page (from row 1000 on: keys first, src/data/list.ts) in the same order.
  const titles = Array.from({ length: 2000 }, (_, i) => i + 1).filter((i) => i % 10 !== 7).map((i) => `Bulk ${i}`);
  const deep = await rest(t, tess).get('/jobs?limit=50&page=21');
  expect([deep.body.data.pagination.total, deep.body.data.jobs.map((j: { title: string }) => j.title)]).toEqual([1800, titles.slice(1000, 1050)]);
});
