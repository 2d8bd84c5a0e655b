import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Request } from 'express';
import WebSocket from 'ws';
import { authenticate } from '../../src/auth/authenticate';
import { buildGraphQLSchema } from '../../src/graphql/schema';
import { graphqlSubscriptions, type Subscriptions } from '../../src/graphql/ws';
import { createTenant, rest, useDbClient, useTestApp } from '../helpers/app';
import { useListening } from '../helpers/live';
import { keyFor } from '../helpers/people';
import { makeJob, makeVisit, slot } from '../helpers/visits';

// The batched writes of live events (src/graphql/ws-writer.ts: each result executed once per
// selection, its JSON made once, a subscription's events written together) against graphql-ws's
// own pipeline (`plain`: graphql executes every event for every subscriber and graphql-ws writes
// each message), over the same feed reader: every `next` message, byte for byte, in the same
// order, for subscriptions that share renderings (other cursors, other type filters, the same
// selection under keys of other scopes) and that must not (a directive's variable).
const t = useTestApp();
const batched = useListening(t);
const db = useDbClient();
jest.setTimeout(90_000);

let plain: Subscriptions;
let plainServer: Server;
let plainBase = '';
beforeAll(async () => {
  plain = graphqlSubscriptions(buildGraphQLSchema(), t.built.live, (authorization) => authenticate(t.orm, { headers: { authorization } } as Request, randomUUID(), null), { plain: true });
  plainServer = createServer();
  plain.attach(plainServer);
  await new Promise<void>((resolve) => plainServer.listen(0, '127.0.0.1', resolve));
  plainBase = `127.0.0.1:${(plainServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await plain.close();
  plainServer.closeAllConnections();
  await new Promise((resolve) => plainServer.close(resolve));
});

const A = 'subscription($types: [String!], $after: String) { events(types: $types, after: $after) { id type resource recordUuid createdAt cursor object previous } }';
const B = 'subscription Board($after: String, $withPrevious: Boolean!) { events(after: $after) { __typename at: createdAt cursor type recordUuid previous @include(if: $withPrevious) } }';
// Messages under 126 bytes: a frame's shortest length.
const C = 'subscription($after: String) { events(after: $after) { recordUuid } }';

interface Sub {
  id: string;
  query: string;
  variables: Record<string, unknown>;
}

/** A raw graphql-transport-ws connection with several subscriptions; the text of every `next` message, per subscription id. */
function connect(base: string, key: string, subs: Sub[]) {
  const frames = new Map<string, string[]>(subs.map((s) => [s.id, []]));
  const errors: string[] = [];
  const waiters: Array<() => void> = [];
  const ws = new WebSocket(`ws://${base}/graphql`, 'graphql-transport-ws');
  ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${key}` } })));
  ws.on('message', (raw) => {
    const text = String(raw);
    const m = JSON.parse(text) as { type: string; id?: string };
    if (m.type === 'connection_ack') for (const s of subs) ws.send(JSON.stringify({ id: s.id, type: 'subscribe', payload: { query: s.query, variables: s.variables } }));
    if (m.type === 'next') frames.get(m.id!)!.push(text);
    if (m.type === 'error') errors.push(text);
    waiters.splice(0).forEach((w) => w());
  });
  /** Resolves once every subscription has a message holding `text`. */
  const until = async (text: string) => {
    while (![...frames.values()].every((got) => got.some((f) => f.includes(text)))) {
      expect(errors).toEqual([]);
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  const closed = new Promise<void>((resolve) => ws.on('close', () => resolve()));
  // Closed before the servers stop (a handshake left open would hold jest for its 30 s).
  return { frames, until, stop: () => (ws.close(), closed) };
}

it('writes every next message as graphql-ws does, for subscriptions that share renderings and for those that must not', async () => {
  const owner = await createTenant(t);
  const jobsKey = await keyFor(t, owner, { role: 'office', scopes: ['jobs:read', 'events:read'] });
  const start = (await rest(t, owner.key).get('/events/head')).body.data.cursor;
  const job = await makeJob(t, owner);
  const first = await makeVisit(t, owner, job.uuid, { title: 'First', ...slot(7, 8) });
  const later = (await rest(t, owner.key).get('/events/head')).body.data.cursor;
  const subs: Sub[] = [
    { id: '1', query: A, variables: { after: start } },
    { id: 'two "quoted" \\ id', query: A, variables: { after: later } },
    { id: '3', query: A, variables: { after: start, types: ['visit.*'] } },
    { id: '4', query: B, variables: { after: start, withPrevious: true } },
    { id: '5', query: B, variables: { after: later, withPrevious: false } },
    { id: '6', query: C, variables: { after: later } },
  ];
  const sockets = [owner.key, jobsKey.key].flatMap((key) => [connect(batched.base(), key, subs), connect(plainBase, key, subs)]);
  // Once a visit written now reached every subscription, each is past its catch-up: what follows
  // comes from the feed reader, live.
  const marker = await makeVisit(t, owner, job.uuid, { title: 'Marker', ...slot(9, 10) });
  await Promise.all(sockets.map((s) => s.until(marker.uuid)));

  const job2 = await makeJob(t, owner);
  const mine = await makeVisit(t, owner, job2.uuid, { title: 'Mine', ...slot(8, 9) });
  const other = await makeVisit(t, owner, job2.uuid, { title: 'Other', ...slot(10, 11) });
  await Promise.all([
    rest(t, owner).put(`/visits/${mine.uuid}`, { title: 'Mine, moved' }).expect(200),
    rest(t, owner).put(`/visits/${other.uuid}`, { title: 'Other, moved' }).expect(200),
    rest(t, owner).put(`/jobs/${job2.uuid}`, { title: 'Renamed job' }).expect(200),
  ]);
  // An event of over 64 KiB: a frame's longest length.
  await db.query(`insert into customers (uuid, company_uuid, first_name, last_name, notes) values (gen_random_uuid(), $1, 'Long', 'Notes', repeat('x', 70000))`, [owner.companyUuid]);
  const last = await makeVisit(t, owner, job2.uuid, { title: 'Last', ...slot(12, 13) });
  await Promise.all(sockets.map((s) => s.until(last.uuid)));

  for (let k = 0; k < sockets.length; k += 2) {
    const [ours, reference] = [sockets[k], sockets[k + 1]];
    for (const s of subs) expect(ours.frames.get(s.id)).toEqual(reference.frames.get(s.id));
  }
  // What the comparison covered: live events after the catch-up, the keys' reach, both shapes.
  const owners = sockets[0].frames;
  expect(owners.get('1')!.length).toBeGreaterThan(owners.get('3')!.length);
  expect(owners.get('1')!.some((f) => f.includes('"type":"customer.created"'))).toBe(true);
  expect(sockets[2].frames.get('1')!.some((f) => f.includes('"type":"customer.created"'))).toBe(false);
  expect(owners.get('4')!.at(-1)).toContain('"previous":');
  expect(owners.get('5')!.at(-1)).not.toContain('"previous":');
  expect(owners.get('1')!.some((f) => f.length > 70_000)).toBe(true);
  expect(owners.get('6')!.every((f) => f.length < 126)).toBe(true);
  expect(owners.get('4')!.some((f) => f.includes(first.uuid))).toBe(true);
  expect(owners.get('5')!.some((f) => f.includes(first.uuid))).toBe(false);
  await Promise.all(sockets.map((s) => s.stop()));
});
