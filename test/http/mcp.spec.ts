import path from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { authenticate } from '../../src/auth/authenticate';
import { mcpServer, mcpTools } from '../../src/rest/mcp-server';
import { JSON_LIMIT } from '../../src/rest/router';
import { createTenant, rest, useTestApp } from '../helpers/app';
import { useListening } from '../helpers/live';
import { routes } from '../../src/rest/routes';
import { operationId } from '../../src/rest/openapi-operations';
import { rightsOf } from '../../src/domain/scopes';
import { keyFor } from '../helpers/people';

// MCP (docs/agents.md) with the official SDK's client, over Streamable HTTP (/mcp) and stdio
// (`npm run mcp`, the compiled dist/src/rest/mcp-stdio.js the global setup builds).
const t = useTestApp();
const http = useListening(t);
jest.setTimeout(60_000);

const STDIO_JS = path.resolve(__dirname, '../../dist/src/rest/mcp-stdio.js');
const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
// Every operation with a JSON answer: the photo upload (multipart) and the PDFs (files) are not tools.
const expectedTools = () => routes.filter((r) => !r.multipart && !r.file && !r.stream).map((r) => snake(operationId(r)));

async function overHttp(key: string): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://${http.base()}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
  return client;
}

async function overStdio(key: string): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' });
  const env = { ...(process.env as Record<string, string>), DATABASE_URL: t.url, FSC_API_KEY: key, MIGRATE: 'false' };
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [STDIO_JS], env, stderr: 'pipe' }));
  return client;
}

const text = (r: any) => JSON.parse(r.content[0].text);

for (const [surface, connect] of [
  ['Streamable HTTP', overHttp],
  ['stdio', overStdio],
] as const) {
  describe(`MCP over ${surface}`, () => {
    it('lists one tool per REST operation, with the input schema of the OpenAPI document and annotations', async () => {
      const a = await createTenant(t);
      const client = await connect(a.key);
      try {
        const { tools } = await client.listTools();
        expect(tools.map((x) => x.name).sort()).toEqual(expectedTools().sort());
        const byName = new Map(tools.map((x) => [x.name, x]));
        for (const name of ['list_customers', 'get_invoice', 'create_payment', 'convert_estimate_to_job']) expect(byName.has(name)).toBe(true);
        expect(byName.get('get_customer')!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
        expect(byName.get('delete_customer')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
        const create = byName.get('create_customer')!.inputSchema as any;
        expect(create.properties.idempotency_key.type).toBe('string');
        expect(create.properties.body.properties.first_name).toBeDefined();
        expect(create.required).toEqual(['body']);
        expect((byName.get('get_customer')!.inputSchema as any).required).toEqual(['uuid']);
        expect(JSON.stringify(tools)).not.toContain('$ref');
      } finally {
        await client.close();
      }
    });

    it('answers what REST answers; a create with an idempotency_key twice makes one record; a 400 is a tool error with its code', async () => {
      const a = await createTenant(t);
      const client = await connect(a.key);
      try {
        const args = { body: { first_name: 'Mia', last_name: 'Agent', email: 'mia@example.com' }, idempotency_key: 'mcp-1' };
        const first = await client.callTool({ name: 'create_customer', arguments: args });
        const again = await client.callTool({ name: 'create_customer', arguments: args });
        expect(first.isError).toBeFalsy();
        expect(text(again).uuid).toBe(text(first).uuid);
        const list = await rest(t, a).get('/customers');
        expect(list.body.data.customers).toHaveLength(1);
        const got = await client.callTool({ name: 'get_customer', arguments: { uuid: text(first).uuid } });
        expect(text(got)).toEqual((await rest(t, a).get(`/customers/${text(first).uuid}`)).body.data);
        const listed = await client.callTool({ name: 'list_customers', arguments: { limit: 5, sort: '-created_at' } });
        expect(text(listed).customers.map((c: any) => c.uuid)).toEqual([text(first).uuid]);
        const bad = await client.callTool({ name: 'create_customer', arguments: { body: { first_name: 'No', last_name: 'Mail', email: 'not-an-email' } } });
        expect(bad.isError).toBe(true);
        expect(text(bad)).toMatchObject({ code: 'VALIDATION_ERROR', details: [expect.objectContaining({ field: 'email' })] });
        const missing = await client.callTool({ name: 'get_customer', arguments: { uuid: '00000000-0000-4000-8000-000000000000' } });
        expect(missing.isError).toBe(true);
        expect(text(missing).code).toBe('NOT_FOUND');
      } finally {
        await client.close();
      }
    });
  });
}

it('lists only the tools a key’s scopes allow, and refuses a call outside them with the REST code', async () => {
  const owner = await createTenant(t);
  const reader = await keyFor(t, owner, { role: 'office', scopes: ['customers:read'] });
  const client = await overHttp(reader.key);
  try {
    const { tools } = await client.listTools();
    const rights = rightsOf('office', ['customers:read']);
    const allowed = routes.filter((r) => !r.multipart && !r.file && !r.stream && (typeof r.scope === 'string' ? [r.scope] : r.scope).every((s) => rights.allows(s)));
    expect(tools.map((x) => x.name).sort()).toEqual(allowed.map((r) => snake(operationId(r))).sort());
    expect(tools.map((x) => x.name)).toEqual(expect.arrayContaining(['list_customers', 'get_customer']));
    expect(tools.map((x) => x.name)).not.toContain('create_customer');
    const refused = await client.callTool({ name: 'create_customer', arguments: { body: { first_name: 'No', last_name: 'Scope' } } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatchObject({ code: 'PERMISSION_DENIED', details: [{ field: 'scope', message: 'needs customers:write' }] });
  } finally {
    await client.close();
  }
});

it('refuses /mcp without a key (401)', async () => {
  const res = await fetch(`http://${http.base()}/mcp`, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body: '{}' });
  expect(res.status).toBe(401);
});

describe('POST /mcp answers what the SDK\'s Streamable HTTP transport answers', () => {
  // The reference (docs/agents.md, "The HTTP transport"): the same tools and server behind the
  // SDK's StreamableHTTPServerTransport (stateless, JSON answers), made per request as it must be.
  let reference: Server;
  beforeAll(async () => {
    const tools = mcpTools(routes);
    const app = express();
    app.post('/mcp', express.json({ limit: JSON_LIMIT }), async (req, res, next) => {
      try {
        const ctx = await authenticate(t.orm, req, 'mcp-reference');
        const server = mcpServer(tools, async () => ctx);
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
        res.on('close', () => void server.close());
        await server.connect(transport);
        await transport.handleRequest(req, res, req.body);
      } catch (err) {
        next(err);
      }
    });
    reference = createServer(app);
    await new Promise<void>((resolve) => reference.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    reference.closeAllConnections();
    await new Promise((resolve) => reference.close(resolve));
  });

  it('the same status, media type and JSON for requests, batches, notifications and every refusal', async () => {
    const a = await createTenant(t);
    const customer = (await rest(t, a).post('/customers').send({ first_name: 'Ada', last_name: 'Same', email: 'ada@example.com' }).expect(200)).body.data;
    const call = (id: number | string, name: string, args: object) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
    const init = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } };
    const note = { jsonrpc: '2.0', method: 'notifications/initialized' };
    const ACCEPT = 'application/json, text/event-stream';
    const cases: { name: string; body: unknown; accept?: string; type?: string; version?: string }[] = [
      { name: 'initialize', body: init },
      { name: 'a notification alone', body: note },
      { name: 'a client response alone', body: { jsonrpc: '2.0', id: 7, result: {} } },
      { name: 'an empty batch', body: [] },
      { name: 'ping', body: { jsonrpc: '2.0', id: 'p', method: 'ping' } },
      { name: 'tools/list', body: { jsonrpc: '2.0', id: 2, method: 'tools/list' }, version: '2025-06-18' },
      { name: 'get_customer', body: call(3, 'get_customer', { uuid: customer.uuid }) },
      { name: 'get_customer, missing', body: call(4, 'get_customer', { uuid: '00000000-0000-4000-8000-000000000000' }) },
      { name: 'list_customers', body: call('five', 'list_customers', { limit: 5 }) },
      { name: 'an unknown argument', body: call(6, 'get_customer', { uuid: customer.uuid, nope: 1 }) },
      { name: 'an unknown tool', body: call(7, 'no_such_tool', {}) },
      { name: 'tools/call without a name', body: { jsonrpc: '2.0', id: 8, method: 'tools/call', params: {} } },
      { name: 'an unknown method', body: { jsonrpc: '2.0', id: 9, method: 'nothing/here' } },
      { name: 'a batch of calls and a notification', body: [call(10, 'get_customer', { uuid: customer.uuid }), note, call(11, 'list_customers', { limit: 1 })] },
      { name: 'a batch of two initializes', body: [init, { ...init, id: 1 }] },
      { name: 'a batch over the limit', body: Array.from({ length: 101 }, (_, i) => call(i, 'get_customer', { uuid: customer.uuid })) },
      { name: 'not a JSON-RPC message', body: { nonsense: true } },
      { name: 'one bad message in a batch', body: [call(12, 'get_customer', { uuid: customer.uuid }), { jsonrpc: '1.0' }] },
      { name: 'an unsupported protocol version', body: call(13, 'get_customer', { uuid: customer.uuid }), version: '1999-01-01' },
      { name: 'a supported protocol version', body: call(14, 'get_customer', { uuid: customer.uuid }), version: '2025-03-26' },
      { name: 'initialize with an unsupported protocol version header', body: init, version: '1999-01-01' },
      { name: 'Accept without text/event-stream', body: init, accept: 'application/json' },
      { name: 'no Accept', body: init, accept: '' },
      { name: 'a text body', body: 'hello', type: 'text/plain' },
      { name: 'JSON with parameters', body: call(15, 'get_customer', { uuid: customer.uuid }), type: 'application/json; charset=utf-8' },
    ];
    const answer = async (base: string, c: (typeof cases)[number]) => {
      const headers: Record<string, string> = { Authorization: `Bearer ${a.key}`, 'Content-Type': c.type ?? 'application/json' };
      if (c.accept !== '') headers.Accept = c.accept ?? ACCEPT;
      if (c.version) headers['MCP-Protocol-Version'] = c.version;
      const res = await fetch(`http://${base}/mcp`, { method: 'POST', headers, body: typeof c.body === 'string' ? c.body : JSON.stringify(c.body) });
      const text = await res.text();
      return { status: res.status, type: res.headers.get('content-type')?.split(';')[0] ?? null, body: text ? JSON.parse(text) : null };
    };
    const ref = `127.0.0.1:${(reference.address() as AddressInfo).port}`;
    const wrong: string[] = [];
    for (const c of cases) {
      const [ours, theirs] = [await answer(http.base(), c), await answer(ref, c)];
      const [mine, sdks] = [JSON.stringify(ours), JSON.stringify(theirs)];
      if (mine !== sdks) wrong.push(`${c.name}: ours ${mine.slice(0, 400)}, the SDK's ${sdks.slice(0, 400)}`);
    }
    expect(wrong).toEqual([]);
  });
});
