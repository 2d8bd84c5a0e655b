import { FEED_SCOPE } from '../modules/event/event.service';
import type { ErrorCode } from '../errors/app-error';
import type { Scope } from '../domain/scopes';

// The two API endpoints outside the route table (they answer streams or JSON-RPC, not the
// {success, data} envelope): declared once here, mounted by src/app.ts from these declarations and
// described in the OpenAPI document from them (src/rest/openapi-streams.ts).

export interface StreamEndpoint {
  method: 'GET' | 'POST';
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  /** What the key needs before anything else is read; null: any working key (each tool checks its own). */
  scope: Scope | null;
  /** The envelope errors it may answer before its stream or protocol begins. */
  errors: readonly ErrorCode[];
}

/** GET /api/v1/events/stream (docs/live-updates.md): the feed as Server-Sent Events. */
export const EVENT_STREAM: StreamEndpoint = {
  method: 'GET',
  path: '/api/v1/events/stream',
  operationId: 'streamEvents',
  tag: 'Events',
  summary: 'The change feed as Server-Sent Events, live',
  description:
    'The feed of GET /api/v1/events as it commits (docs/live-updates.md): one message per event with `id:` its cursor, `event:` its type and ' +
    '`data:` the event exactly as the feed shows it; a comment line (`: heartbeat`) every 15 s while idle. With `after` or `Last-Event-ID` ' +
    '(what a reconnecting EventSource sends), every later event comes first, so a client that reconnects misses nothing. The same events as ' +
    'the feed: the company\'s, of the resources the key may read (no technician holds events:read). A client more than 10,000 events behind ' +
    'sees the stream end and resumes from its last cursor. Errors before the stream starts are JSON answers.',
  scope: FEED_SCOPE,
  errors: ['VALIDATION_ERROR', 'UNAUTHORIZED', 'IP_RESTRICTED', 'USAGE_LIMIT_EXCEEDED', 'PERMISSION_DENIED', 'CURSOR_EXPIRED', 'SERVICE_UNAVAILABLE', 'INTERNAL'],
};

/** POST /mcp (docs/agents.md): the Model Context Protocol's Streamable HTTP transport, stateless. */
export const MCP_ENDPOINT: StreamEndpoint = {
  method: 'POST',
  path: '/mcp',
  operationId: 'mcp',
  tag: 'Agents',
  summary: 'Model Context Protocol (Streamable HTTP): the REST operations as tools',
  description:
    'A JSON-RPC 2.0 message of the Model Context Protocol (revision 2025-06-18), answered as JSON (docs/agents.md): `initialize`, ' +
    '`tools/list` (one tool per REST operation with a JSON answer, those the key\'s scopes allow) and `tools/call` (the operation run ' +
    'in-process; its result the REST answer\'s data, an error a tool error carrying the REST code). Stateless: no session id, every ' +
    'request stands alone. Notifications alone are answered 202 without a body. GET and DELETE /mcp answer 405. Any working key may ' +
    'connect; each tool needs its operation\'s x-required-scope.',
  scope: null,
  errors: ['UNAUTHORIZED', 'IP_RESTRICTED', 'USAGE_LIMIT_EXCEEDED', 'SERVICE_UNAVAILABLE', 'INTERNAL'],
};
