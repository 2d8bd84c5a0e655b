import { createTenant, gql, rest, useTestApp } from '../../helpers/app';
import { subscribeWs, streamSse, useListening } from '../../helpers/live';
import { keyFor } from '../../helpers/people';
import { makeJob, makeVisit, slot } from '../../helpers/visits';
import { userWithKey } from '../../helpers/technicians';
import { UserRole } from '../../../src/modules/user/user.entity';

// Who follows what (docs/live-updates.md): the feed's rules by role and scopes.
const t = useTestApp();
const http = useListening(t);
jest.setTimeout(60_000);

const head = async (key: string) => (await rest(t, key).get('/events/head')).body.data.cursor;

it('a technician cannot follow the feed: the same 403 on GET /events, the GraphQL feed, SSE, and 4403 on the socket', async () => {
  const owner = await createTenant(t);
  const tech = await userWithKey(t, owner, UserRole.TECHNICIAN, 'Tess');
  const job = await makeJob(t, owner);
  await makeVisit(t, owner, job.uuid, { title: 'Mine', ...slot(10, 11), assigned_user_ids: [tech.userId] });
  // One rule (docs/people-and-access.md): events:read, which no technician holds.
  const feed = await rest(t, tech.key).get('/events');
  expect([feed.status, feed.body.error.code, feed.body.error.details]).toEqual([403, 'PERMISSION_DENIED', [{ field: 'scope', message: 'needs events:read' }]]);
  expect((await rest(t, tech.key).get('/events/head')).status).toBe(403);
  const g = await gql(t, tech.key, '{ events { items { id } } }');
  expect(g.errors![0].extensions.code).toBe('PERMISSION_DENIED');
  const sse = streamSse(http.base(), tech.key, '?types=visit.*');
  expect(await sse.status).toBe(403);
  expect((await subscribeWs(http.base(), tech.key).closed).code).toBe(4403);
  // The same key reads its own visit over REST: it is the feed, not the visit, that is closed to it.
  expect((await rest(t, tech.key).get('/visits')).body.data.visits.map((v: { title: string }) => v.title)).toEqual(['Mine']);
});

it('a key without events:read closes with 4403 and its SSE stream is 403; a jobs:read key follows job and visit events only', async () => {
  const owner = await createTenant(t);
  const customersOnly = await keyFor(t, owner, { role: 'office', scopes: ['customers:read'] });
  expect((await subscribeWs(http.base(), customersOnly.key).closed).code).toBe(4403);
  expect(await streamSse(http.base(), customersOnly.key).status).toBe(403);
  const jobsKey = await keyFor(t, owner, { role: 'office', scopes: ['jobs:read', 'events:read'] });
  const start = await head(owner.key);
  const sub = subscribeWs(http.base(), jobsKey.key, { after: start });
  // A customer, a job and its visit: the customer's event is not the key's to see.
  const job = await makeJob(t, owner);
  const visit = await makeVisit(t, owner, job.uuid, { title: 'Seen', ...slot(8, 9) });
  const got = await sub.until(2);
  while (!got.some((e) => e.recordUuid === visit.uuid)) await sub.until(got.length + 1);
  expect(got.some((e) => e.recordUuid === job.uuid && e.type === 'job.created')).toBe(true);
  expect(new Set(got.map((e) => e.resource))).toEqual(new Set(['job', 'visit']));
  sub.stop();
});
