import { Client } from 'pg';
import request from 'supertest';
import { createTenant, gql, rest, useTestApp } from '../../helpers/app';
import { makeCustomer } from '../../helpers/billing';
import { readAll } from '../../helpers/events';
import { pruneEvents } from '../../../src/modules/event/event.maintenance';

const t = useTestApp();

async function client(url: string): Promise<Client> {
  const c = new Client({ connectionString: url });
  await c.connect();
  return c;
}

// ~2,000 concurrent writes and a reader following them: about 40 s alone, more on a busy machine.
jest.setTimeout(180_000);

describe('the feed under concurrency', () => {
  it.each(['commit', 'rollback'])('holds back the events of later transactions while an earlier one is open (%s)', async (end) => {
    const a = await createTenant(t);
    const x = await makeCustomer(t, a, { first_name: 'X' });
    const y = await makeCustomer(t, a, { first_name: 'Y' });
    const { cursor } = await readAll(t, a);
    const raw = await client(t.url);
    try {
      await raw.query('begin');
      await raw.query(`update customers set first_name = 'X2' where uuid = $1`, [x.uuid]);
      expect((await rest(t, a).put(`/customers/${y.uuid}`, { first_name: 'Y2' })).status).toBe(200);
      // Y's transaction committed, but X's (older) is open: Y is not in the feed yet.
      const held = await readAll(t, a, cursor);
      expect(held.events).toEqual([]);
      // The open writer shows as the feed's lag on /metrics.
      const metrics = (await request(t.app).get('/metrics')).text;
      expect(metrics).toMatch(/events_feed_lag_seconds\{kind="oldest_writer"\} [0-9.e-]+/);
      expect(metrics).not.toMatch(/events_feed_lag_seconds\{kind="oldest_writer"\} 0\n/);
      const gqlHeld = await gql(t, a, `query($after: String) { events(after: $after) { items { id } } }`, { after: cursor });
      expect(gqlHeld.data.events.items).toEqual([]);
      await raw.query(end);
      // Both readers (the held cursor and the one before it) now get each event exactly once.
      for (const from of [cursor, held.cursor]) {
        const { events } = await readAll(t, a, from);
        const names = events.map((e) => `${e.type}:${e.data.object.first_name}`).sort();
        expect(names).toEqual(end === 'commit' ? ['customer.updated:X2', 'customer.updated:Y2'] : ['customer.updated:Y2']);
      }
    } finally {
      await raw.end();
    }
  });

  it('delivers ~2,000 changes of concurrent writers exactly once, in each record order, to a reader following the feed', async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'Other' });
    const customers: string[] = [];
    for (let i = 0; i < 20; i++) customers.push((await makeCustomer(t, a, { first_name: `C${i}`, notes: '0' })).uuid);
    await makeCustomer(t, b);
    const apiCustomers: string[] = [];
    for (let i = 0; i < 3; i++) apiCustomers.push((await makeCustomer(t, a, { first_name: `API${i}`, notes: '0' })).uuid);
    const { cursor: start } = await readAll(t, a);
    const WRITERS = 8;
    const TX_PER_WRITER = 140; // 1,120 transactions of 1–3 updates, a tenth rolled back: ~2,000 changes
    let committed = 0;
    const writers = Array.from({ length: WRITERS }, async (_, w) => {
      const c = await client(t.url);
      try {
        for (let i = 0; i < TX_PER_WRITER; i++) {
          const n = 1 + ((w + i) % 3);
          const picked = [...new Set(Array.from({ length: n }, (_, k) => customers[(w * 7 + i * 3 + k * 5) % customers.length]))].sort();
          await c.query('begin');
          for (const uuid of picked) await c.query(`update customers set notes = (notes::int + 1)::text where uuid = $1`, [uuid]);
          // Every tenth transaction rolls back: none of its changes may appear.
          if (i % 10 === 9) await c.query('rollback');
          else {
            await c.query('commit');
            committed += picked.length;
          }
        }
      } finally {
        await c.end();
      }
    });
    // Writers through the API too (each request its own transaction, with its actor): three
    // customers of their own, 40 updates each.
    const apiWriters = apiCustomers.map(async (uuid) => {
      for (let v = 1; v <= 40; v++) {
        expect((await rest(t, a).put(`/customers/${uuid}`, { notes: String(v) })).status).toBe(200);
        committed += 1;
      }
    });
    let writing = true;
    const done = Promise.all([...writers, ...apiWriters]).finally(() => (writing = false));
    const seen: any[] = [];
    let cursor = start;
    // Follow the feed while the writers run, and after, until every committed change arrived.
    while (writing || seen.length < committed) {
      const res = await rest(t, a).get(`/events?after=${cursor}&limit=1000`);
      expect(res.status).toBe(200);
      seen.push(...res.body.data.events);
      cursor = res.body.data.next_cursor;
      if (!writing && !res.body.data.has_more && seen.length >= committed) break;
    }
    await done;
    seen.push(...(await readAll(t, a, cursor)).events);
    expect(committed).toBeGreaterThan(1900);
    expect(seen).toHaveLength(committed);
    expect(new Set(seen.map((e) => e.id)).size).toBe(committed);
    // Each record's own history, in feed order: notes 1, 2, 3, … with no gap or repeat.
    const byRecord = new Map<string, number[]>();
    for (const e of seen) {
      expect(e.type).toBe('customer.updated');
      expect(e.actor.type).toBe(apiCustomers.includes(e.record_uuid) ? 'api_key' : 'system');
      expect(Number(e.data.previous.notes) + 1).toBe(Number(e.data.object.notes));
      byRecord.set(e.record_uuid, [...(byRecord.get(e.record_uuid) ?? []), Number(e.data.object.notes)]);
    }
    for (const [uuid, versions] of byRecord) {
      expect([uuid, versions]).toEqual([uuid, versions.map((_, i) => i + 1)]);
      const now = (await rest(t, a).get(`/customers/${uuid}`)).body.data;
      expect(Number(now.notes)).toBe(versions.length);
    }
  });

  it('an expired cursor is 410 CURSOR_EXPIRED on both surfaces', async () => {
    const a = await createTenant(t);
    await makeCustomer(t, a);
    const first = (await rest(t, a).get('/events?limit=1')).body.data;
    await makeCustomer(t, a);
    await makeCustomer(t, a);
    const live = (await rest(t, a).get(`/events?after=${first.next_cursor}`)).body.data;
    expect(live.events).toHaveLength(2);
    // The first two events age past the retention; pruning removes them.
    const db = await client(t.url);
    await db.query(`update events set created_at = now() - interval '91 days' where position <= 2`);
    await db.end();
    expect(await pruneEvents(t.orm, 90)).toBe(2);
    const res = await rest(t, a).get(`/events?after=${first.next_cursor}`);
    expect(res.status).toBe(410);
    expect(res.body.error.code).toBe('CURSOR_EXPIRED');
    const g = await gql(t, a, `query($after: String) { events(after: $after) { hasMore } }`, { after: first.next_cursor });
    expect(g.errors?.[0].extensions.code).toBe('CURSOR_EXPIRED');
    // Without a cursor: from the oldest kept event.
    expect((await readAll(t, a)).events).toHaveLength(1);
  });
});
