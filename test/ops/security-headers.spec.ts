import express from 'express';
import helmet from 'helmet';
import request from 'supertest';
import { HELMET_OPTIONS, securityHeaders } from '../../src/ops/security-headers';
import { createTenant, useTestApp } from '../helpers/app';

// securityHeaders (helmet's headers recorded once, src/ops/security-headers.ts) answers with the
// headers helmet itself sets, in the same order, on the app's routes and on a bare express app.
const t = useTestApp();

/** helmet's response headers on a bare app: name → value, in the order they were set. */
async function headersOf(middleware: express.RequestHandler, path = '/x'): Promise<Array<[string, string]>> {
  const app = express();
  app.use((_req, res, next) => {
    res.setHeader('X-Powered-By', 'something');
    next();
  });
  app.use(middleware);
  app.get(/.*/, (_req, res) => void res.end('ok'));
  const res = await request(app).get(path);
  return Object.entries(res.headers).filter(([k]) => !['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(k)) as Array<[string, string]>;
}

it('sets the headers helmet sets, in the same order, from the recording', async () => {
  const fast = securityHeaders();
  expect(fast.precomputed).toBe(true);
  const expected = await headersOf(helmet(HELMET_OPTIONS));
  expect(expected.length).toBeGreaterThan(10);
  expect(await headersOf(fast)).toEqual(expected);
  // helmet's defaults too, and another configuration.
  expect(await headersOf(securityHeaders({}))).toEqual(await headersOf(helmet({})));
  const other = { frameguard: { action: 'deny' as const }, hsts: false, contentSecurityPolicy: { directives: { 'default-src': ["'none'"] } } };
  expect(await headersOf(securityHeaders(other))).toEqual(await headersOf(helmet(other)));
});

it('falls back to helmet itself when a directive depends on the request', async () => {
  const options = { contentSecurityPolicy: { directives: { 'script-src': ["'self'", (req: any) => `'nonce-${req.url.length}'`] } } };
  const fallback = securityHeaders(options);
  expect(fallback.precomputed).toBe(false);
  expect(await headersOf(fallback, '/abc')).toEqual(await headersOf(helmet(options), '/abc'));
  expect((await headersOf(fallback, '/abc')).find(([k]) => k === 'content-security-policy')![1]).toContain("'nonce-4'");
});

it.each(['/health', '/api/v1/customers', '/graphql', '/api/v1/nope', '/docs/'])('the app answers %s with helmet headers', async (path) => {
  const a = await createTenant(t);
  const res = await request(t.app).get(path).set('Authorization', `Bearer ${a.key}`);
  const helmetHeaders = new Map(await headersOf(helmet(HELMET_OPTIONS)));
  for (const [name, value] of helmetHeaders) {
    if (name === 'content-type' || name === 'x-powered-by') continue;
    expect([name, res.headers[name]]).toEqual([name, value]);
  }
  expect(res.headers['x-powered-by']).toBeUndefined();
});
