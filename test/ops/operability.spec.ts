import net from 'node:net';
import request from 'supertest';
import { ConfigError, loadConfig } from '../../src/config/index';
import { createTenant, rest, useTestApp } from '../helpers/app';
import { runMain, startServer } from '../helpers/server-process';

const t = useTestApp();

describe('security headers', () => {
  it.each(['/health', '/api/v1/customers', '/graphql', '/api/v1/nope'])('%s carries helmet headers and no X-Powered-By', async (path) => {
    const a = await createTenant(t);
    const res = await request(t.app).get(path).set('Authorization', `Bearer ${a.key}`);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    // Plain HTTP: a browser told to upgrade would fetch the /docs page's scripts over https.
    expect(res.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['x-request-id']).toBeTruthy();
  });
});

describe('/metrics', () => {
  it('counts requests by route pattern and status, with latencies and pool gauges', async () => {
    const a = await createTenant(t);
    const c = (await rest(t, a).post('/customers', { first_name: 'A', last_name: 'B' })).body.data;
    await rest(t, a).get(`/customers/${c.uuid}`);
    await rest(t, a).get('/customers/00000000-0000-4000-8000-000000000000');
    await request(t.app).get('/api/v1/customers').set('Authorization', 'Bearer nope');
    await request(t.app).post('/graphql').set('Authorization', `Bearer ${a.key}`).send({ query: '{ company { uuid } }' });
    const res = await request(t.app).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.text;
    expect(text).toMatch(/^http_requests_total\{method="GET",route="\/api\/v1\/customers\/:uuid",status="200"\} [1-9]/m);
    expect(text).toMatch(/^http_requests_total\{method="GET",route="\/api\/v1\/customers\/:uuid",status="404"\} [1-9]/m);
    expect(text).toMatch(/^http_requests_total\{method="POST",route="\/api\/v1\/customers",status="200"\} [1-9]/m);
    expect(text).toMatch(/^http_requests_total\{method="GET",route="\/api\/v1\/\*",status="401"\} [1-9]/m);
    expect(text).toMatch(/^http_requests_total\{method="POST",route="\/graphql",status="200"\} [1-9]/m);
    expect(text).toMatch(/^http_request_duration_seconds_bucket\{le="0\.1",method="GET",route="\/api\/v1\/customers\/:uuid",status="200"\} \d+/m);
    expect(text).toMatch(/^http_request_duration_seconds_count\{method="POST",route="\/graphql",status="200"\} [1-9]/m);
    // Every counted request has its latency observed, under the same labels (one end-of-request
    // hook feeds both, src/ops/request-log.ts).
    const series = (name: string) => new Map([...text.matchAll(new RegExp(`^${name}\\{(method="[^"]*",route="[^"]*",status="[^"]*")\\} (\\d+)$`, 'gm'))].map((m) => [m[1], m[2]]));
    const counted = series('http_requests_total');
    expect(counted.size).toBeGreaterThanOrEqual(5);
    expect(series('http_request_duration_seconds_count')).toEqual(counted);
    // Labels hold patterns, never raw ids.
    expect(text).not.toContain(c.uuid);
    for (const state of ['used', 'free', 'pending_acquires', 'pending_creates']) {
      expect(text).toMatch(new RegExp(`^db_pool_connections\\{state="${state}"\\} \\d+`, 'm'));
    }
    expect(text).toMatch(/^db_pool_max_connections 5$/m);
    expect(text).toMatch(/^process_cpu_seconds_total /m);
  });

  describe('with METRICS_TOKEN', () => {
    const secured = useTestApp({ METRICS_TOKEN: 'a-long-scrape-token-123', TRUST_PROXY: 'loopback' });
    it('needs the token, from any address', async () => {
      expect((await request(secured.app).get('/metrics')).status).toBe(401);
      expect((await request(secured.app).get('/metrics').set('Authorization', 'Bearer wrong-token-xxxxxxxx')).status).toBe(401);
      const ok = await request(secured.app).get('/metrics').set('Authorization', 'Bearer a-long-scrape-token-123').set('X-Forwarded-For', '203.0.113.9');
      expect(ok.status).toBe(200);
      expect(ok.text).toContain('http_requests_total');
    });
  });

  describe('without METRICS_TOKEN', () => {
    const proxied = useTestApp({ TRUST_PROXY: 'loopback' });
    it('is served to loopback clients only', async () => {
      const res = await request(proxied.app).get('/metrics').set('X-Forwarded-For', '203.0.113.9');
      expect(res.status).toBe(401);
      expect(res.body.error).toEqual({ code: 'UNAUTHORIZED', message: 'Metrics are served to loopback clients only unless METRICS_TOKEN is set' });
      expect((await request(proxied.app).get('/metrics').set('X-Forwarded-For', '::1')).status).toBe(200);
    });
  });
});

describe('configuration', () => {
  it.each([
    [{ PORT: 'abc' }, 'PORT must be a whole number, got "abc"'],
    [{ PORT: '70000' }, 'PORT must be between 0 and 65535, got 70000'],
    [{ LOG_LEVEL: 'verbose' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"'],
    [{ TRUST_PROXY: 'loopback,proxy.example' }, 'TRUST_PROXY must list proxy addresses, CIDRs or loopback/linklocal/uniquelocal, got "proxy.example"'],
    [{ GRAPHQL_MAX_DEPTH: '1' }, 'GRAPHQL_MAX_DEPTH must be between 2 and 100, got 1'],
    [{ GRAPHQL_MAX_COST: '-5' }, 'GRAPHQL_MAX_COST must be a whole number, got "-5"'],
    [{ METRICS_TOKEN: 'short' }, 'METRICS_TOKEN must be at least 16 characters'],
    [{ SHUTDOWN_TIMEOUT_MS: '1e3' }, 'SHUTDOWN_TIMEOUT_MS must be a whole number, got "1e3"'],
    [{ CORS_ORIGINS: 'https://app.example.com,localhost:3000' }, 'CORS_ORIGINS must list origins like https://app.example.com (scheme, host, optional port, no path) or *, got "localhost:3000"'],
    [{ CORS_ORIGINS: 'https://app.example.com/' }, 'CORS_ORIGINS must list origins'],
    [{ PHOTO_URL_SECRET: 'secret' }, 'PHOTO_URL_SECRET must be at least 16 characters'],
    [{ DEBUG_SQL: 'verbose' }, 'DEBUG_SQL must be true or false, got "verbose"'],
  ])('%j is refused: %s', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('has documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 4000, graphqlMaxDepth: 10, graphqlMaxCost: 25000, metricsToken: null, trustProxy: [], logLevel: 'info', shutdownTimeoutMs: 10000 });
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8 ,2001:db8::1' }).trustProxy).toEqual(['loopback', '10.0.0.0/8', '2001:db8::1']);
    expect(loadConfig({ CORS_ORIGINS: 'https://app.example.com, http://localhost:3000' }).corsOrigins).toEqual(['https://app.example.com', 'http://localhost:3000']);
    expect(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins).toEqual(['*']);
    expect(c.debugSql).toBe(false);
  });

  it.each([
    [{ PORT: 'eighty' }, 'Configuration error: PORT must be a whole number, got "eighty"'],
    [{ LOG_LEVEL: 'loud' }, 'Configuration error: LOG_LEVEL must be one of'],
  ])('the server refuses to start with %j, saying why, exit code 1', async (env, message) => {
    const run = runMain(env);
    expect(await run.exited).toBe(1);
    expect(run.stderr()).toContain(message);
  });
});

describe('server process: start failures', () => {
  it('a port already in use stops the start with a clear message and exit code 1', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const port = (blocker.address() as net.AddressInfo).port;
      const run = runMain({ DATABASE_URL: t.url, PORT: String(port) });
      expect(await run.exited).toBe(1);
      expect(run.stderr()).toContain(`Start failed: cannot listen on 127.0.0.1:${port}: listen EADDRINUSE`);
    } finally {
      blocker.close();
    }
  });
});

describe('server process: logs and graceful shutdown', () => {
  it('logs each request as JSON with request id, company and key id, never the key', async () => {
    const a = await createTenant(t);
    const server = await startServer({ DATABASE_URL: t.url });
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}/api/v1/customers?limit=5`, { headers: { Authorization: `Bearer ${a.key}`, 'X-Request-Id': 'trace-abc-123' } });
      expect(res.status).toBe(200);
      await fetch(`http://127.0.0.1:${server.port}/graphql`, { method: 'POST', headers: { Authorization: `Bearer ${a.key}`, 'Content-Type': 'application/json' }, body: '{"query":"{ nope }"}' });
    } finally {
      server.kill('SIGTERM');
    }
    // Idle keep-alive connections do not hold the shutdown up.
    expect(await server.exited).toBe(0);
    expect(server.stdout()).toContain('"msg":"stopped"');
    const lines = server
      .stdout()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l));
    const entry = lines.find((l) => l.requestId === 'trace-abc-123');
    expect(entry).toMatchObject({ level: 30, msg: 'request', method: 'GET', route: '/api/v1/customers', path: '/api/v1/customers', status: 200, companyUuid: a.companyUuid, ip: '127.0.0.1' });
    expect(entry.keyId).toMatch(/^[0-9a-f-]{36}$/);
    expect(typeof entry.durationMs).toBe('number');
    expect(lines.find((l) => l.route === '/graphql')).toMatchObject({ status: 400, companyUuid: a.companyUuid });
    expect(server.stdout() + server.stderr()).not.toContain(a.key);
    expect(server.stdout()).not.toMatch(/authorization/i);
  });

  // A request whose body is still arriving when SIGTERM comes.
  async function slowRequest(port: number, key: string, path: string, body: string) {
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let response = '';
    socket.on('data', (d) => (response += String(d)));
    const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(response)));
    socket.write(`POST ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`);
    socket.write(body.slice(0, 20));
    // write, not end: a client that half-closes its side gets its request aborted by Node.
    return { finish: () => socket.write(body.slice(20)), closed };
  }

  it('drains in-flight REST and GraphQL requests on SIGTERM, refuses new connections, then exits 0', async () => {
    const a = await createTenant(t);
    const server = await startServer({ DATABASE_URL: t.url, SHUTDOWN_TIMEOUT_MS: '8000' });
    const restCall = await slowRequest(server.port, a.key, '/api/v1/customers', JSON.stringify({ first_name: 'Slow', last_name: 'Upload', notes: 'x'.repeat(2000) }));
    const gqlCall = await slowRequest(server.port, a.key, '/graphql', JSON.stringify({ query: 'mutation { createCustomer(input: { firstName: "Slow", lastName: "Graph" }) { lastName } }' }));
    await new Promise((r) => setTimeout(r, 300));
    const signalled = Date.now();
    server.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 700));
    // The listener is closed: a new connection is refused while the old requests are served.
    await expect(fetch(`http://127.0.0.1:${server.port}/health`)).rejects.toThrow();
    expect(server.proc.exitCode).toBeNull();
    restCall.finish();
    gqlCall.finish();
    const [restResponse, gqlResponse] = await Promise.all([restCall.closed, gqlCall.closed]);
    expect(restResponse).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(restResponse).toMatch(/connection: close/i);
    expect(restResponse).toContain('"first_name":"Slow"');
    expect(gqlResponse).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(gqlResponse).toContain('{"data":{"createCustomer":{"lastName":"Graph"}}');
    expect(await server.exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(8000);
    expect(server.stdout()).toContain('"msg":"stopped"');
    const rows = await t.orm.em.fork().getConnection().execute<{ n: number }[]>(`select count(*)::int as n from customers where first_name = 'Slow'`);
    expect(rows[0].n).toBe(2);
  });

  it('gives up on a request that outlives SHUTDOWN_TIMEOUT_MS and still exits 0 within the bound', async () => {
    const a = await createTenant(t);
    const server = await startServer({ DATABASE_URL: t.url, SHUTDOWN_TIMEOUT_MS: '1000' });
    const socket = net.connect(server.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.on('error', () => undefined);
    const closed = new Promise((resolve) => socket.once('close', resolve));
    // A body that never finishes arriving.
    socket.write(`POST /api/v1/customers HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${a.key}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"first_name":`);
    await new Promise((r) => setTimeout(r, 300));
    const signalled = Date.now();
    server.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const took = Date.now() - signalled;
    expect(took).toBeGreaterThanOrEqual(900);
    expect(took).toBeLessThan(5000);
    await closed;
    expect(server.stdout()).toContain('shutdown timeout');
  });
});
