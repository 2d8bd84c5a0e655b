import path from 'node:path';
import express, { Router } from 'express';
import { FieldMeta, restFieldsOf } from '../schema/fields';
import { ERROR_CODES } from '../errors/app-error';
import { errorResponses, HEADERS, operationId, successHeaders, tagOf } from './openapi-operations';
import { register, scalarSchema, Schema, Schemas, withEmbeds } from './openapi-schemas';
import { Pagination } from '../schema/pagination';
import { carriesEtag, takesIfMatch } from './preconditions';
import { EVENT_TYPES } from '../modules/event/event.catalogue';
import { Event } from '../modules/event/event.types';
import type { RouteDef } from './route';

// The OpenAPI 3.1 document of the REST surface, generated from the route table and the same
// field declarations that validate and shape requests. A test holds every response the suite
// receives against it (test/helpers/openapi-check.ts).

const errorBody: Schema = {
  type: 'object',
  additionalProperties: false,
  required: ['success', 'data', 'error'],
  properties: {
    success: { const: false },
    data: { type: 'null' },
    error: {
      type: 'object',
      additionalProperties: false,
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', enum: [...ERROR_CODES] },
        message: { type: 'string' },
        details: {
          type: 'array',
          items: { type: 'object', additionalProperties: false, required: ['field', 'message'], properties: { field: { type: 'string' }, message: { type: 'string' } } },
        },
      },
    },
  },
};

/** A query parameter: enum lists are arrays sent comma-separated (style form, explode false). */
function queryParameter(f: FieldMeta, output: Function): Schema {
  // A field whose values depend on the route's records (`sort`: that resource's sortable fields).
  if (f.valuesFor) return { name: f.restName, in: 'query', required: false, description: f.description, schema: { type: 'string', enum: f.valuesFor(output) } };
  if (f.kind === 'enum' && f.list) {
    const values = Object.values(f.enum!);
    return {
      name: f.restName,
      in: 'query',
      required: false,
      style: 'form',
      explode: false,
      description: `one value or a comma-separated list of: ${values.join(', ')} (case-insensitive)`,
      schema: { type: 'array', items: { type: 'string', enum: values } },
    };
  }
  const schema = scalarSchema(f);
  const description = f.restName === 'limit' ? 'page size, default 50; above 100 it is 100' : f.restName === 'page' ? 'page number, default 1' : f.description;
  return { name: f.restName, in: 'query', required: false, schema, ...(description ? { description } : {}) };
}

// Path ids that are not UUIDs.
const PATH_IDS: Record<string, Schema> = { event_id: { type: 'string', pattern: '^evt_[0-9a-z]+$' } };

function operation(r: RouteDef, table: RouteDef[], schemas: Schemas): Schema {
  const params: Schema[] = [...r.path.matchAll(/:(\w+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: PATH_IDS[m[1]] ?? { type: 'string', format: 'uuid' } }));
  if (r.query) for (const f of restFieldsOf(r.query).filter((x) => x.io === 'in')) params.push(queryParameter(f, r.output));
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
  const op: Schema = {
    tags: [tagOf(r)],
    summary: r.summary,
    operationId: operationId(r),
    security: [{ bearer: [] }],
    parameters: params,
    responses: {
      '200': {
        description: 'Success',
        headers: successHeaders(r, carriesEtag(r, table)),
        content: { 'application/json': { schema: { type: 'object', additionalProperties: false, required: ['success', 'data'], properties: { success: { const: true }, data } } } },
      },
      ...(notModified ? { '304': { description: 'Not modified: If-None-Match holds the current ETag', headers: successHeaders(r, true) } } : {}),
      ...errorResponses(r, conditional),
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
      ...errorResponses(r, conditional),
    };
    delete schemas[r.output.name];
  }
  return op;
}

export function openApiDocument(routes: RouteDef[]): Schema {
  const schemas: Schemas = { Error: errorBody };
  const paths: Record<string, Record<string, Schema>> = {};
  const ids = new Set<string>();
  for (const r of routes) {
    const op = operation(r, routes, schemas);
    if (ids.has(op.operationId as string)) throw new Error(`two routes would have the operationId ${String(op.operationId)}`);
    ids.add(op.operationId as string);
    (paths['/api/v1' + r.path.replace(/:(\w+)/g, '{$1}')] ??= {})[r.method.toLowerCase()] = op;
  }
  const tags = [...new Set(routes.map(tagOf))].map((name) => ({ name }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Field-Service CRM API',
      version: '1.0.0',
      description: 'REST surface of field-service-crm. Every response is an envelope {success, data}; errors carry {code, message, details}. See the README for the rules.',
    },
    servers: [{ url: '/' }],
    tags,
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'fsk_ + 40 base62 characters' } }, headers: HEADERS, schemas },
    paths,
    webhooks: webhookOperations(register(Event, 'out', schemas)),
  };
}

/** OpenAPI 3.1 `webhooks`: what an endpoint receives, one entry per event type (docs/webhooks.md). */
function webhookOperations(event: Schema): Record<string, Schema> {
  const headers = [
    ['webhook-id', 'The event id, the same on every attempt'],
    ['webhook-timestamp', 'The attempt time, Unix seconds'],
    ['webhook-signature', 'v1,<base64 HMAC-SHA256 of id.timestamp.body>; during a secret rotation the old secret\'s follows, space-separated'],
  ].map(([name, description]) => ({ name, in: 'header', required: true, description, schema: { type: 'string' } }));
  const types = [...EVENT_TYPES, { type: 'webhook.test', description: 'Sent by POST /api/v1/webhook_endpoints/{uuid}/test (data: {endpoint_uuid})' }];
  return Object.fromEntries(
    types.map((t) => [
      t.type,
      {
        post: {
          summary: t.description,
          operationId: `webhook${t.type.replace(/(^|[._])(\w)/g, (_m, _s, c: string) => c.toUpperCase())}`,
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
