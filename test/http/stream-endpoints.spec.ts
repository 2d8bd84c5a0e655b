import request from 'supertest';
import { createTenant, rest, useTestApp } from '../helpers/app';
import { useListening } from '../helpers/live';
import { mismatchOf, type Recorded } from '../helpers/openapi-check';
import { userWithKey } from '../helpers/technicians';
import { openApiDocument } from '../../src/rest/openapi';
import { routes } from '../../src/rest/routes';
import { EVENT_STREAM, MCP_ENDPOINT } from '../../src/rest/stream-endpoints';
import { UserRole } from '../../src/modules/user/user.entity';

// The endpoints outside the route table (src/rest/stream-endpoints.ts) are in the OpenAPI
// document from their declarations, served where declared, and answer as documented.
const t = useTestApp();
const http = useListening(t);
jest.setTimeout(60_000);

const asRecorded = (method: string, path: string, status: number, headers: Headers | Record<string, unknown>, body: string): Recorded => ({
  method,
  path,
  status,
  headers: headers instanceof Headers ? Object.fromEntries([...(headers as unknown as Iterable<[string, string]>)]) : headers,
  body: Buffer.from(body),
});

describe('the event stream and /mcp in the OpenAPI document', () => {
  it('describes both from their declarations: path, method, scope, tag and parameters as the feed declares them', () => {
    const doc = openApiDocument(routes) as Record<string, any>;
    const stream = doc.paths[EVENT_STREAM.path].get;
    expect(stream).toMatchObject({ operationId: 'streamEvents', tags: ['Events'], 'x-required-scope': 'events:read', security: [{ bearer: [] }] });
    expect(stream.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['Last-Event-ID', 'after', 'types']);
    // The query parameters are the feed's own (GET /api/v1/events), described alike.
    const feed = doc.paths['/api/v1/events'].get.parameters;
    for (const name of ['after', 'types']) expect(stream.parameters.find((p: { name: string }) => p.name === name)).toEqual(feed.find((p: { name: string }) => p.name === name));
    expect(Object.keys(stream.responses['200'].content)).toEqual(['text/event-stream']);
    expect(Object.keys(stream.responses).sort()).toEqual(['200', '400', '401', '403', '410', '500', '503']);
    const mcp = doc.paths[MCP_ENDPOINT.path].post;
    expect(mcp).toMatchObject({ operationId: 'mcp', tags: ['Agents'], security: [{ bearer: [] }] });
    expect(mcp['x-required-scope']).toBeUndefined();
    expect(doc.tags.find((x: { name: string }) => x.name === 'Agents').description).toContain('Model Context Protocol');
  });

  it('answers as documented: the stream, its refusals, and MCP messages', async () => {
    const a = await createTenant(t);
    // A live stream: its headers and first bytes (the opening comment) against the 200.
    const abort = new AbortController();
    const res = await fetch(`http://${http.base()}${EVENT_STREAM.path}?types=customer.*`, { headers: { Authorization: `Bearer ${a.key}` }, signal: abort.signal });
    const reader = res.body!.getReader();
    const first = Buffer.from((await reader.read()).value!).toString('utf8');
    abort.abort();
    expect(first).toContain(': stream open');
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(mismatchOf(asRecorded('GET', EVENT_STREAM.path, res.status, res.headers, first))).toEqual([]);
    // Refusals before the stream: JSON answers of the documented statuses and bodies.
    const tech = await userWithKey(t, a, UserRole.TECHNICIAN, 'Tess');
    const cases = [
      [tech.key, ''],
      [a.key, '?after=nonsense'],
      ['fsk_' + 'x'.repeat(40), ''],
    ] as const;
    const statuses: number[] = [];
    for (const [key, query] of cases) {
      const r = await request(t.built.app).get(`${EVENT_STREAM.path}${query}`).set('Authorization', `Bearer ${key}`);
      statuses.push(r.status);
      expect(mismatchOf(asRecorded('GET', EVENT_STREAM.path, r.status, r.headers, r.text))).toEqual([]);
    }
    expect(statuses).toEqual([403, 400, 401]);

    // MCP: a request, a notification, a refused Accept and a missing key, each as documented.
    const mcp = (body: object, accept = 'application/json, text/event-stream', key: string = a.key) =>
      request(t.built.app).post(MCP_ENDPOINT.path).set('Authorization', `Bearer ${key}`).set('Accept', accept).set('Content-Type', 'application/json').send(body);
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } };
    const answers = [await mcp(init), await mcp({ jsonrpc: '2.0', method: 'notifications/initialized' }), await mcp(init, 'text/html'), await mcp(init, undefined, 'fsk_nope'), await mcp({ nonsense: true })];
    expect(answers.map((r) => r.status)).toEqual([200, 202, 406, 401, 400]);
    expect(answers[0].body.result.serverInfo.name).toBe('field-service-crm');
    for (const r of answers) expect(mismatchOf(asRecorded('POST', MCP_ENDPOINT.path, r.status, r.headers, r.text))).toEqual([]);
    await rest(t, a).get('/events/head').expect(200);
  });
});
