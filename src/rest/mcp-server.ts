import express, { type RequestHandler } from 'express';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { RequestContext } from '../data/context';
import { AppError } from '../errors/app-error';
import { asAppError } from '../errors/db-error';
import { toHttpError } from '../errors/to-http-error';
import { logger } from '../logger';
import { openApiDocument } from './openapi';
import { mcpPost } from './mcp-http';
import { callTool, toolAllowed, toolTable } from './mcp-tools';
import type { RouteDef } from './route';
import { JSON_LIMIT } from './router';
import { mcpSdk } from './mcp-sdk';

// The Model Context Protocol server (docs/agents.md): the REST operations as tools, over
// Streamable HTTP at /mcp and over stdio (`npm run mcp`, src/rest/mcp-stdio.ts).

export type Tools = ReturnType<typeof toolTable>;

/**
 * The JSON Schema validator every server of the process shares. A server makes one of its own
 * unless given one: an Ajv instance with its formats, which cost more than the rest of a tool
 * call's protocol work, for every request (the servers of /mcp are one per request).
 */
let validator: import('@modelcontextprotocol/sdk/validation/ajv-provider.js').AjvJsonSchemaValidator | undefined;

/** The tools of a route table (from its OpenAPI document), made once per process. */
export function mcpTools(table: RouteDef[]): Tools {
  return toolTable(table, openApiDocument(table));
}

/** A tool error: the REST error's code, message and details, as JSON text. */
function toolError(err: unknown): CallToolResult {
  let app = asAppError(err);
  if (!app) {
    logger.error({ err }, 'MCP tool call failed');
    app = new AppError('INTERNAL', 'Internal server error');
  }
  const { body } = toHttpError(app);
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body.error) }], structuredContent: { error: body.error } };
}

/** An MCP server whose tool calls run with the context `contextOf` gives (one per call). */
export function mcpServer(tools: Tools, contextOf: () => Promise<RequestContext>): Server {
  const { Server, CallToolRequestSchema, ListToolsRequestSchema, AjvJsonSchemaValidator } = mcpSdk();
  validator ??= new AjvJsonSchemaValidator();
  const server = new Server({ name: 'field-service-crm', version: '0.1.0' }, { capabilities: { tools: { listChanged: false } }, jsonSchemaValidator: validator });
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const ctx = await contextOf();
    return {
      tools: [...tools.values()].filter(({ tool }) => toolAllowed(ctx, tool)).map(({ tool }) => ({ name: tool.name, title: tool.title, description: tool.description, inputSchema: tool.inputSchema as never, annotations: tool.annotations })),
    };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    try {
      const data = await callTool(tools, await contextOf(), request.params.name, request.params.arguments ?? {});
      const structured = data && typeof data === 'object' && !Array.isArray(data) ? { structuredContent: data as Record<string, unknown> } : {};
      return { content: [{ type: 'text', text: JSON.stringify(data) }], ...structured };
    } catch (err) {
      return toolError(err);
    }
  });
  return server;
}

/**
 * POST /mcp, after the API key's authentication (the request's context): the Streamable HTTP
 * transport (src/rest/mcp-http.ts), stateless (every request stands alone, so any process of
 * several can answer it), answering JSON; a server per request, its tool calls in the request's
 * context. GET and DELETE (a session's stream, its end) are 405: there are no sessions.
 * `toolsOf` makes the tools (from the OpenAPI document) on the first request.
 */
export function mcpHttp(toolsOf: () => Tools): RequestHandler[] {
  // The tools are made on the first request, once.
  let tools: Tools | undefined;
  return [express.json({ limit: JSON_LIMIT }), mcpPost((req) => mcpServer((tools ??= toolsOf()), async () => req.ctx!))];
}
