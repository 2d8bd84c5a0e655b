import { createTenant, rest, useTestApp } from '../../helpers/app';
import { subscribeWs, useListening } from '../../helpers/live';
import { ServerProcess, startServer } from '../../helpers/server-process';

// A subscriber on this process (A) sees the writes made through another server process (B): B's
// commits notify through PostgreSQL, A's feed reader wakes and reads the feed (docs/live-updates.md).
const t = useTestApp();
const http = useListening(t);
let b: ServerProcess;
jest.setTimeout(120_000);

beforeAll(async () => {
  b = await startServer({ DATABASE_URL: t.url });
});
afterAll(async () => {
  b.kill('SIGTERM');
  await b.exited;
});

async function createThroughB(key: string, name: string): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${b.port}/api/v1/customers`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ first_name: name, last_name: 'B', email: 'b@example.com' }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { uuid: string } }).data.uuid;
}

it('a subscriber on process A gets the events of writes through process B in feed order, once; with its last cursor after a gap, exactly what it missed', async () => {
  const a = await createTenant(t);
  const start = (await rest(t, a).get('/events/head')).body.data.cursor;
  const sub = subscribeWs(http.base(), a.key, { after: start });
  // Four writers at once through B.
  const made = (await Promise.all([0, 1, 2, 3].map(async (w) => {
    const out: string[] = [];
    for (let i = 0; i < 10; i++) out.push(await createThroughB(a.key, `W${w}-${i}`));
    return out;
  }))).flat();
  const got = await sub.until(40);
  const feed = (await rest(t, a).get(`/events?after=${start}&limit=1000`)).body.data.events as Array<{ id: string; record_uuid: string }>;
  expect(feed).toHaveLength(40);
  expect(got.map((e) => e.id)).toEqual(feed.map((e) => e.id));
  expect(new Set(got.map((e) => e.recordUuid))).toEqual(new Set(made));
  // Away after the 25th event; ten more writes through B meanwhile.
  sub.stop();
  const cursor = got[24].cursor;
  const later: string[] = [];
  for (let i = 0; i < 10; i++) later.push(await createThroughB(a.key, `Later${i}`));
  const again = subscribeWs(http.base(), a.key, { after: cursor });
  const missed = await again.until(25);
  expect(missed.map((e) => e.recordUuid)).toEqual([...feed.slice(25).map((e) => e.record_uuid), ...later]);
  // Nothing more arrives than what was written: a write after it ends the stream's items.
  const last = await createThroughB(a.key, 'Last');
  const withLast = await again.until(26);
  expect(withLast.map((e) => e.recordUuid).slice(25)).toEqual([last]);
  expect(new Set(withLast.map((e) => e.id)).size).toBe(26);
  again.stop();
});
