import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { createTenant, useTestApp } from '../helpers/app';

// The app's request and response classes (src/ops/request-classes.ts): a server that makes its
// requests and responses with them answers exactly as a server that lets express swap their
// prototypes (supertest's, and every test's), over one app.
const t = useTestApp();

let app: Awaited<ReturnType<typeof createApp>>;
const servers: Server[] = [];
const made: boolean[] = [];
let plain: string;
let classed: string;

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  app = await createApp({ orm: t.orm, config: loadConfig({ ...process.env, DATABASE_URL: t.url }) });
  plain = await listen(createServer(app.app));
  // Whether each request reached express already made with the app's prototype.
  const seen = (req: IncomingMessage, res: ServerResponse) => {
    made.push(req instanceof app.classes.IncomingMessage && Object.getPrototypeOf(req) === app.app.request && Object.getPrototypeOf(res) === app.app.response);
    app.app(req, res);
  };
  classed = await listen(createServer({ ...app.classes }, seen));
});
afterAll(async () => {
  // fetch keeps its connections open: closed here, or close() waits for them (a minute, at worst).
  for (const s of servers) s.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  await app?.close();
});

/** Status, headers and body, less what differs by request (the date, the request id). */
async function answer(base: string, path: string, init: RequestInit = {}) {
  const res = await fetch(base + path, { redirect: 'manual', ...init });
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (name !== 'date' && name !== 'x-request-id') headers[name] = value;
  });
  return { status: res.status, headers, body: await res.text() };
}

it('answers every kind of request as the server that lets express swap the prototypes', async () => {
  const a = await createTenant(t, { name: 'Classed Plumbing' });
  const auth = { authorization: `Bearer ${a.key}` };
  const json = { ...auth, 'content-type': 'application/json' };
  const created = await fetch(`${plain}/api/v1/customers`, { method: 'POST', headers: json, body: JSON.stringify({ first_name: 'Ada', last_name: 'Classed', email: 'ada@example.com', phone: '(217) 555-0110' }) });
  const customer = (await created.json()).data;
  const one = await fetch(`${plain}/api/v1/customers/${customer.uuid}`, { headers: auth });
  const cases: Array<[string, RequestInit?]> = [
    ['/health'],
    ['/api/v1/companies/me', { headers: auth }],
    ['/api/v1/customers?limit=5', { headers: auth }],
    ['/api/v1/customers?limit=5', { headers: { ...auth, 'accept-encoding': 'gzip' } }],
    [`/api/v1/customers/${customer.uuid}`, { headers: auth }],
    [`/api/v1/customers/${customer.uuid}`, { headers: { ...auth, 'if-none-match': one.headers.get('etag')! } }],
    [`/api/v1/customers/${customer.uuid}`, { method: 'HEAD', headers: auth }],
    [`/api/v1/customers/${customer.uuid}`, { method: 'PUT', headers: json, body: JSON.stringify({ notes: 'ok' }) }],
    ['/api/v1/customers?limit=nope', { headers: auth }],
    ['/api/v1/customers', { headers: { authorization: 'Bearer nope' } }],
    ['/api/v1/customers', { method: 'DELETE', headers: auth }],
    ['/api/v1/nowhere', { headers: auth }],
    ['/api/v1/customers', { method: 'POST', headers: json, body: '{"first_name":' }],
    ['/api/v1/customers', { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' } }],
    ['/graphql', { method: 'POST', headers: json, body: JSON.stringify({ query: '{ company { name } }' }) }],
    ['/graphql', { method: 'POST', headers: json, body: JSON.stringify({ query: '{ nope }' }) }],
    ['/graphql?query=%7B%20company%20%7B%20name%20%7D%20%7D', { headers: { ...auth, 'apollo-require-preflight': 'true' } }],
    ['/graphql', { headers: { accept: 'text/html' } }],
    ['/api/v1/openapi.json'],
    ['/docs/'],
    ['/nowhere'],
  ];
  for (const [path, init] of cases) {
    const p = await answer(plain, path, init);
    const c = await answer(classed, path, init);
    expect({ path, ...c }).toEqual({ path, ...p });
    expect(p.status).toBeLessThan(500);
  }
  // Every request of the second server was made by the classes; none needed express's swap.
  expect(made.length).toBe(cases.length);
  expect(made.every(Boolean)).toBe(true);
});

it('keeps express request and response methods, and node’s, on the classes', () => {
  const { IncomingMessage: Req, ServerResponse: Res } = app.classes;
  expect(Object.getPrototypeOf(Req.prototype)).toBe(Object.getPrototypeOf(app.app.request));
  expect(Req.prototype).toBe(app.app.request);
  expect(Res.prototype).toBe(app.app.response);
  expect((app.app.request as unknown as { app: unknown }).app).toBe(app.app);
  expect((app.app.response as unknown as { app: unknown }).app).toBe(app.app);
  for (const m of ['get', 'header', 'accepts', 'is']) expect(typeof (Req.prototype as unknown as Record<string, unknown>)[m]).toBe('function');
  for (const m of ['json', 'send', 'status', 'vary', 'setHeader', 'end']) expect(typeof (Res.prototype as unknown as Record<string, unknown>)[m]).toBe('function');
  expect(Req.prototype instanceof IncomingMessage).toBe(true);
  expect(Res.prototype instanceof ServerResponse).toBe(true);
});
