import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import express from 'express';
import { getIntrospectionQuery } from 'graphql';
import request from 'supertest';
import { graphiqlRoutes } from '../../src/graphql/graphiql';
import { createTenant, useTestApp } from '../helpers/app';

// /graphql in a browser: GraphiQL's page and its two files (dist/graphiql/, built by the global
// setup as `npm start` builds them), served by this server under its CSP. The browser itself:
// graphiql-browser.spec.ts.
const t = useTestApp();
const HTML = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const MANIFEST = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../dist/graphiql/manifest.json'), 'utf8'));

/** GET through node's http (superagent would decompress): status, headers and the bytes as sent. */
async function raw(p: string, acceptEncoding: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  const server = http.createServer(t.app).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  try {
    return await new Promise((resolve, reject) => {
      const { port } = server.address() as AddressInfo;
      http.get({ host: '127.0.0.1', port, path: p, headers: { 'Accept-Encoding': acceptEncoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      }).on('error', reject);
    });
  } finally {
    server.close();
  }
}

describe('/graphql in a browser', () => {
  it('is GraphiQL: a page whose script and style are files of this server, no inline script, no other host', async () => {
    const page = await request(t.app).get('/graphql').set('Accept', HTML);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers.vary).toMatch(/Accept/);
    const csp = page.headers['content-security-policy'];
    expect(csp).toMatch(/(^|;)script-src 'self'(;|$)/);
    expect(csp).toMatch(/(^|;)default-src 'self'(;|$)/);
    expect(page.text).not.toMatch(/https?:\/\//);
    const scripts = [...page.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.map((m) => [m[1], m[2]])).toEqual([[` defer src="/graphql/assets/${MANIFEST.files.js}"`, '']]);
    expect(page.text).toContain(`<link rel="stylesheet" href="/graphql/assets/${MANIFEST.files.css}">`);
    expect(MANIFEST.files).toEqual({ js: expect.stringMatching(/^graphiql-[A-Z0-9]{8}\.js$/), css: expect.stringMatching(/^graphiql-[A-Z0-9]{8}\.css$/) });
  });

  it.each([
    ['js', 'text/javascript; charset=utf-8'],
    ['css', 'text/css; charset=utf-8'],
  ])('serves the %s file with its type, cached for good, compressed as the client accepts', async (kind, type) => {
    const name: string = MANIFEST.files[kind];
    const file = fs.readFileSync(path.resolve(__dirname, '../../dist/graphiql', name));
    const plain = await raw(`/graphql/assets/${name}`, 'identity');
    expect(plain.status).toBe(200);
    expect(plain.headers['content-type']).toBe(type);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers['x-content-type-options']).toBe('nosniff');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Buffer.compare(plain.body, file)).toBe(0);
    const br = await raw(`/graphql/assets/${name}`, 'gzip, deflate, br');
    expect([br.headers['content-encoding'], br.headers.vary]).toEqual(['br', 'Accept-Encoding']);
    expect(Buffer.compare(zlib.brotliDecompressSync(br.body), file)).toBe(0);
    expect(br.body.length).toBeLessThan(file.length / 1.4);
    const gz = await raw(`/graphql/assets/${name}`, 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(Buffer.compare(zlib.gunzipSync(gz.body), file)).toBe(0);
    const head = await request(t.app).head(`/graphql/assets/${name}`).set('Accept-Encoding', 'identity');
    expect([head.status, head.headers['content-length']]).toEqual([200, String(file.length)]);
  });

  it('answers 404 for a file it does not have, without asking for a key', async () => {
    for (const p of ['/graphql/assets/graphiql-AAAAAAAA.js', '/graphql/assets/manifest.json', '/graphql/assets/..%2Fmanifest.json']) {
      const res = await request(t.app).get(p);
      expect([p, res.status, res.body.error?.code]).toEqual([p, 404, 'NOT_FOUND']);
    }
  });

  it('leaves GraphQL GETs and POSTs as they were, and lets a keyed request introspect the schema', async () => {
    const a = await createTenant(t);
    const q = await request(t.app).get('/graphql').query({ query: '{ company { name } }' }).set('Authorization', `Bearer ${a.key}`).set('Accept', 'application/json').set('apollo-require-preflight', 'true');
    expect(q.body.data.company.name).toBe('Acme Plumbing');
    const none = await request(t.app).get('/graphql').query({ query: '{ company { name } }' }).set('apollo-require-preflight', 'true');
    expect(none.status).toBe(401);
    // What GraphiQL sends (as @graphiql/toolkit's fetcher does) to learn the schema.
    const body = { query: getIntrospectionQuery(), operationName: 'IntrospectionQuery' };
    const schema = await request(t.app).post('/graphql').set('Authorization', `Bearer ${a.key}`).set('Accept', 'application/json, multipart/mixed').send(body);
    expect(schema.status).toBe(200);
    expect(schema.body.errors).toBeUndefined();
    expect(schema.body.data.__schema.queryType.name).toBe('Query');
    expect((await request(t.app).post('/graphql').send(body)).status).toBe(401);
  });

  it('says how to build it when the bundle is missing', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'no-graphiql-'));
    const app = express();
    for (const [p, handler] of graphiqlRoutes(empty)) app.get(p, handler);
    const res = await request(app).get('/graphql').set('Accept', HTML);
    expect([res.status, res.text]).toEqual([500, expect.stringContaining('node scripts/build.js')]);
  });
});
