import { QueryOrder } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { hashApiKey } from '../../src/auth/api-key';
import { contextFor } from '../../src/auth/authenticate';
import { fieldsOf } from '../../src/schema/fields';
import { ApiKey } from '../../src/modules/api-key/api-key.entity';
import { Visit, VisitStatus } from '../../src/modules/visit/visit.entity';
import { VisitListArgs } from '../../src/modules/visit/visit.inputs';
import { visitService } from '../../src/modules/visit/visit.service';
import { toRest } from '../../src/rest/case-map';
import { addUser, createTenant, gql, rest, Tenant, useTestApp } from '../helpers/app';
import { at, makeJob, makeVisit, slot } from '../helpers/visits';

// The calendar (GET /api/v1/visits, GraphQL visits) runs on the shared list (listPage, one
// statement: src/modules/visit/visit.calendar.ts). It must give what the query builder it replaced
// gives, the ORM path below: the same visits, field for field, in the same order, with the same
// total, for every filter and their combinations, on both surfaces.

const t = useTestApp();

type Args = Partial<Pick<VisitListArgs, 'from' | 'to' | 'userId' | 'status' | 'jobUuid' | 'includeDeleted' | 'page' | 'limit'>>;

/** The former list (MikroORM's query builder, entities hydrated), kept here as the plain path. */
async function ormCalendar(em: EntityManager, companyId: string, args: Args): Promise<{ items: Visit[]; total: number }> {
  const limit = args.limit ?? 50;
  const offset = ((args.page ?? 1) - 1) * limit;
  const RANGE = `tstzrange(?::timestamptz, ?::timestamptz, '[)')`;
  const qb = em.createQueryBuilder(Visit, 'e').where({ company: companyId });
  if (!args.includeDeleted) qb.andWhere({ deletedAt: null });
  if (args.jobUuid) qb.andWhere({ job: args.jobUuid.toLowerCase() });
  if (args.status?.length) qb.andWhere({ status: { $in: args.status } });
  const ranged = !!(args.from || args.to);
  const range = [args.from ?? null, args.to ?? null];
  if (ranged) qb.andWhere(`e.period && ${RANGE}`, range);
  if (args.userId) {
    const inRange = ranged ? ` and a.period && ${RANGE}` : '';
    qb.andWhere(`e.uuid in (select a.visit_uuid from visit_assignments a where a.company_uuid = ? and a.user_id = ?${inRange})`, [companyId, args.userId.toLowerCase(), ...(ranged ? range : [])]);
  }
  qb.orderBy({ startsAt: QueryOrder.ASC_NULLS_LAST, createdAt: QueryOrder.ASC, uuid: QueryOrder.ASC }).limit(limit).offset(offset);
  const [items, total] = await qb.getResultAndCount();
  return { items, total };
}

async function ctxOf(tenant: Tenant) {
  const em = t.orm.em.fork({ clear: true });
  const key = await em.findOne(ApiKey, { keyHash: hashApiKey(tenant.key) }, { populate: ['company', 'user'], filters: false });
  return contextFor(em, key!, 'test');
}

/** The REST query string of the arguments. */
function query(args: Args): string {
  const q = new URLSearchParams();
  if (args.from) q.set('from', args.from.toISOString());
  if (args.to) q.set('to', args.to.toISOString());
  if (args.userId) q.set('user_id', args.userId);
  if (args.status) q.set('status', args.status.join(','));
  if (args.jobUuid) q.set('job_uuid', args.jobUuid);
  if (args.includeDeleted) q.set('include_deleted', 'true');
  if (args.page) q.set('page', String(args.page));
  if (args.limit) q.set('limit', String(args.limit));
  return q.toString();
}

/** The GraphQL arguments of the same. */
function gqlArgs(args: Args): string {
  const parts: string[] = [];
  if (args.from) parts.push(`from: "${args.from.toISOString()}"`);
  if (args.to) parts.push(`to: "${args.to.toISOString()}"`);
  if (args.userId) parts.push(`userId: "${args.userId}"`);
  if (args.status) parts.push(`status: [${args.status.map((s) => s.toUpperCase().replace(' ', '_')).join(', ')}]`);
  if (args.jobUuid) parts.push(`jobUuid: "${args.jobUuid}"`);
  if (args.includeDeleted) parts.push('includeDeleted: true');
  if (args.page) parts.push(`page: ${args.page}`);
  if (args.limit) parts.push(`limit: ${args.limit}`);
  return parts.length ? `(${parts.join(', ')})` : '';
}

it('lists the same visits, field for field, in the same order and with the same totals as the query builder did, on both surfaces', async () => {
  const a = await createTenant(t);
  const b = await createTenant(t);
  // Overlapping crews on purpose: the order and the filters, not the booking rule, are under test.
  await rest(t, a).put('/companies/me/settings', { prevent_double_booking: false });
  const tess = (await addUser(t, a)).id;
  const sam = (await addUser(t, a, 'Sam', 'Sparks')).id;
  const [j1, j2] = [await makeJob(t, a), await makeJob(t, a)];
  const crews = [[tess], [sam], [tess, sam], [], [a.userId, tess]];
  const visits: string[] = [];
  for (let i = 0; i < 24; i++) {
    const day = `2026-06-0${1 + (i % 4)}`;
    // Some at the same start (ties by created_at, then uuid), some unscheduled, one all-day.
    const when = i % 7 === 6 ? {} : i === 5 ? { all_day: true, visit_date: day } : slot(8 + (i % 3) * 2, 10 + (i % 3) * 2, day);
    const v = await makeVisit(t, a, (i % 2 ? j1 : j2).uuid, { ...when, assigned_user_ids: crews[i % crews.length], title: `V${i}` });
    visits.push(v.uuid);
  }
  // Equal created_at for a few: the uuid decides.
  await t.orm.em.getConnection().execute(`update visits set created_at = '2026-01-01T00:00:00Z' where uuid in (?)`, [visits.slice(0, 6)]);
  await rest(t, a).post(`/visits/${visits[3]}/complete`, {});
  await rest(t, a).put(`/visits/${visits[8]}`, { status: 'Cancelled' });
  await rest(t, a).delete(`/visits/${visits[2]}`);
  await rest(t, a).delete(`/visits/${visits[13]}`);
  const other = await makeJob(t, b);
  await makeVisit(t, b, other.uuid, { ...slot(8, 10), assigned_user_ids: [b.userId] });

  const d = (s: string) => new Date(s);
  const cases: Args[] = [
    {},
    { limit: 5 },
    { limit: 5, page: 3 },
    { limit: 7, page: 4 },
    // Past the end (an empty page: its total is counted), and an exactly full last page.
    { limit: 5, page: 9 },
    { limit: 11, page: 2 },
    { from: d(at(9, '2026-06-02')), to: d(at(12, '2026-06-03')) },
    { from: d(at(10, '2026-06-02')) },
    { to: d(at(10, '2026-06-02')) },
    { userId: tess },
    { userId: tess.toUpperCase() },
    { userId: sam, from: d(at(0, '2026-06-01')), to: d(at(0, '2026-06-03')) },
    { userId: tess, from: d(at(11, '2026-06-01')), to: d(at(9, '2026-06-04')), limit: 3, page: 2 },
    { userId: b.userId },
    { userId: a.userId, includeDeleted: true },
    { status: [VisitStatus.UNSCHEDULED] },
    { status: [VisitStatus.SCHEDULED, VisitStatus.COMPLETED], jobUuid: j1.uuid },
    { jobUuid: j2.uuid, from: d(at(0, '2026-06-02')) },
    { includeDeleted: true },
    { includeDeleted: true, status: [VisitStatus.CANCELLED, VisitStatus.SCHEDULED], userId: tess, to: d(at(0, '2026-06-03')) },
  ];
  const ctx = await ctxOf(a);
  const fields = fieldsOf(Visit).filter((f) => f.io === 'out');
  let compared = 0;
  for (const args of cases) {
    const label = JSON.stringify(args);
    const orm = await ormCalendar(t.orm.em.fork(), a.companyUuid, args);
    // The service itself: lean records with every field the entity declares as the entities had it.
    const lean = await visitService.list(ctx, Object.assign(new VisitListArgs(), args));
    expect([label, lean.pagination.total]).toEqual([label, orm.total]);
    expect([label, lean.items.map((v) => v.uuid)]).toEqual([label, orm.items.map((v) => v.uuid)]);
    for (const [i, v] of orm.items.entries()) for (const f of fields) expect([label, f.prop, JSON.stringify((lean.items[i] as any)[f.prop])]).toEqual([label, f.prop, JSON.stringify((v as any)[f.prop])]);
    // REST: the same bodies as the entities written by the REST names.
    const res = await rest(t, a).get(`/visits?${query(args)}`);
    expect([label, res.status]).toEqual([label, 200]);
    expect([label, res.body.data.visits]).toEqual([label, JSON.parse(JSON.stringify(orm.items.map((v) => toRest(Visit, v))))]);
    expect([label, res.body.data.pagination.total]).toEqual([label, orm.total]);
    // GraphQL: the same visits and total, with their jobs.
    const g = await gql(t, a, `{ visits${gqlArgs(args)} { items { uuid jobUuid startsAt job { uuid } } pagination { total } } }`);
    expect([label, g.errors]).toEqual([label, undefined]);
    expect([label, g.data.visits.items.map((v: any) => [v.uuid, v.job.uuid])]).toEqual([label, orm.items.map((v) => [v.uuid, v.job.uuid])]);
    expect([label, g.data.visits.pagination.total]).toEqual([label, orm.total]);
    compared += orm.items.length;
  }
  // The cases are not empty: most lists find visits.
  expect(compared).toBeGreaterThan(100);
});

it('takes sort and updated_since as every list does (docs/conventions.md), in place of the order by start', async () => {
  const a = await createTenant(t);
  const job = await makeJob(t, a);
  const made: string[] = [];
  for (const h of [14, 8, 11]) made.push((await makeVisit(t, a, job.uuid, slot(h, h + 1))).uuid);
  await t.orm.em.getConnection().execute(`update visits set created_at = ?, updated_at = ? where uuid = ?`, ['2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', made[0]]);
  const uuids = async (q: string) => {
    const res = await rest(t, a).get(`/visits?${q}`);
    expect(res.status).toBe(200);
    return res.body.data.visits.map((v: { uuid: string }) => v.uuid);
  };
  expect(await uuids('')).toEqual([made[1], made[2], made[0]]);
  expect(await uuids('sort=created_at')).toEqual(made);
  expect(await uuids('sort=-created_at')).toEqual([...made].reverse());
  expect(await uuids('updated_since=2026-02-01T00:00:00Z')).toEqual([made[1], made[2]]);
  expect((await rest(t, a).get('/visits?sort=starts_at')).status).toBe(400);
  const g = await gql(t, a, `{ visits(sort: "-created_at", updatedSince: "2026-02-01T00:00:00Z") { items { uuid } pagination { total } } }`);
  expect(g.data.visits.items.map((v: { uuid: string }) => v.uuid)).toEqual([made[2], made[1]]);
  expect(g.data.visits.pagination.total).toBe(2);
});
