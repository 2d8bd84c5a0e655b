import express from 'express';
import request from 'supertest';
import { etagOf, sendTagged } from '../../src/rest/preconditions';
import { createTenant, rest, useTestApp } from '../helpers/app';

// A single record's answer serialises the record once for its body and its ETag (sendTagged,
// src/rest/preconditions.ts). It must send what `res.json({ success: true, data })` sent with the
// tag `etagOf(data)`, header for header and byte for byte.
const t = useTestApp();

const records: unknown[] = [
  { uuid: '0b0e1c9e-6a53-4d7c-9f1f-1f2a3b4c5d6e', name: 'Plain', total: '12.50', count: 3, active: true, note: null },
  { name: 'Zoë Ångström — “quotes” \\ back\\slash, tab\t, newline\n, \u2028 \u2029 and 🚰', nested: { list: [1, 2.5, -0, 1e21, null], empty: {} } },
  { at: new Date('2026-11-26T04:05:06.789Z'), lines: [{ description: '<b>&amp;</b>', quantity: '1.25' }] },
  { undefinedField: undefined, big: Number.MAX_SAFE_INTEGER, small: 5e-7, unicodeKey: { 'ключ': 'значение' } },
  [],
  {},
];

function twoWays() {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  let next: unknown;
  app.get('/old', (_req, res) => {
    res.setHeader('ETag', etagOf(next));
    res.json({ success: true, data: next });
  });
  app.get('/new', (_req, res) => sendTagged(res, next));
  return { app, set: (data: unknown) => (next = data) };
}

const comparable = (r: request.Response) => {
  const headers = { ...r.headers };
  delete headers.date;
  return { status: r.status, headers, body: r.text };
};

it('sends the same status, headers and bytes as res.json with etagOf', async () => {
  const { app, set } = twoWays();
  for (const data of records) {
    set(data);
    const [old, fresh] = [await request(app).get('/old'), await request(app).get('/new')];
    expect(comparable(fresh)).toEqual(comparable(old));
  }
});

it('a record read through the API carries the tag of its data and the body res.json would write', async () => {
  const a = await createTenant(t);
  const created = await rest(t, a).post('/customers', { first_name: 'Zoë', last_name: 'Ångström “🚰”', email: 'zoe@example.com', phone: '(217) 555-0100' });
  expect(created.status).toBe(200);
  const got = await rest(t, a).get(`/customers/${created.body.data.uuid}`);
  expect(got.status).toBe(200);
  expect(got.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(got.headers.etag).toBe(etagOf(got.body.data));
  expect(got.text).toBe(JSON.stringify({ success: true, data: got.body.data }));
  expect(got.headers['content-length']).toBe(String(Buffer.byteLength(got.text)));
});
