import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { createTenant, rest, useTestApp } from '../../helpers/app';
import { streamSse, useListening } from '../../helpers/live';
import { keyFor } from '../../helpers/people';
import { makeJob, makeVisit, slot } from '../../helpers/visits';

// A live event is rendered once per distinct selection and handed to every subscriber that asked
// for it (src/modules/live/live.render.ts). Each subscriber must get exactly what an execution of
// its own gives: the same subscriptions replayed from the same cursor read the feed themselves
// (their catch-up), every event rendered for that subscriber alone, and must match field for field.
const t = useTestApp();
const http = useListening(t);
jest.setTimeout(60_000);

const A = 'subscription($types: [String!], $after: String) { events(types: $types, after: $after) { id type cursor object } }';
const B = 'subscription Board($after: String) { events(after: $after) { __typename cursor type recordUuid previous } }';

/** A graphql-ws subscription of `query`; every `next` payload collected whole (data and errors). */
function subscribe(key: string, query: string, variables: Record<string, unknown>) {
  const got: unknown[] = [];
  const waiters: Array<() => void> = [];
  const client = createClient({ url: `ws://${http.base()}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${key}` }, retryAttempts: 0, lazy: false });
  client.subscribe({ query, variables }, { next: (r) => (got.push(r), waiters.splice(0).forEach((w) => w())), error: () => undefined, complete: () => undefined });
  const until = async (done: (items: any[]) => boolean) => {
    while (!done(got)) await new Promise<void>((resolve) => waiters.push(resolve));
    return got as any[];
  };
  return { got, until, stop: () => void client.dispose() };
}

const titled = (title: string) => (items: any[]) => items.some((r) => r.data?.events?.object?.title === title);
const hasRecord = (uuid: string) => (items: any[]) => items.some((r) => r.data?.events?.recordUuid === uuid);

it('every subscriber of a shared rendering gets what its own execution gives: same events, order and fields, across selections and scopes', async () => {
  const owner = await createTenant(t);
  const jobsKey = await keyFor(t, owner, { role: 'office', scopes: ['jobs:read', 'events:read'] });
  const start = (await rest(t, owner.key).get('/events/head')).body.data.cursor;
  // The same selection and variables under two keys of different reach; another selection; another filter.
  const specs: Array<[string, string, Record<string, unknown>]> = [
    [owner.key, A, {}],
    [jobsKey.key, A, {}],
    [owner.key, B, {}],
    [jobsKey.key, B, {}],
    [owner.key, A, { types: ['visit.*'] }],
  ];
  const live = specs.map(([key, query, variables]) => subscribe(key, query, { ...variables, after: start }));
  // Once a first visit reached everyone, each is past its catch-up: what follows comes from the hub.
  const job = await makeJob(t, owner);
  const first = await makeVisit(t, owner, job.uuid, { title: 'First', ...slot(7, 8)});
  const reached = (i: number, title: string, uuid: string) => (specs[i][1] === A ? titled(title) : hasRecord(uuid));
  await Promise.all(live.map((s, i) => s.until(reached(i, 'First', first.uuid))));
  const sse = [streamSse(http.base(), owner.key), streamSse(http.base(), jobsKey.key), streamSse(http.base(), owner.key, '?types=visit.*')];
  await Promise.all(sse.map((s) => s.status));

  const job2 = await makeJob(t, owner);
  const mine = await makeVisit(t, owner, job2.uuid, { title: 'Mine', ...slot(8, 9)});
  const other = await makeVisit(t, owner, job2.uuid, { title: 'Other', ...slot(10, 11) });
  await rest(t, owner).put(`/visits/${mine.uuid}`, { title: 'Mine, moved' }).expect(200);
  await rest(t, owner).put(`/visits/${other.uuid}`, { title: 'Other, moved' }).expect(200);
  await rest(t, owner).put(`/jobs/${job2.uuid}`, { title: 'Renamed job' }).expect(200);
  const last = await makeVisit(t, owner, job2.uuid, { title: 'Last', ...slot(12, 13)});
  const lives = await Promise.all(live.map((s, i) => s.until(reached(i, 'Last', last.uuid))));
  const sseLive = await Promise.all(sse.map(async (s) => {
    while (!s.items.some((e) => e.data.record_uuid === last.uuid)) await s.until(s.items.length + 1);
    return s.items;
  }));

  // The scopes held: the jobs key saw no customer event; the filter only visits.
  expect(lives[1].some((r) => r.data.events.type.startsWith('customer.'))).toBe(false);
  expect(lives[0].some((r) => r.data.events.type.startsWith('customer.'))).toBe(true);
  expect(Object.keys(lives[2][0].data.events)).toEqual(['__typename', 'cursor', 'type', 'recordUuid', 'previous']);
  expect(lives[4].map((r) => r.data.events.object.title)).toEqual(['First', 'Mine', 'Other', 'Mine, moved', 'Other, moved', 'Last']);

  // Replayed from the same cursor: every event rendered for that subscriber alone.
  const replays = specs.map(([key, query, variables]) => subscribe(key, query, { ...variables, after: start }));
  for (const [i, r] of replays.entries()) expect(await r.until((items) => items.length >= lives[i].length)).toEqual(lives[i]);
  const sseReplays = [streamSse(http.base(), owner.key, `?after=${start}`), streamSse(http.base(), jobsKey.key, `?after=${start}`), streamSse(http.base(), owner.key, `?types=visit.*&after=${start}`)];
  const firstSse = sseLive.map((items) => items[0].id);
  for (const [i, r] of sseReplays.entries()) {
    // The live streams began at their opening: compare from their first event on.
    await r.until(1);
    while (!r.items.some((e) => e.data.record_uuid === last.uuid)) await r.until(r.items.length + 1);
    const from = r.items.findIndex((e) => e.id === firstSse[i]);
    expect(from).toBeGreaterThanOrEqual(0);
    expect(r.items.slice(from)).toEqual(sseLive[i]);
  }
  for (const s of [...live, ...replays, ...sse, ...sseReplays]) s.stop();
});
