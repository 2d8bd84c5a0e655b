#!/usr/bin/env node
// A terminal dispatch board (docs/live-updates.md): today's visits, then every visit as it changes,
// over a GraphQL subscription that resumes from its last cursor when the connection drops.
//   API_URL=http://localhost:4000 API_KEY=fsk_… node examples/dispatch-board.js [--day 2026-06-01]
// Node 20+ with this project's graphql-ws and ws (npm install graphql-ws ws elsewhere).
'use strict';
const { createClient } = require('graphql-ws');
const WebSocket = require('ws');

const base = (process.env.API_URL || 'http://localhost:4000').replace(/\/+$/, '');
const key = process.env.API_KEY;
const dayArg = process.argv.indexOf('--day');
const day = dayArg > 0 ? process.argv[dayArg + 1] : new Date().toISOString().slice(0, 10);

async function api(path) {
  const res = await fetch(`${base}/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } });
  const body = await res.json();
  if (!body.success) throw new Error(`${path}: ${body.error.code} ${body.error.message}`);
  return body.data;
}

const time = (iso) => (iso ? iso.slice(11, 16) : '--:--');
const line = (v, mark = ' ') => `${mark} ${time(v.starts_at)}-${time(v.ends_at)}  ${String(v.status).padEnd(12)} ${v.title || '(untitled)'}  [${v.uuid.slice(0, 8)}]`;

const QUERY = `subscription Board($after: String) {
  events(types: ["visit.*"], after: $after) { type cursor object }
}`;

async function main() {
  if (!key) throw new Error('set API_KEY');
  // The cursor first, then the list: a change made in between is printed again, never missed.
  let after = (await api('/events/head')).cursor;
  const today = await api(`/visits?from=${day}T00:00:00Z&to=${day}T23:59:59Z&limit=100`);
  console.log(`Visits of ${day}: ${today.visits.length}`);
  for (const v of today.visits) console.log(line(v));
  console.log('Following changes (Ctrl-C to stop)…');
  for (;;) {
    const client = createClient({ url: base.replace(/^http/, 'ws') + '/graphql', webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${key}` }, retryAttempts: 0 });
    try {
      for await (const result of client.iterate({ query: QUERY, variables: { after } })) {
        if (result.errors) throw new Error(result.errors[0].message);
        const event = result.data.events;
        after = event.cursor;
        const mark = { 'visit.created': '+', 'visit.deleted': '-', 'visit.restored': '+' }[event.type] || '~';
        console.log(line(event.object, mark), ` ${event.type}`);
      }
    } catch (err) {
      const code = err && err.code;
      if (code === 4401 || code === 4403) throw new Error(`refused (${code}): ${err.reason}`);
      console.error(`disconnected (${code || (err && err.message) || err}); resuming from the last cursor`);
    } finally {
      await client.dispose();
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

main().catch((err) => {
  console.error(err.message);
  process.exit(1);
});
