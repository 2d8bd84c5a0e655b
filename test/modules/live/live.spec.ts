import { createTenant, rest, useTestApp } from '../../helpers/app';
import { makeCustomer } from '../../helpers/billing';
import { streamSse, subscribeWs, useListening } from '../../helpers/live';

// Live updates (docs/live-updates.md): SSE and GraphQL subscriptions, from the process's feed reader.
const t = useTestApp({ LIVE_HEARTBEAT_MS: '200' });
const http = useListening(t);
jest.setTimeout(60_000);

async function head(key: string): Promise<string> {
  const res = await rest(t, key).get('/events/head');
  return res.body.data.cursor;
}

describe('GET /api/v1/events/stream (Server-Sent Events)', () => {
  it('streams the company’s events with their cursors, resumes with Last-Event-ID, and sends a heartbeat when idle', async () => {
    const a = await createTenant(t);
    const sse = streamSse(http.base(), a.key);
    expect(await sse.status).toBe(200);
    const c = await makeCustomer(t, a, { first_name: 'Live' });
    const [first] = await sse.until(1);
    expect(first.event).toBe('customer.created');
    expect(first.data.type).toBe('customer.created');
    expect(first.data.record_uuid).toBe(c.uuid);
    expect(first.data.data.object.first_name).toBe('Live');
    sse.stop();
    // Missed while away: two updates.
    await rest(t, a).put(`/customers/${c.uuid}`, { notes: 'one' }).expect(200);
    await rest(t, a).put(`/customers/${c.uuid}`, { notes: 'two' }).expect(200);
    const again = streamSse(http.base(), a.key, '', { 'Last-Event-ID': first.id });
    const got = await again.until(2);
    expect(got.map((e) => [e.event, e.data.data.object.notes])).toEqual([
      ['customer.updated', 'one'],
      ['customer.updated', 'two'],
    ]);
    // Idle: a comment line (LIVE_HEARTBEAT_MS is 200 here).
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => again.comments.includes('heartbeat') && (clearInterval(poll), resolve()), 20);
    });
    expect(again.items).toHaveLength(2);
    again.stop();
  });

  it('answers a malformed cursor with 400 and a bad key with 401', async () => {
    const a = await createTenant(t);
    expect(await streamSse(http.base(), a.key, '?after=nope').status).toBe(400);
    expect(await streamSse(http.base(), 'fsk_' + 'x'.repeat(40)).status).toBe(401);
  });
});

describe('GraphQL subscription events (WebSocket)', () => {
  it('delivers the company’s events in feed order, once, and a reconnect with the last cursor gets exactly what was missed', async () => {
    const a = await createTenant(t);
    const b = await createTenant(t, { name: 'Other Co' });
    const start = await head(a.key);
    const sub = subscribeWs(http.base(), a.key, { after: start });
    const other = subscribeWs(http.base(), b.key, { after: await head(b.key) });
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await makeCustomer(t, a, { first_name: `C${i}` }));
    await makeCustomer(t, b, { first_name: 'Theirs' });
    const got = await sub.until(5);
    expect(got.map((e) => e.recordUuid)).toEqual(made.map((c) => c.uuid));
    expect(got.every((e) => e.type === 'customer.created')).toBe(true);
    const [theirs] = await other.until(1);
    expect(theirs.object.first_name).toBe('Theirs');
    // What the feed says, in the same order.
    const feed = await rest(t, a).get(`/events?after=${start}`);
    expect(got.map((e) => e.id)).toEqual(feed.body.data.events.map((e: { id: string }) => e.id));
    sub.stop();
    const last = got[2].cursor;
    await rest(t, a).put(`/customers/${made[0].uuid}`, { notes: 'after the gap' }).expect(200);
    const again = subscribeWs(http.base(), a.key, { after: last, types: ['customer.*'] });
    const missed = await again.until(3);
    expect(missed.map((e) => [e.type, e.recordUuid])).toEqual([
      ['customer.created', made[3].uuid],
      ['customer.created', made[4].uuid],
      ['customer.updated', made[0].uuid],
    ]);
    expect(missed[2].previous).toMatchObject({ notes: null });
    // Company B's subscriber saw nothing of A's.
    expect(other.items.map((e) => e.object.first_name)).toEqual(['Theirs']);
    again.stop();
    other.stop();
  });

  it('closes with 4401 for a bad key', async () => {
    const sub = subscribeWs(http.base(), 'fsk_' + 'x'.repeat(40));
    expect((await sub.closed).code).toBe(4401);
  });

  it('ends the subscription of a key revoked meanwhile', async () => {
    const a = await createTenant(t);
    // From a cursor read first: the subscription may start after the change.
    const sub = subscribeWs(http.base(), a.key, { after: await head(a.key) });
    await makeCustomer(t, a);
    await sub.until(1);
    await t.orm.em.getConnection().execute(`update api_keys set revoked_at = now() where company_uuid = ?`, [a.companyUuid]);
    expect((await sub.closed).code).toBe(4401);
  });
});
