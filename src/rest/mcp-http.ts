import type { Request, RequestHandler, Response } from 'express';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { mcpSdk } from './mcp-sdk';

// POST /mcp (docs/agents.md, "The HTTP transport"): the Streamable HTTP transport, stateless and
// answering JSON, written on the request and response express already has. The SDK's own
// StreamableHTTPServerTransport turns each request into a web Request and its answer into a web
// Response and back (through @hono/node-server), which cost a tools/call more than the REST
// pipeline it runs. The rules are the SDK's, in its order, with its messages and its schemas and
// predicates; test/http/mcp.spec.ts compares every answer with that transport's.

/** A refusal before any message reaches the server: a JSON-RPC error without an id. */
function refuse(res: Response, status: number, code: number, message: string): void {
  res.status(status).json({ jsonrpc: '2.0', error: { code, message }, id: null });
}

/**
 * One request's messages, handed to a server connected to it; the server's answers to the
 * request's requests are collected, and `answer` gets them (in the requests' order) once all are
 * in. Notifications and requests of the server's own have no stream to go to in a JSON answer:
 * dropped, as the SDK's transport drops them.
 */
class OneRequest implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly answers = new Map<RequestId, JSONRPCMessage | null>();

  constructor(
    requestIds: RequestId[],
    private readonly answer: (messages: JSONRPCMessage[]) => void,
  ) {
    for (const id of requestIds) this.answers.set(id, null);
  }

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.onclose?.();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!('id' in message) || !('result' in message || 'error' in message) || !this.answers.has(message.id!)) return;
    this.answers.set(message.id!, message);
    const all = [...this.answers.values()];
    if (all.every((m) => m !== null)) this.answer(all as JSONRPCMessage[]);
  }
}

/**
 * The handler of POST /mcp, after the body is parsed (express.json): checks the request as the
 * SDK's transport does, then connects the request's server (`serverOf`) to its messages and answers JSON:
 * 202 and no body when they hold no request, else the answer, or the list of them when several.
 */
export function mcpPost(serverOf: (req: Request) => Server): RequestHandler {
  return async (req, res, next) => {
    try {
      const { JSONRPCMessageSchema, isInitializeRequest, isJSONRPCRequest, SUPPORTED_PROTOCOL_VERSIONS, isJsonContentType, MAX_BATCH_SIZE } = mcpSdk();
      const accept = req.headers.accept;
      if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) {
        return refuse(res, 406, -32000, 'Not Acceptable: Client must accept both application/json and text/event-stream');
      }
      if (!isJsonContentType(req.headers['content-type'])) return refuse(res, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
      const body: unknown = req.body;
      if (body === undefined) return refuse(res, 400, -32700, 'Parse error: Invalid JSON');
      if (Array.isArray(body) && body.length > MAX_BATCH_SIZE) return refuse(res, 400, -32600, `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages`);
      let messages: JSONRPCMessage[];
      try {
        messages = (Array.isArray(body) ? body : [body]).map((m) => JSONRPCMessageSchema.parse(m));
      } catch {
        return refuse(res, 400, -32700, 'Parse error: Invalid JSON-RPC message');
      }
      if (messages.some(isInitializeRequest)) {
        if (messages.length > 1) return refuse(res, 400, -32600, 'Invalid Request: Only one initialization request is allowed');
      } else {
        // The version agreed at initialize, sent on every later request (absent: the default one).
        const version = req.headers['mcp-protocol-version'];
        if (typeof version === 'string' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
          return refuse(res, 400, -32000, `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`);
        }
      }
      const requests = messages.filter(isJSONRPCRequest);
      const transport = new OneRequest(
        requests.map((m) => m.id),
        (answers) => void res.status(200).json(answers.length === 1 ? answers[0] : answers),
      );
      const server = serverOf(req);
      await server.connect(transport);
      // A client gone before its answer: the server's handlers are told (their signal aborts).
      res.once('close', () => {
        if (!res.writableFinished) void server.close();
      });
      for (const m of messages) transport.onmessage?.(m);
      if (!requests.length) res.status(202).end();
    } catch (err) {
      next(err);
    }
  };
}
