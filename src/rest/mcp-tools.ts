import { requireAddon } from '../auth/addons';
import { missingScope, requireScope } from '../auth/require-scope';
import type { RequestContext } from '../data/context';
import { beginIdempotent } from '../data/idempotency';
import { AppError } from '../errors/app-error';
import type { Schema } from './openapi-schemas';
import { operationId } from './openapi-operations';
import { routeRunner, type RouteInput, type RouteOutput } from './pipeline';
import type { RouteDef } from './route';

// The MCP tools (docs/agents.md): one per REST operation of the route table, named after its
// operationId in snake_case, its input schema the operation's path and query parameters and its
// body as the OpenAPI document declares them, called through the route's own pipeline in-process.

export interface Tool {
  name: string;
  title: string;
  description: string;
  inputSchema: Schema;
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
  route: RouteDef;
}

/** `listCustomers` → `list_customers`. */
export const toolName = (operation: string) => operation.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Whether a route is a tool: every operation with a JSON answer and a JSON body (not file uploads or PDF files). */
export const isTool = (r: RouteDef) => !r.multipart && !r.file && !r.stream;

/** The schema with every `#/components/schemas/…` reference written in place (a tool's schema stands alone). */
function inline(schema: unknown, components: Record<string, Schema>, seen: string[] = []): unknown {
  if (Array.isArray(schema)) return schema.map((s) => inline(s, components, seen));
  if (!schema || typeof schema !== 'object') return schema;
  const ref = (schema as { $ref?: string }).$ref;
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
    const name = ref.slice('#/components/schemas/'.length);
    if (seen.includes(name)) return { type: 'object' };
    return inline(components[name], components, [...seen, name]);
  }
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, inline(v, components, seen)]));
}

/** The tools of a route table, from its OpenAPI document (src/rest/openapi.ts). */
export function buildTools(table: RouteDef[], doc: Schema): Tool[] {
  const components = ((doc.components as Schema).schemas ?? {}) as Record<string, Schema>;
  const operations = new Map<string, Schema>();
  for (const item of Object.values(doc.paths as Record<string, Record<string, Schema>>)) for (const op of Object.values(item)) operations.set(op.operationId as string, op);
  return table.filter(isTool).map((route) => {
    const op = operations.get(operationId(route))!;
    const properties: Record<string, unknown> = {};
    const required: string[] = [];
    for (const p of (op.parameters ?? []) as Schema[]) {
      if (p.in === 'header') continue;
      properties[p.name as string] = inline({ ...(p.schema as Schema), ...(p.description ? { description: p.description } : {}) }, components);
      if (p.required) required.push(p.name as string);
    }
    const body = (op.requestBody as Schema | undefined)?.content as Record<string, { schema: Schema }> | undefined;
    if (body?.['application/json']) {
      properties.body = inline(body['application/json'].schema, components);
      required.push('body');
    }
    if (route.creates && route.body) {
      properties.idempotency_key = { type: 'string', maxLength: 255, description: 'Makes the create safe to retry: a second call with the same key and body answers the first result and creates nothing' };
    }
    const read = route.method === 'GET';
    return {
      name: toolName(operationId(route)),
      title: route.summary,
      description: [route.summary, op.description].filter(Boolean).join('\n\n'),
      inputSchema: { type: 'object', additionalProperties: false, properties, ...(required.length ? { required } : {}) },
      annotations: { title: route.summary, readOnlyHint: read, destructiveHint: route.method === 'DELETE', idempotentHint: read || route.method === 'PUT' || route.method === 'DELETE', openWorldHint: false },
      route,
    };
  });
}

/** The REST path of a call (parameters filled in), the scope of its idempotency key as over REST. */
const concretePath = (route: RouteDef, params: Record<string, string>) => `/api/v1${route.path.replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(params[name] ?? ''))}`;

/**
 * Calls a tool: its route's pipeline with the arguments as parameters, query and body; a create
 * with `idempotency_key` runs as a REST create with Idempotency-Key does (the same keys: a retry
 * over either surface answers the first result). Resolves to the REST answer's `data`.
 */
export async function callTool(tools: Map<string, { tool: Tool; run: (ctx: RequestContext, input: RouteInput) => Promise<RouteOutput> }>, ctx: RequestContext, name: string, args: Record<string, unknown>): Promise<unknown> {
  const found = tools.get(name);
  if (!found) throw new AppError('NOT_FOUND', `Unknown tool ${name}`);
  const { tool, run } = found;
  // The route's gates, as the router checks them: its scope, then its add-on.
  requireScope(ctx, tool.route.scope);
  if (tool.route.addon) requireAddon(ctx, tool.route.addon);
  const { body, idempotency_key: key, ...rest } = args;
  const params: Record<string, string> = {};
  const query: Record<string, unknown> = {};
  for (const name of Object.keys(rest)) {
    if (!(name in (tool.inputSchema.properties as Schema))) throw AppError.field(name, 'is not an argument of this tool');
    const value = Array.isArray(rest[name]) ? (rest[name] as unknown[]).join(',') : String(rest[name]);
    if (tool.route.path.includes(`:${name}`)) params[name] = value;
    else query[name] = value;
  }
  const input: RouteInput = { params, query, body: body ?? (tool.route.body ? {} : undefined) };
  if (typeof key !== 'string' || !tool.route.creates) return dataOf(await run(ctx, input));
  const start = await beginIdempotent(ctx, `${tool.route.method} ${concretePath(tool.route, params)}`, key, input.body);
  if (start.kind === 'replay') return (start.response as { data: unknown }).data;
  try {
    const data = dataOf(await run(start.ctx, input));
    await start.finish({ success: true, data });
    return data;
  } catch (err) {
    await start.abandon().catch(() => undefined);
    throw err;
  }
}

function dataOf(out: RouteOutput): unknown {
  if ('file' in out || 'stream' in out) throw new AppError('INTERNAL', 'a file route is not a tool');
  return out.data;
}

/** Whether the caller's role and key scopes allow a tool (the others are not listed). */
export const toolAllowed = (ctx: Pick<RequestContext, 'access'>, tool: Tool) => missingScope(ctx, tool.route.scope) === null;

/** The tools with their pipelines, by name. */
export function toolTable(table: RouteDef[], doc: Schema) {
  return new Map(buildTools(table, doc).map((tool) => [tool.name, { tool, run: routeRunner(tool.route, table) }]));
}
