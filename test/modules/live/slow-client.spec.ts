import { createTenant, rest, useDbClient, useTestApp } from '../../helpers/app';
import { subscribeWs, useListening } from '../../helpers/live';
import WebSocket from 'ws';

// A subscriber that stops reading while more events are written than it may fall behind
// (LIVE_MAX_BEHIND, 10,000 by default; 100 here) is disconnected with 4408 (docs/live-updates.md).
const t = useTestApp({ LIVE_MAX_BEHIND: '100' });
const http = useListening(t);
const db = useDbClient();
jest.setTimeout(120_000);

it('closes a WebSocket subscriber more than LIVE_MAX_BEHIND events behind with 4408', async () => {
  const a = await createTenant(t);
  const start = (await rest(t, a).get('/events/head')).body.data.cursor;
  // A raw graphql-transport-ws client whose socket stops reading once subscribed.
  const ws = new WebSocket(`ws://${http.base()}/graphql`, 'graphql-transport-ws');
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  let received = 0;
  const acked = new Promise<void>((resolve) =>
    ws.on('message', (m) => {
      const msg = JSON.parse(String(m));
      if (msg.type === 'connection_ack') resolve();
      if (msg.type === 'next') received++;
    }),
  );
  await new Promise((resolve) => ws.once('open', resolve));
  ws.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${a.key}` } }));
  await acked;
  ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: `subscription { events(after: "${start}") { id object } }` } }));
  // A probe subscriber that reads: once it has the last event, the reader has handed them all over.
  const probe = subscribeWs(http.base(), a.key, { after: start });
  const sleep = () => new Promise((r) => setTimeout(r, 20));
  while (t.built.live.subscribers < 2) await sleep();
  (ws as unknown as { _socket: { pause(): void } })._socket.pause();
  // Customers (and events) of about 64 KB each, 100 at a time, until the slow subscription ends:
  // the socket buffers first take what they can (loopback's grow to tens of MB, as the kernel
  // decides), then more than 100 events wait in the server's queue. Each round waits for the probe
  // to have every event, so the reader has handed them over before the next. The reader ends the
  // slow subscription then; its socket reads again, in time to answer the close (ws gives a peer 30 s).
  let written = 0;
  while (t.built.live.subscribers > 1) {
    if (written >= 3_000) throw new Error(`the slow subscription was not ended after ${written} events (about ${written * 64} KB)`);
    await db.query(
      `insert into customers (uuid, company_uuid, first_name, last_name, notes) select gen_random_uuid(), $1, 'Slow', 'Reader ' || i, repeat('x', 64000) from generate_series(1, 100) as i`,
      [a.companyUuid],
    );
    written += 100;
    await probe.until(written);
  }
  (ws as unknown as { _socket: { resume(): void } })._socket.resume();
  await probe.until(written);
  probe.stop();
  expect(await closed).toBe(4408);
  expect(received).toBeLessThan(written);
});
