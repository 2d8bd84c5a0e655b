import path from 'node:path';
import express, { Router } from 'express';
import { restFieldsOf } from '../schema/fields';
import { errorResponses, HEADERS, operationId, routeErrorCodes, successHeaders } from './openapi-operations';
import { documentFilePaths } from './openapi-files';
import { tagOf, tagsOf } from './openapi-tags';
import { operationDescription } from './openapi-descriptions';
import { scopeList } from '../auth/require-scope';
import { queryParameter, register, Schema, Schemas, withEmbeds } from './openapi-schemas';
import { streamPaths, streamTags } from './openapi-streams';
import { Pagination } from '../schema/pagination';
import { carriesEtag, takesIfMatch } from './preconditions';
import { EVENT_TYPES } from '../modules/event/event.catalogue';
import { Event } from '../modules/event/event.types';
import type { RouteDef } from './route';

// The OpenAPI 3.1 document of the REST surface, generated from the route table and the same
// field declarations that validate and shape requests. A test holds every response the suite
// receives against it (test/helpers/openapi-check.ts).

// Path ids that are not UUIDs.
const PATH_IDS: Record<string, Schema> = {
  event_id: { type: 'string', pattern: '^evt_[0-9a-z]+$' },
  // An external id (docs/custom-fields.md): the other system's name and its id of the record.
  source: { type: 'string', pattern: '^[a-z][a-z0-9_]{0,31}$', description: 'The other system' },
  id: { type: 'string', minLength: 1, maxLength: 255, description: "The record's id in the other system" },
};

function operation(r: RouteDef, table: RouteDef[], schemas: Schemas): Schema {
  const params: Schema[] = [...r.path.matchAll(/:(\w+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: PATH_IDS[m[1]] ?? { type: 'string', format: 'uuid' } }));
  if (r.query) {
    const fields = restFieldsOf(r.query).filter((x) => x.io === 'in');
    for (const f of fields) params.push(queryParameter(f, r.output, fields.find((x) => x.prefixed)));
  }
  const conditional = !!takesIfMatch(r, table);
  if (conditional) params.push({ name: 'If-Match', in: 'header', required: false, description: 'Strong ETag(s) of the record as last read, or *; a stale one is 412 and changes nothing', schema: { type: 'string' } });
  const notModified = r.method === 'GET' && carriesEtag(r, table);
  if (notModified) params.push({ name: 'If-None-Match', in: 'header', required: false, description: 'The ETag last read: 304 without a body while it is current', schema: { type: 'string' } });
  if (r.creates) params.push({ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 } });
  // With embedIn, the summaries go on the records of a list inside the output (an upload's photos).
  const within = r.embedIn ? restFieldsOf(r.output).find((f) => f.prop === r.embedIn) : undefined;
  let item = withEmbeds(within ? within.type!() : r.output, r.embed, schemas);
  if (within) item = { type: 'object', additionalProperties: false, required: [within.restName], properties: { [within.restName]: { type: 'array', items: item } } };
  const data: Schema = r.plural
    ? { type: 'object', additionalProperties: false, required: [r.plural, 'pagination'], properties: { [r.plural]: { type: 'array', items: item }, pagination: register(Pagination, 'out', schemas) } }
    : item;
  const codes = routeErrorCodes(r, conditional);
  const op: Schema = {
    tags: [tagOf(r)],
    summary: r.summary,
    // The route's scope, as the router checks it (docs/people-and-access.md).
    description: `Needs ${scopeList(r.scope).join(' and ')}. ${operationDescription(r, table, { etag: carriesEtag(r, table), conditional, codes })}`,
    'x-required-scope': scopeList(r.scope).join(' '),
    operationId: operationId(r),
    security: [{ bearer: [] }],
    parameters: params,
    responses: {
      [String(r.status ?? 200)]: {
        description: r.status === 202 ? 'Accepted: the work goes on in the background' : 'Success',
        headers: successHeaders(r, carriesEtag(r, table)),
        content: { 'application/json': { schema: { type: 'object', additionalProperties: false, required: ['success', 'data'], properties: { success: { const: true }, data } } } },
      },
      ...(r.upsert
        ? { '201': { description: 'Created: no record had this external id', headers: successHeaders(r, carriesEtag(r, table)), content: { 'application/json': { schema: { type: 'object', additionalProperties: false, required: ['success', 'data'], properties: { success: { const: true }, data } } } } } }
        : {}),
      ...(notModified ? { '304': { description: 'Not modified: If-None-Match holds the current ETag', headers: successHeaders(r, true) } } : {}),
      ...errorResponses(codes, schemas),
    },
  };
  if (r.body) op.requestBody = { required: true, content: { 'application/json': { schema: register(r.body, 'in', schemas) } } };
  if (r.multipart) {
    op.requestBody = {
      required: true,
      content: {
        'multipart/form-data': {
          // A string is a text field's description; an object is the field's schema.
          schema: { type: 'object', properties: Object.fromEntries(Object.entries(r.multipart.fields).map(([k, v]) => [k, typeof v === 'string' ? { type: 'string', description: v } : v])) },
        },
      },
    };
  }
  if (r.file) {
    // A file answer (a PDF): its bytes with a strong ETag, and 304 for If-None-Match.
    op.responses = {
      '200': { description: 'The file', headers: successHeaders(r, true), content: { [r.file]: { schema: { type: 'string', format: 'binary' } } } },
      '304': { description: 'Not modified: If-None-Match holds the current ETag', headers: successHeaders(r, true) },
      ...errorResponses(codes, schemas),
    };
    delete schemas[r.output.name];
  }
  if (r.stream) {
    const jsonAnswer = { type: 'object', additionalProperties: false, required: ['success', 'data'], properties: { success: { const: true }, data } };
    // A streamed attachment (an export): one content type per format.
    const headers = { ...successHeaders(r, false), 'Content-Disposition': { description: 'attachment; filename="<plural>-<date>.<format>"', schema: { type: 'string' } } };
    op.responses = {
      '200': { description: 'The file, streamed', headers, content: Object.fromEntries(Object.values(r.stream).map((t) => [t.split(';')[0], { schema: t === 'application/json' ? jsonAnswer : { type: 'string' } }])) },
      ...errorResponses(codes, schemas),
    };
    // An export's records' schema is the list's (export rows come first in the table: the list registers it again).
    if (!Object.values(r.stream).includes('application/json')) delete schemas[r.output.name];
  }
  return op;
}

const documents = new WeakMap<RouteDef[], Schema>();

/**
 * The OpenAPI document of a route table, built once per table and process (the server, its MCP
 * tools and the tests' response check share it): the same object each time, to read, never to change.
 */
export function openApiDocument(routes: RouteDef[]): Schema {
  let doc = documents.get(routes);
  if (!doc) documents.set(routes, (doc = buildDocument(routes)));
  return doc;
}

function buildDocument(routes: RouteDef[]): Schema {
  const schemas: Schemas = {};
  const paths: Record<string, Record<string, Schema>> = {};
  const ids = new Set<string>();
  for (const r of routes) {
    const op = operation(r, routes, schemas);
    if (ids.has(op.operationId as string)) throw new Error(`two routes would have the operationId ${String(op.operationId)}`);
    ids.add(op.operationId as string);
    (paths['/api/v1' + r.path.replace(/:(\w+)/g, '{$1}')] ??= {})[r.method.toLowerCase()] = op;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Field-Service CRM API',
      version: '1.0.0',
      description: 'REST surface of field-service-crm. Every response is an envelope {success, data}; errors carry {code, message, details}. See the README for the rules.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/' }],
    tags: [...tagsOf(routes), ...streamTags(tagsOf(routes))],
    components: { securitySchemes: SECURITY_SCHEMES, headers: HEADERS, schemas },
    paths: { ...paths, ...documentFilePaths(schemas), ...streamPaths(schemas) },
    webhooks: webhookOperations(register(Event, 'out', schemas)),
  };
}

const SECURITY_SCHEMES = {
  bearer: { type: 'http', scheme: 'bearer', description: 'An API key: fsk_ + 40 base62 characters' },
  // What a webhook endpoint checks before it trusts a request (docs/webhooks.md).
  webhookSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'webhook-signature',
    description:
      "Standard Webhooks: v1,<base64 HMAC-SHA256 of id.timestamp.body> with the endpoint's secret (during a secret rotation the old secret's follows, space-separated). Verify it, and that webhook-timestamp is recent, before trusting the body.",
  },
};

/** OpenAPI 3.1 `webhooks`: what an endpoint receives, one entry per event type (docs/webhooks.md). */
function webhookOperations(event: Schema): Record<string, Schema> {
  const headers = [
    ['webhook-id', 'The event id, the same on every attempt'],
    ['webhook-timestamp', 'The attempt time, Unix seconds'],
  ].map(([name, description]) => ({ name, in: 'header', required: true, description, schema: { type: 'string' } }));
  const types = [...EVENT_TYPES, { type: 'webhook.test', description: 'Sent by POST /api/v1/webhook_endpoints/{uuid}/test (data: {endpoint_uuid})' }];
  return Object.fromEntries(
    types.map((t) => [
      t.type,
      {
        post: {
          summary: t.description,
          description: `${t.type === 'webhook.test' ? 'What the endpoint under test receives' : `What an endpoint whose event_types select ${t.type} receives`}: the event as the feed shows it, signed with the endpoint's secret (webhook-signature over webhook-id, webhook-timestamp and the body). Answer 2xx within 15 s; anything else is retried.`,
          operationId: `webhook${t.type.replace(/(^|[._])(\w)/g, (_m, _s, c: string) => c.toUpperCase())}`,
          security: [{ webhookSignature: [] }],
          parameters: headers,
          requestBody: { required: true, content: { 'application/json': { schema: event } } },
          responses: { '2XX': { description: 'Received: any 2xx within 15 s is success; anything else is retried' } },
        },
      },
    ]),
  );
}

/** /docs: Swagger UI from the swagger-ui-dist npm package (no CDN). */
export function docsRouter(): Router {
  const router = Router();
  const dist = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  router.get('/', (req, res, next) => {
    if (!req.originalUrl.split('?')[0].endsWith('/')) return res.redirect(301, '/docs/');
    res.type('html').send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Field-Service CRM API</title>
<link rel="stylesheet" href="swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="swagger-ui-bundle.js"></script><script src="init.js"></script></body></html>`);
    void next;
  });
  router.get('/init.js', (_req, res) => {
    res.type('application/javascript').send(`window.ui = SwaggerUIBundle({ url: '/api/v1/openapi.json', dom_id: '#swagger-ui', persistAuthorization: true });`);
  });
  router.use(express.static(dist, { index: false }));
  return router;
}
