import { createTenant, rest, useTestApp } from '../../helpers/app';
import { makeCustomer } from '../../helpers/billing';
import { readAll } from '../../helpers/events';
import { ServerProcess, startServer } from '../../helpers/server-process';

// Two server processes write 2,000 changes at once while a reader follows the feed: every change
// arrives exactly once, each record's changes in its own order (docs/events.md).
const t = useTestApp();
let servers: ServerProcess[] = [];
jest.setTimeout(5 * 60_000);

beforeAll(async () => {
  servers = await Promise.all([startServer({ DATABASE_URL: t.url }), startServer({ DATABASE_URL: t.url })]);
});
afterAll(async () => {
  for (const s of servers) s.kill('SIGTERM');
  await Promise.all(servers.map((s) => s.exited));
});

it('2,000 changes through two processes reach a following reader exactly once, in each record order', async () => {
  const a = await createTenant(t);
  const WRITERS_PER_PROCESS = 10;
  const UPDATES = 100;
  const records: string[] = [];
  for (let i = 0; i < servers.length * WRITERS_PER_PROCESS; i++) records.push((await makeCustomer(t, a, { first_name: `W${i}`, notes: '0' })).uuid);
  const { cursor: start } = await readAll(t, a);
  let writing = true;
  // Each writer owns one record and sets its notes to 1, 2, 3, … through one of the two processes.
  const writers = records.map(async (uuid, i) => {
    const port = servers[i % servers.length].port;
    for (let v = 1; v <= UPDATES; v++) {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/customers/${uuid}`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${a.key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ notes: String(v) }),
      });
      expect(res.status).toBe(200);
    }
  });
  const done = Promise.all(writers).finally(() => (writing = false));
  const total = records.length * UPDATES;
  const seen: any[] = [];
  let cursor = start;
  while (writing || seen.length < total) {
    const res = await rest(t, a).get(`/events?after=${cursor}&limit=1000`);
    expect(res.status).toBe(200);
    seen.push(...res.body.data.events);
    cursor = res.body.data.next_cursor;
    if (!writing && !res.body.data.has_more) break;
    // A short page while the writers write: wait a little rather than spin on the feed (the
    // reader shares the machine's cores with the two servers and the database).
    if (writing && !res.body.data.has_more) await new Promise((r) => setTimeout(r, 100));
  }
  await done;
  // The last page may have been read just before the last commit: read on from the cursor.
  seen.push(...(await readAll(t, a, cursor)).events);
  expect(total).toBe(2000);
  expect(seen).toHaveLength(total);
  expect(new Set(seen.map((e) => e.id)).size).toBe(total);
  const byRecord = new Map<string, number[]>();
  for (const e of seen) {
    expect(e.type).toBe('customer.updated');
    byRecord.set(e.record_uuid, [...(byRecord.get(e.record_uuid) ?? []), Number(e.data.object.notes)]);
  }
  expect(byRecord.size).toBe(records.length);
  for (const [uuid, versions] of byRecord) expect([uuid, versions]).toEqual([uuid, Array.from({ length: UPDATES }, (_, i) => i + 1)]);
});
