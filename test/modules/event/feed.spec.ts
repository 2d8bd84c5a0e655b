import { Client } from 'pg';
import { createTenant, gql, rest, useTestApp } from '../../helpers/app';
import { makeCustomer, makeInvoice, makeJob, pay } from '../../helpers/billing';
import { readAll, withoutSummaries } from '../../helpers/events';
import { makeWorld, RESOURCES } from '../../helpers/sync-resources';

const t = useTestApp();

describe('event log and feed', () => {
  it('writes created, updated (with previous), deleted and restored events with the REST object and the actor', async () => {
    const a = await createTenant(t);
    const c = await makeCustomer(t, a);
    const upd = await rest(t, a).put(`/customers/${c.uuid}`, { first_name: 'Ada B.' }).set('X-Request-Id', 'req-1');
    expect(upd.status).toBe(200);
    const got = (await rest(t, a).get(`/customers/${c.uuid}`)).body.data;
    expect((await rest(t, a).delete(`/customers/${c.uuid}`)).status).toBe(200);
    const db = new Client({ connectionString: t.url });
    await db.connect();
    await db.query(`update customers set deleted_at = null where uuid = $1`, [c.uuid]);
    // The stored rows leave out the generated search columns (migration 0025, docs/events.md
    // "Storage"): in the row image and in what an update's previous compares.
    const stored = (await db.query(`select row, previous from events where record_uuid = $1 order by id`, [c.uuid])).rows as Array<{ row: object; previous: object | null }>;
    await db.end();
    expect(stored).toHaveLength(4);
    for (const e of stored) for (const key of ['search_text', 'phone_digits']) expect([key, Object.keys(e.row).includes(key)]).toEqual([key, false]);
    expect(Object.keys(stored[1].previous!).sort()).toEqual(['first_name', 'updated_at']);
    const { events } = await readAll(t, a);
    expect(events.map((e) => e.type)).toEqual(['customer.created', 'customer.updated', 'customer.deleted', 'customer.restored']);
    const [created, updated, deleted, restored] = events;
    expect(created).toMatchObject({ resource: 'customer', record_uuid: c.uuid, data: { object: c } });
    expect(created.id).toMatch(/^evt_/);
    expect(created.created_at).toMatch(/Z$/);
    expect(created.data.previous).toBeUndefined();
    expect(updated.data.object).toEqual(got);
    expect(updated.data.previous).toEqual({ first_name: 'Ada', updated_at: c.updated_at });
    expect(updated.actor).toEqual({ type: 'api_key', key_id: expect.any(String), user_id: a.userId, request_id: 'req-1' });
    expect(deleted.data.object.deleted_at).toMatch(/Z$/);
    expect(deleted.data.previous).toEqual({ deleted_at: null, updated_at: got.updated_at });
    expect(restored.actor).toEqual({ type: 'system', key_id: null, user_id: null, request_id: null });
    expect((await rest(t, a).get(`/events/${updated.id}`)).body.data).toEqual(updated);
  });

  it('a payment settling its invoice emits payment.created, payment.completed, invoice.updated and invoice.paid; a job status change emits job.status_changed', async () => {
    const a = await createTenant(t);
    const inv = await makeInvoice(t, a);
    const { cursor } = await readAll(t, a);
    const p = (await pay(t, a, inv.uuid, 100)).body.data;
    const { events, cursor: next } = await readAll(t, a, cursor);
    expect(events.map((e) => e.type).sort()).toEqual(['invoice.paid', 'invoice.updated', 'job.updated', 'payment.completed', 'payment.created']);
    const invoiceNow = withoutSummaries((await rest(t, a).get(`/invoices/${inv.uuid}`)).body.data, ['customer', 'job', 'estimate', 'location']);
    const paid = events.find((e) => e.type === 'invoice.paid');
    expect(paid.data.object).toEqual(invoiceNow);
    expect(paid.data.previous).toMatchObject({ status: 'Pending', paid_amount: 0, balance_amount: 100 });
    const payment = events.find((e) => e.type === 'payment.created');
    expect(payment.data.object).toEqual(withoutSummaries(p, ['invoice', 'customer']));

    expect((await rest(t, a).put(`/jobs/${inv.job_uuid}`, { status: 'In Progress' })).status).toBe(200);
    const later = (await readAll(t, a, next)).events;
    expect(later.map((e) => e.type)).toEqual(['job.updated', 'job.status_changed']);
    expect(later[1].data.previous.status).not.toBe('In Progress');
    expect(later[1].data.object.status).toBe('In Progress');
  });

  it('a rolled-back transaction leaves no event', async () => {
    const a = await createTenant(t);
    const c = await makeCustomer(t, a);
    const { cursor } = await readAll(t, a);
    const db = new Client({ connectionString: t.url });
    await db.connect();
    await db.query('begin');
    await db.query(`update customers set first_name = 'Nope' where uuid = $1`, [c.uuid]);
    await db.query('rollback');
    await db.end();
    // A request refused after its writes began: a job on a deleted customer is refused before
    // writing; a payment that overpays is refused inside its transaction.
    const inv = await makeInvoice(t, a);
    const after = (await readAll(t, a, cursor)).cursor;
    expect((await pay(t, a, inv.uuid, 1000)).status).toBe(400);
    expect((await readAll(t, a, after)).events).toEqual([]);
  });

  it('keeps companies apart on both surfaces', async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'Other' });
    await makeCustomer(t, a);
    const cb = await makeCustomer(t, b);
    const evA = (await readAll(t, a)).events;
    expect(evA).toHaveLength(1);
    const evB = (await readAll(t, b)).events;
    expect(evB.map((e) => e.record_uuid)).toEqual([cb.uuid]);
    expect((await rest(t, a).get(`/events/${evB[0].id}`)).status).toBe(404);
    const g = await gql(t, a, `query($id: String!) { event(id: $id) { id } events { items { id recordUuid } hasMore nextCursor } }`, { id: evB[0].id });
    expect(g.errors?.[0].extensions.code).toBe('NOT_FOUND');
    const g2 = await gql(t, a, `{ events(limit: 10) { items { id type recordUuid data actor { type } } hasMore nextCursor } eventsHead }`);
    expect(g2.data.events.items).toEqual([{ id: evA[0].id, type: 'customer.created', recordUuid: evA[0].record_uuid, data: evA[0].data, actor: { type: 'api_key' } }]);
    expect(g2.data.events.hasMore).toBe(false);
    expect(typeof g2.data.eventsHead).toBe('string');
  });

  it('filters by type patterns; a bad pattern or cursor is 400', async () => {
    const a = await createTenant(t);
    const job = await makeJob(t, a);
    await rest(t, a).put(`/jobs/${job.uuid}`, { status: 'Scheduled' });
    const jobs = (await readAll(t, a, undefined, 'types=job.*')).events.map((e) => e.type);
    expect(jobs).toEqual(['job.created', 'job.updated', 'job.status_changed']);
    const some = (await readAll(t, a, undefined, 'types=customer.created,job.status_changed')).events.map((e) => e.type);
    expect(some).toEqual(['customer.created', 'job.status_changed']);
    for (const q of ['types=job.nope', 'types=nope.*', 'types=', 'after=bogus', 'after=eHl6', 'limit=0']) {
      const res = await rest(t, a).get(`/events?${q}`);
      expect([q, res.status, res.body.error.code]).toEqual([q, 400, 'VALIDATION_ERROR']);
    }
    const g = await gql(t, a, `{ events(types: "bad") { hasMore } }`);
    expect(g.errors?.[0].extensions.code).toBe('VALIDATION_ERROR');
  });

  it('pages with limit and next_cursor; head is after the newest event', async () => {
    const a = await createTenant(t);
    for (let i = 0; i < 5; i++) await makeCustomer(t, a, { first_name: `C${i}` });
    const first = (await rest(t, a).get('/events?limit=2')).body.data;
    expect(first.events).toHaveLength(2);
    expect(first.has_more).toBe(true);
    const rest3 = (await readAll(t, a, first.next_cursor)).events;
    expect([...first.events, ...rest3].map((e) => e.data.object.first_name)).toEqual(['C0', 'C1', 'C2', 'C3', 'C4']);
    const head = (await rest(t, a).get('/events/head')).body.data.cursor;
    expect((await readAll(t, a, head)).events).toEqual([]);
    await makeCustomer(t, a, { first_name: 'C5' });
    expect((await readAll(t, a, head)).events.map((e) => e.data.object.first_name)).toEqual(['C5']);
    expect((await rest(t, a).get('/event_types')).body.data.event_types).toContainEqual({ type: 'invoice.paid', description: expect.any(String) });
    expect((await gql(t, a, '{ eventTypes { type description } }')).data.eventTypes.length).toBeGreaterThan(30);
  });
});

describe('migration 0010', () => {
  it('goes down (no triggers, no tables) and up again', async () => {
    const a = await createTenant(t);
    await makeCustomer(t, a);
    const migrator = t.orm.getMigrator();
    const sql = (q: string) => t.orm.em.getConnection().execute(q);
    try {
      await migrator.down({ to: 'Migration20261125000010_events' });
      expect(await sql(`select to_regclass('events') as r`)).toEqual([{ r: null }]);
      expect(await sql(`select count(*)::int as n from pg_trigger where tgname like '%_events_%'`)).toEqual([{ n: 0 }]);
      // (The app itself needs the later migrations, which went down first: no request here.)
    } finally {
      await migrator.up();
    }
    await makeCustomer(t, a, { first_name: 'After' });
    expect((await readAll(t, a)).events.map((e) => e.data.object.first_name)).toEqual(['After']);
  });
});

describe('the actor of a creation', () => {
  // Creations written in one statement outside MikroORM's flush (customers: src/data/insert.ts;
  // invoices: invoice.write.ts) set the actor in that statement, as a flush's transaction does.
  it('is the API key on the created event of every resource made through the API', async () => {
    const w = await makeWorld(t);
    for (const r of RESOURCES) await r.make(w, 0);
    const { events } = await readAll(t, w.tenant);
    const created = events.filter((e) => e.type.endsWith('.created'));
    expect(new Set(created.map((e) => e.resource)).size).toBeGreaterThanOrEqual(6);
    const notKey = created.filter((e) => e.actor.type !== 'api_key' || e.actor.key_id === null).map((e) => `${e.type}: ${JSON.stringify(e.actor)}`);
    expect(notKey).toEqual([]);
  });
});
