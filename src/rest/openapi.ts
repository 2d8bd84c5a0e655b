import path from 'node:path';
import express, { Router } from 'express';
import { FieldMeta, restFieldsOf } from '../core/fields';
import { fromCents, MAX_CENTS } from '../core/money';
import { Pagination } from '../core/pagination';
import { STRING_MAX } from '../core/validation';
import { EVENT_TYPES } from '../modules/event/event.catalogue';
import { Event } from '../modules/event/event.types';
import type { RouteDef } from './route';

// The OpenAPI 3.1 document of the REST surface, generated from the route table and the same
// field declarations that validate and shape requests.

type Schema = Record<string, unknown>;

function scalarSchema(f: FieldMeta): Schema {
  switch (f.kind) {
    case 'string':
    case 'text':
      return { type: 'string', maxLength: STRING_MAX[f.kind] };
    case 'uuid':
      return { type: 'string', format: 'uuid' };
    case 'int':
      return { type: 'integer' };
    case 'number':
      return { type: 'number' };
    case 'money':
      return { type: 'number', minimum: 0, maximum: fromCents(MAX_CENTS), multipleOf: 0.01 };
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'datetime':
      return { type: 'string', format: 'date-time' };
    case 'time':
      return { type: 'string', pattern: '^([01]\\d|2[0-3]):[0-5]\\d$' };
    case 'json':
      return f.jsonArray ? { type: ['object', 'array'] } : { type: 'object' };
    case 'enum':
      return { type: 'string', enum: Object.values(f.enum!) };
    case 'phone':
      return { type: 'string', pattern: '^\\d{3}-\\d{3}-\\d{4}$' };
    case 'email':
      return { type: 'string', format: 'email' };
    case 'object':
      return { $ref: `#/components/schemas/${f.type!().name}` };
  }
}

function fieldSchema(f: FieldMeta): Schema {
  let s = scalarSchema(f);
  if (f.list) s = { type: 'array', items: s };
  if (f.nullable) s = s.$ref ? { oneOf: [s, { type: 'null' }] } : { ...s, type: [s.type, 'null'].flat() };
  if (f.description) s = { ...s, description: f.description };
  if (f.default !== undefined) s = { ...s, default: f.default };
  return s;
}

function objectSchema(cls: Function, io: 'in' | 'out', schemas: Record<string, Schema>): Schema {
  const fields = restFieldsOf(cls).filter((f) => f.io === io);
  for (const f of fields) if (f.kind === 'object') register(f.type!(), io, schemas);
  const required = fields.filter((f) => (io === 'in' ? f.required : true)).map((f) => f.restName);
  return {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(fields.map((f) => [f.restName, fieldSchema(f)])),
    ...(required.length ? { required } : {}),
  };
}

function register(cls: Function, io: 'in' | 'out', schemas: Record<string, Schema>): Schema {
  if (!schemas[cls.name]) {
    schemas[cls.name] = {};
    schemas[cls.name] = objectSchema(cls, io, schemas);
  }
  return { $ref: `#/components/schemas/${cls.name}` };
}

const errorBody: Schema = {
  type: 'object',
  required: ['success', 'data', 'error'],
  properties: {
    success: { const: false },
    data: { type: 'null' },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', enum: ['VALIDATION_ERROR', 'UNAUTHORIZED', 'ADDON_REQUIRED', 'IP_RESTRICTED', 'USAGE_LIMIT_EXCEEDED', 'NOT_FOUND', 'CURSOR_EXPIRED', 'INTERNAL'] },
        message: { type: 'string' },
        details: {
          type: 'array',
          items: { type: 'object', required: ['field', 'message'], properties: { field: { type: 'string' }, message: { type: 'string' } } },
        },
      },
    },
  },
};

const errorResponses = {
  '400': { description: 'Validation error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
  '401': { description: 'Missing, malformed, unknown or revoked API key', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
  '403': { description: 'Add-on required, IP restricted, or usage limit exceeded', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
  '404': { description: 'Record or route not found', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
  '500': { description: 'Server error (details are logged, never shown)', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
};

// Path ids that are not UUIDs.
const PATH_IDS: Record<string, Schema> = { event_id: { type: 'string', pattern: '^evt_[0-9a-z]+$' } };

export function openApiDocument(routes: RouteDef[]): Schema {
  const schemas: Record<string, Schema> = { Error: errorBody };
  const paths: Record<string, Record<string, Schema>> = {};
  for (const r of routes) {
    const p = '/api/v1' + r.path.replace(/:(\w+)/g, '{$1}');
    const params: Schema[] = [...r.path.matchAll(/:(\w+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: PATH_IDS[m[1]] ?? { type: 'string', format: 'uuid' } }));
    if (r.query) {
      for (const f of restFieldsOf(r.query).filter((x) => x.io === 'in')) {
        const schema = f.kind === 'enum' && f.list ? { type: 'string', description: `one value or a comma-separated list of: ${Object.values(f.enum!).join(', ')} (case-insensitive)` } : scalarSchema(f);
        params.push({ name: f.restName, in: 'query', required: false, schema });
      }
    }
    // With embedIn, the summaries go on the records of a list inside the output (an upload's photos).
    const within = r.embedIn ? restFieldsOf(r.output).find((f) => f.prop === r.embedIn) : undefined;
    let item = register(within ? within.type!() : r.output, 'out', schemas);
    if (r.embed?.length) {
      item = {
        allOf: [
          item,
          {
            type: 'object',
            properties: Object.fromEntries(
              r.embed.map((e) => {
                const fields = restFieldsOf(e.entity).filter((f) => e.fields.includes(f.restName));
                return [e.key, { type: ['object', 'null'], properties: Object.fromEntries(fields.map((f) => [f.restName, fieldSchema(f)])) }];
              }),
            ),
          },
        ],
      };
    }
    if (within) item = { type: 'object', required: [within.restName], properties: { [within.restName]: { type: 'array', items: item } } };
    const data: Schema = r.plural
      ? { type: 'object', required: [r.plural, 'pagination'], properties: { [r.plural]: { type: 'array', items: item }, pagination: register(Pagination, 'out', schemas) } }
      : item;
    const op: Schema = {
      summary: r.summary,
      operationId: `${r.method.toLowerCase()}${r.path.replace(/[:/](\w)/g, (_m, c: string) => c.toUpperCase()).replace(/[^A-Za-z]/g, '')}`,
      security: [{ bearer: [] }],
      parameters: params,
      responses: {
        '200': {
          description: 'Success',
          content: { 'application/json': { schema: { type: 'object', required: ['success', 'data'], properties: { success: { const: true }, data } } } },
        },
        ...errorResponses,
        ...Object.fromEntries(Object.entries(r.errors ?? {}).map(([status, description]) => [status, { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }])),
      },
    };
    if (r.creates) (op.parameters as Schema[]).push({ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 } });
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
    (paths[p] ??= {})[r.method.toLowerCase()] = op;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Field-Service CRM API',
      version: '1.0.0',
      description: 'REST surface of field-service-crm. Every response is an envelope {success, data}; errors carry {code, message, details}. See the README for the rules.',
    },
    servers: [{ url: '/' }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'fsk_ + 40 base62 characters' } }, schemas },
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
