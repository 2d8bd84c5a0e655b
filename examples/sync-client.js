#!/usr/bin/env node
// Mirrors one company into a local JSON file and keeps it in step (docs/keeping-in-sync.md).
//   API_URL=http://localhost:4000 API_KEY=fsk_… node examples/sync-client.js mirror.json [--once]
// Plain Node 20+: global fetch, no dependencies.
'use strict';
const fs = require('node:fs');

const base = (process.env.API_URL || 'http://localhost:4000').replace(/\/+$/, '') + '/api/v1';
const key = process.env.API_KEY;
const file = process.argv.slice(2).find((a) => !a.startsWith('--')) || 'mirror.json';
const once = process.argv.includes('--once');
const POLL_MS = 2000;

// The lists to copy at bootstrap: resource name in events → list path and array name.
const LISTS = {
  customer: ['/customers', 'customers'],
  location: ['/locations', 'locations'],
  template: ['/templates', 'templates'],
  estimate: ['/estimates', 'estimates'],
  job: ['/jobs', 'jobs'],
  invoice: ['/invoices', 'invoices'],
  payment: ['/payments', 'payments'],
};
// Embedded summaries that lists add; events carry the record without them.
const SUMMARIES = ['customer', 'job', 'invoice', 'estimate', 'location', 'template', 'assigned_user', 'user'];

async function api(path) {
  const res = await fetch(base + path, { headers: { authorization: `Bearer ${key}` } });
  const body = await res.json();
  if (!body.success) {
    const err = new Error(`${path}: ${res.status} ${body.error && body.error.code}: ${body.error && body.error.message}`);
    err.code = body.error && body.error.code;
    throw err;
  }
  return body.data;
}

function strip(record) {
  const out = { ...record };
  for (const k of SUMMARIES) if (out[k] && typeof out[k] === 'object' && !Array.isArray(out[k])) delete out[k];
  return out;
}

function save(state) {
  // Written whole, then renamed: a crash leaves the previous state, and the feed replays from it.
  fs.writeFileSync(file + '.tmp', JSON.stringify(state, null, 2));
  fs.renameSync(file + '.tmp', file);
}

async function copyList(path, name, into) {
  for (let page = 1; ; page++) {
    const data = await api(`${path}?include_deleted=true&limit=100&page=${page}`);
    for (const r of data[name]) into[r.uuid] = strip(r);
    if (page >= data.pagination.total_pages) return;
  }
}

async function bootstrap() {
  const { cursor } = await api('/events/head'); // first: anything after it comes through the feed
  const records = { job_photo: {} };
  for (const [resource, [path, name]] of Object.entries(LISTS)) {
    records[resource] = {};
    await copyList(path, name, records[resource]);
  }
  for (const uuid of Object.keys(records.job)) await copyList(`/jobs/${uuid}/photos`, 'photos', records.job_photo);
  const state = { cursor, records };
  save(state);
  console.error(`bootstrapped: ${Object.values(records).reduce((n, r) => n + Object.keys(r).length, 0)} records`);
  return state;
}

async function follow(state) {
  for (;;) {
    let data;
    try {
      data = await api(`/events?after=${encodeURIComponent(state.cursor)}&limit=1000`);
    } catch (err) {
      if (err.code !== 'CURSOR_EXPIRED') throw err;
      console.error('cursor expired: copying the lists again');
      state = await bootstrap();
      continue;
    }
    for (const e of data.events) {
      (state.records[e.resource] ??= {})[e.record_uuid] = e.data.object;
    }
    state.cursor = data.next_cursor;
    save(state); // the data and the cursor together, after applying the page
    if (data.events.length) console.error(`applied ${data.events.length} events`);
    if (!data.has_more) {
      if (once) return state;
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }
}

async function main() {
  if (!key) throw new Error('set API_KEY');
  const state = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : await bootstrap();
  await follow(state);
}

main().catch((err) => {
  console.error(err.message);
  process.exit(1);
});
