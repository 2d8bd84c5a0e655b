import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import request from 'supertest';
import { chooseEncoding } from '../../src/ops/compression';
import { ifMatchHolds } from '../../src/rest/preconditions';
import { createTenant, rest, useTestApp } from '../helpers/app';
import { keyWith } from '../helpers/keys';

const t = useTestApp();

/** A GET with the raw bytes of the response, undecoded (superagent would decode them). */
async function raw(path: string, headers: Record<string, string>, prefix = '/api/v1'): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
  const server = http.createServer(t.app).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  try {
    return await new Promise((resolve, reject) => {
      const { port } = server.address() as AddressInfo;
      http.get({ host: '127.0.0.1', port, path: `${prefix}${path}`, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      }).on('error', reject);
    });
  } finally {
    server.close();
  }
}

describe('wrong methods and content types', () => {
  it('a known path with another method is the 404 envelope with Allow; an unknown one has no Allow', async () => {
    const a = await createTenant(t);
    const del = await request(t.app).delete('/api/v1/customers').set('Authorization', `Bearer ${a.key}`);
    expect(del.status).toBe(404);
    expect(del.headers.allow).toBe('GET, HEAD, POST');
    expect(del.body.error.code).toBe('NOT_FOUND');
    const post = await request(t.app).post('/api/v1/customers/0b7c1f9e-2a47-4b41-9d8e-2f0f7a0c9a11/').set('Authorization', `Bearer ${a.key}`).send({});
    expect(post.status).toBe(404);
    expect(post.headers.allow).toBe('GET, HEAD, PUT, DELETE');
    expect((await request(t.app).put('/api/v1/companies/me').set('Authorization', `Bearer ${a.key}`).send({})).headers.allow).toBe('GET, HEAD');
    const unknown = await request(t.app).post('/api/v1/widgets').set('Authorization', `Bearer ${a.key}`).send({});
    expect(unknown.status).toBe(404);
    expect(unknown.headers.allow).toBeUndefined();
  });

  it('a JSON route given another content type is 400 naming the body; so is the upload route given JSON', async () => {
    const a = await createTenant(t, { addons: ['job_photos'] });
    const form = await request(t.app).post('/api/v1/customers').set('Authorization', `Bearer ${a.key}`).type('form').send('first_name=A');
    expect(form.status).toBe(400);
    expect(form.body).toMatchObject({ success: false, data: null, error: { code: 'VALIDATION_ERROR', message: expect.stringContaining('application/json'), details: [{ field: 'body' }] } });
    const c = (await rest(t, a).post('/customers', { first_name: 'A', last_name: 'B' })).body.data;
    const job = (await rest(t, a).post('/jobs', { customer_uuid: c.uuid, title: 'T' })).body.data;
    const up = await rest(t, a).post(`/jobs/${job.uuid}/photos`, { photos: [] });
    expect(up.status).toBe(400);
    expect(up.body.error.code).toBe('VALIDATION_ERROR');
  });
});

describe('401', () => {
  it('carries WWW-Authenticate: Bearer on both surfaces', async () => {
    const missing = await request(t.app).get('/api/v1/customers');
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer realm="field-service-crm"');
    const bad = await request(t.app).post('/graphql').set('Authorization', 'Bearer fsk_nope').send({ query: '{ company { uuid } }' });
    expect(bad.status).toBe(401);
    expect(bad.headers['www-authenticate']).toBe('Bearer realm="field-service-crm", error="invalid_token"');
  });
});

describe('ETag and If-Match', () => {
  it('single-record GETs and PUTs carry the ETag; a stale If-Match is 412 and changes nothing', async () => {
    const a = await createTenant(t);
    const created = await rest(t, a).post('/customers', { first_name: 'A', last_name: 'B' });
    const uuid = created.body.data.uuid;
    const got = await rest(t, a).get(`/customers/${uuid}`);
    const tag = got.headers.etag;
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect((await rest(t, a).get('/customers')).headers.etag).toBeUndefined();
    const fresh = await rest(t, a).get(`/customers/${uuid}`).set('If-None-Match', tag);
    expect(fresh.status).toBe(304);
    expect(fresh.text).toBe('');
    const head = await request(t.app).head(`/api/v1/customers/${uuid}`).set('Authorization', `Bearer ${a.key}`);
    expect(head.headers.etag).toBe(tag);
    const put = await rest(t, a).put(`/customers/${uuid}`, { notes: 'one' }).set('If-Match', tag);
    expect(put.status).toBe(200);
    expect(put.headers.etag).not.toBe(tag);
    expect(put.headers.etag).toBe((await rest(t, a).get(`/customers/${uuid}`)).headers.etag);

    const stale = await rest(t, a).put(`/customers/${uuid}`, { notes: 'two' }).set('If-Match', tag);
    expect(stale.status).toBe(412);
    expect(stale.body.error.code).toBe('PRECONDITION_FAILED');
    expect((await rest(t, a).get(`/customers/${uuid}`)).body.data.notes).toBe('one');
    // Weak tags never match (strong comparison); `*` matches any existing record.
    expect((await rest(t, a).put(`/customers/${uuid}`, { notes: 'w' }).set('If-Match', `W/${put.headers.etag}`)).status).toBe(412);
    expect((await rest(t, a).put(`/customers/${uuid}`, { notes: 'star' }).set('If-Match', '*')).status).toBe(200);

    const staleDelete = await rest(t, a).delete(`/customers/${uuid}`).set('If-Match', put.headers.etag);
    expect(staleDelete.status).toBe(412);
    const current = (await rest(t, a).get(`/customers/${uuid}`)).headers.etag;
    expect((await rest(t, a).delete(`/customers/${uuid}`).set('If-Match', `"x", ${current}`)).status).toBe(200);
    expect((await rest(t, a).get(`/customers/${uuid}`)).status).toBe(404);
    // Another company's record is 404, whatever If-Match says.
    const b = await createTenant(t, { name: 'Other' });
    const theirs = (await rest(t, b).post('/customers', { first_name: 'C', last_name: 'D' })).body.data.uuid;
    expect((await rest(t, a).put(`/customers/${theirs}`, { notes: 'x' }).set('If-Match', '*')).status).toBe(404);
  });

  it('two updates with the same If-Match: exactly one wins, the other is 412', async () => {
    const a = await createTenant(t);
    const uuid = (await rest(t, a).post('/customers', { first_name: 'A', last_name: 'B' })).body.data.uuid;
    const tag = (await rest(t, a).get(`/customers/${uuid}`)).headers.etag;
    const results = await Promise.all(['x', 'y', 'z'].map((n) => rest(t, a).put(`/customers/${uuid}`, { notes: n }).set('If-Match', tag)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 412, 412]);
    const winner = results.find((r) => r.status === 200)!.body.data.notes;
    expect((await rest(t, a).get(`/customers/${uuid}`)).body.data.notes).toBe(winner);
  });

  it('works on records with embedded summaries and on the numbering settings', async () => {
    const a = await createTenant(t, { addons: ['custom_numbering'] });
    const c = (await rest(t, a).post('/customers', { first_name: 'A', last_name: 'B' })).body.data;
    const job = await rest(t, a).post('/jobs', { customer_uuid: c.uuid, title: 'T' });
    expect(job.headers.etag).toBeUndefined();
    expect((await rest(t, a).get('/jobs')).headers.etag).toBeUndefined();
    const tag = (await rest(t, a).get(`/jobs/${job.body.data.uuid}`)).headers.etag;
    await rest(t, a).put(`/customers/${c.uuid}`, { first_name: 'Renamed' });
    // The job's representation embeds the customer's name: its tag changed.
    expect((await rest(t, a).put(`/jobs/${job.body.data.uuid}`, { title: 'U' }).set('If-Match', tag)).status).toBe(412);
    const n = await rest(t, a).get('/numbering');
    expect((await rest(t, a).put('/numbering', { invoice: { prefix: 'A-' } }).set('If-Match', n.headers.etag)).status).toBe(200);
    expect((await rest(t, a).put('/numbering', { invoice: { prefix: 'B-' } }).set('If-Match', n.headers.etag)).status).toBe(412);
  });

  it('parses If-Match lists', () => {
    expect(ifMatchHolds('"a", "b"', '"b"')).toBe(true);
    expect(ifMatchHolds('W/"b"', '"b"')).toBe(false);
    expect(ifMatchHolds(' * ', '"b"')).toBe(true);
    expect(ifMatchHolds('b', '"b"')).toBe(false);
  });
});

describe('compression', () => {
  it('compresses large JSON with br or gzip as Accept-Encoding says, with Vary; small ones never', async () => {
    const a = await createTenant(t);
    for (let i = 0; i < 12; i++) await rest(t, a).post('/customers', { first_name: `A${i}`, last_name: 'B', notes: 'n'.repeat(40) });
    const auth = { Authorization: `Bearer ${a.key}` };
    const get = (enc?: string) => raw('/customers', enc === undefined ? auth : { ...auth, 'Accept-Encoding': enc });
    const br = await get('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/Accept-Encoding/);
    const page = JSON.parse(zlib.brotliDecompressSync(br.body).toString());
    expect(page.data.customers).toHaveLength(12);
    const gz = await get('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gz.body).toString())).toEqual(page);
    expect(gz.headers['content-type']).toBe('application/json; charset=utf-8');
    const plain = await get(undefined);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/Accept-Encoding/);
    expect(JSON.parse(plain.body.toString())).toEqual(page);
    expect((await get('br;q=0, gzip;q=0')).headers['content-encoding']).toBeUndefined();
    const small = await raw('/companies/me', { ...auth, 'Accept-Encoding': 'gzip, br' });
    // GraphQL answers too.
    const query = encodeURIComponent('{ customers { items { uuid firstName notes } } }');
    const g = await raw(`?query=${query}`, { ...auth, 'Accept-Encoding': 'gzip', 'apollo-require-preflight': 'true', Accept: 'application/json' }, '/graphql');
    expect(g.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(g.body).toString()).data.customers.items).toHaveLength(12);
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('chooses the coding by q-values', () => {
    expect(chooseEncoding('gzip;q=1, br;q=0.5')).toBe('gzip');
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('identity')).toBeNull();
    expect(chooseEncoding('x-gzip')).toBe('gzip');
  });
});

describe('rate-limit headers', () => {
  it('are on every response of a limited key: success, 400, 404, wrong method, GraphQL', async () => {
    const k = await keyWith(t, await createTenant(t), { usageLimit: 100, usagePeriod: 'day' });
    const responses = [
      await rest(t, k.key).get('/customers'),
      await rest(t, k.key).post('/customers', { first_name: '' }),
      await rest(t, k.key).get('/customers/0b7c1f9e-2a47-4b41-9d8e-2f0f7a0c9a11'),
      await request(t.app).patch('/api/v1/customers').set('Authorization', `Bearer ${k.key}`),
      await request(t.app).post('/graphql').set('Authorization', `Bearer ${k.key}`).send({ query: '{ company { uuid } }' }),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 400, 404, 404, 200]);
    responses.forEach((r, i) => {
      expect(r.headers['ratelimit-limit']).toBe('100');
      expect(r.headers['ratelimit-remaining']).toBe(String(99 - i));
      expect(Number(r.headers['ratelimit-reset'])).toBeGreaterThan(0);
    });
  });
});
