import { restFieldsOf } from '../schema/fields';
import { EventFeedArgs } from '../modules/event/event.inputs';
import { Event } from '../modules/event/event.types';
import { errorResponses } from './openapi-operations';
import { TAG_DESCRIPTIONS } from './openapi-tags';
import { queryParameter, register, type Schema, type Schemas } from './openapi-schemas';
import { EVENT_STREAM, MCP_ENDPOINT, type StreamEndpoint } from './stream-endpoints';

// The OpenAPI path items of the endpoints outside the route table (src/rest/stream-endpoints.ts):
// the live feed as Server-Sent Events and the MCP endpoint. Their declarations give the path,
// method, scope, summary and the envelope errors answered before the stream or protocol begins.

const refs = (names: string[]) => Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));
const KEYED = refs(['X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']);

/** What every operation of a declaration shares: its name, tag, scope and key. */
function base(e: StreamEndpoint): Schema {
  const needs = e.scope ? `Needs ${e.scope}.` : 'Needs a working API key (each tool needs its own scope).';
  return {
    tags: [e.tag],
    summary: e.summary,
    description: `${needs} ${e.description}`,
    ...(e.scope ? { 'x-required-scope': e.scope } : {}),
    operationId: e.operationId,
    security: [{ bearer: [] }],
  };
}

function eventStream(schemas: Schemas): Schema {
  // `types` and `after` as the feed declares them (GET /api/v1/events).
  const params = restFieldsOf(EventFeedArgs)
    .filter((f) => f.io === 'in' && (f.restName === 'types' || f.restName === 'after'))
    .map((f) => queryParameter(f, Event));
  params.push({ name: 'Last-Event-ID', in: 'header', required: false, description: 'The last cursor received (an EventSource sends it when it reconnects): takes the place of `after`', schema: { type: 'string' } });
  const event = register(Event, 'out', schemas);
  return {
    ...base(EVENT_STREAM),
    parameters: params,
    responses: {
      '200': {
        description: 'The stream, open until the client leaves: per event `id:` (cursor), `event:` (type) and `data:` (the event as JSON, as the feed shows it)',
        headers: KEYED,
        content: {
          'text/event-stream': {
            schema: { type: 'string', description: `Server-Sent Events; each message's data is an event: ${String(event.$ref)}` },
            example: 'id: cDEyMw\nevent: visit.updated\ndata: {"id":"evt_3c","type":"visit.updated","resource":"visit","record_uuid":"…","data":{"object":{},"previous":{}}}\n\n: heartbeat\n\n',
          },
        },
      },
      ...errorResponses(EVENT_STREAM.errors, schemas),
    },
  };
}

const JSON_RPC_ID = { type: ['string', 'integer'], description: 'The request id (absent on notifications)' };

function mcp(schemas: Schemas): Schema {
  schemas.JsonRpcMessage ??= {
    type: 'object',
    description: 'A JSON-RPC 2.0 request or notification of the Model Context Protocol',
    required: ['jsonrpc', 'method'],
    properties: { jsonrpc: { const: '2.0' }, id: JSON_RPC_ID, method: { type: 'string', examples: ['initialize', 'tools/list', 'tools/call'] }, params: { type: 'object' } },
  };
  schemas.JsonRpcResponse ??= {
    type: 'object',
    description: 'A JSON-RPC 2.0 response: `result` (a tool call: `content`, `structuredContent`, `isError`) or `error`',
    required: ['jsonrpc'],
    properties: {
      jsonrpc: { const: '2.0' },
      id: { type: ['string', 'integer', 'null'], description: "The request's id; null when the message could not be read" },
      result: { type: 'object' },
      error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'integer' }, message: { type: 'string' }, data: {} } },
    },
  };
  const rpc = (description: string) => ({ description, headers: KEYED, content: { 'application/json': { schema: { $ref: '#/components/schemas/JsonRpcResponse' } } } });
  return {
    ...base(MCP_ENDPOINT),
    parameters: [{ name: 'MCP-Protocol-Version', in: 'header', required: false, description: 'The protocol revision agreed at initialize (2025-06-18)', schema: { type: 'string' } }],
    requestBody: { required: true, description: 'Send Accept: application/json, text/event-stream', content: { 'application/json': { schema: { $ref: '#/components/schemas/JsonRpcMessage' } } } },
    responses: {
      '200': rpc('The JSON-RPC response'),
      '202': { description: 'Notifications or responses only: accepted, no body', headers: KEYED },
      '400': rpc('Not a JSON-RPC message of the protocol (a JSON-RPC error)'),
      '406': rpc('Accept does not take both application/json and text/event-stream (a JSON-RPC error)'),
      '415': rpc('The body is not application/json (a JSON-RPC error)'),
      ...errorResponses(MCP_ENDPOINT.errors, schemas),
    },
  };
}

const ENDPOINTS: [StreamEndpoint, (schemas: Schemas) => Schema][] = [
  [EVENT_STREAM, eventStream],
  [MCP_ENDPOINT, mcp],
];

/** The path items of the endpoints outside the route table, by path. */
export function streamPaths(schemas: Schemas): Record<string, Record<string, Schema>> {
  return Object.fromEntries(ENDPOINTS.map(([e, op]) => [e.path, { [e.method.toLowerCase()]: op(schemas) }]));
}

/** Their tags that the route table has not already. */
export function streamTags(known: { name: string }[]): { name: string; description?: string }[] {
  const names = new Set(known.map((t) => t.name));
  return [...new Set(ENDPOINTS.map(([e]) => e.tag))].filter((n) => !names.has(n)).map((name) => ({ name, ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}) }));
}
