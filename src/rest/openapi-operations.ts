import { ERROR_CODES, ErrorCode } from '../errors/app-error';
import { statusOf } from '../errors/to-http-error';
import type { RouteDef } from './route';
import type { Schema, Schemas } from './openapi-schemas';

// The parts of an operation that come from its route row: name, error responses and headers.

const singular = (s: string) => s.replace(/ies$/, 'y').replace(/s$/, '');
export const cap = (s: string) => s.replace(/(^|_)(\w)/g, (_m, _u, c: string) => c.toUpperCase());

/** The static segments of a path, a trailing action or alias (`preview`, `me`) set apart. */
function segments(r: RouteDef): { nouns: string[]; action?: string } {
  const parts = r.path.split('/').filter(Boolean);
  const nouns = parts.filter((p) => !p.startsWith(':'));
  const last = parts[parts.length - 1];
  // A static segment right after another static one is an action (`/estimates/preview`) or an
  // alias (`/companies/me`), not a collection.
  if (parts.length > 1 && !last.startsWith(':') && !parts[parts.length - 2].startsWith(':')) return { nouns: nouns.slice(0, -1), action: last };
  // After a record's id, a POST under a singular name is an action on the record
  // (`POST /invoices/:uuid/send` → sendInvoice, `POST /jobs/:uuid/invoice` → invoiceJob); under a
  // plural one it creates in a collection (`POST /jobs/:job_uuid/visits` → createJobVisit).
  if (parts.length > 1 && r.method === 'POST' && !r.multipart && !last.startsWith(':') && !last.endsWith('s')) return { nouns: nouns.slice(0, -1), action: last };
  return { nouns };
}

/** `listCustomers`, `getCustomer`, `createInvoice`, `uploadJobPhotos`, `previewEstimate`, `getCompany`, `rotateWebhookEndpointSecret`. */
export function operationId(r: RouteDef): string {
  if (r.operationId) return r.operationId;
  const { nouns, action } = segments(r);
  const many = r.plural !== undefined || !!r.multipart;
  const noun = nouns.map((n, i) => cap(i === nouns.length - 1 && many ? n : singular(n))).join('');
  // An action's first word is the verb, the rest follows the noun (`convert_to_job` → convertEstimateToJob).
  if (action && r.method === 'POST') return action.split('_')[0] + noun + cap(action.split('_').slice(1).join('_'));
  if (r.multipart) return 'upload' + noun;
  const verb = { GET: r.plural ? 'list' : 'get', POST: 'create', PUT: 'update', DELETE: 'delete' }[r.method];
  return verb + noun;
}

const header = (description: string, schema: Schema = { type: 'string' }, required = false): Schema => ({ description, required, schema });

export const HEADERS: Record<string, Schema> = {
  'X-Request-Id': header('The request id: the client-sent one (1–128 letters, digits, ., _, -) or a new UUID', { type: 'string' }, true),
  'RateLimit-Limit': header('Requests allowed per window (keys with a usage limit only)', { type: 'integer' }),
  'RateLimit-Remaining': header('Requests left in the current window (keys with a usage limit only)', { type: 'integer' }),
  'RateLimit-Reset': header('Seconds until the window resets (keys with a usage limit only)', { type: 'integer' }),
  'Retry-After': header('Seconds to wait before trying again: until the usage window resets (USAGE_LIMIT_EXCEEDED), 1 when the service is unavailable', { type: 'integer' }),
  'Idempotent-Replayed': header('true when the response is the stored answer of an earlier request with the same Idempotency-Key', { const: 'true' }),
  ETag: header("Strong entity tag of the record's representation; send it back in If-Match"),
  'WWW-Authenticate': header('Bearer realm="field-service-crm" (error="invalid_token" when a key was sent)', { type: 'string' }, true),
  Vary: header('Accept-Encoding on compressible responses of 1 KiB or more'),
  'Content-Encoding': header('br or gzip, as Accept-Encoding allows, on responses of 1 KiB or more', { enum: ['br', 'gzip'] }),
};

const refs = (names: string[]) => Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));
const RATE_LIMIT = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];
const COMMON = ['X-Request-Id', ...RATE_LIMIT, 'Vary', 'Content-Encoding'];

/** Headers of a route's 200. */
export function successHeaders(r: RouteDef, tagged: boolean): Schema {
  return refs([...COMMON, ...(r.creates ? ['Idempotent-Replayed'] : []), ...(tagged ? ['ETag'] : [])]);
}

const DESCRIPTIONS: Partial<Record<number, string>> = {
  400: 'Validation error: every bad field named in details',
  401: 'Missing, malformed, unknown or revoked API key',
  403: 'Add-on required, IP restricted, usage limit exceeded, or permission denied (the role or the key’s scopes lack the operation’s scope)',
  404: 'Record not found (another company’s records are not found either)',
  412: 'If-Match does not match the record’s current ETag',
  500: 'Server error (details are logged, never shown)',
  503: 'The database cannot be reached or too many documents are rendering: nothing was written, retry after Retry-After seconds',
};

/** Whether an error code can answer a route (a code not listed here can answer any route). */
const APPLIES: Partial<Record<ErrorCode, (r: RouteDef, conditional: boolean) => boolean>> = {
  PRECONDITION_FAILED: (_r, conditional) => conditional,
  ADDON_REQUIRED: () => true,
  // Visits, and the job fields that write a job's visit, and turning the setting on (docs/visits.md).
  // An estimate already converted (docs/documents.md); expired links answer the customer page only.
  // An upsert by an external id a deleted record holds (docs/custom-fields.md).
  CONFLICT: (r) => r.path.endsWith('/convert_to_job') || !!r.upsert,
  LINK_EXPIRED: () => false,
  // Online payments' routes, while STRIPE_SECRET_KEY is unset (docs/payments.md).
  PAYMENTS_NOT_CONFIGURED: (r) => r.path.includes('payment_settings') || r.path.endsWith('/checkout') || r.path.endsWith('/refund'),
  // A feed cursor older than the retention (docs/events.md).
  CURSOR_EXPIRED: (r) => r.path === '/events',
  // A job's photos book nobody.
  SCHEDULE_CONFLICT: (r) => r.method !== 'GET' && ((/^\/(visits|jobs)(\/|$)/.test(r.path) && !r.path.includes('/photos')) || r.path === '/companies/me/settings'),
};

/** The error codes a route of the table may answer. */
export function routeErrorCodes(r: RouteDef, conditional: boolean): ErrorCode[] {
  return ERROR_CODES.filter((code) => !APPLIES[code] || APPLIES[code]!(r, conditional));
}

/**
 * The name of the body's schema: `NotFoundError`, `ValidationError`; codes that share a status
 * are joined (`AddonRequiredOrIpRestrictedOrUsageLimitExceededError`).
 */
const errorSchemaName = (codes: readonly ErrorCode[]) => codes.map((c) => cap(c.toLowerCase()).replace(/Error$/, '')).join('Or') + 'Error';

/**
 * The error body: a closed object whose code is one of `codes` (`details` on validation errors
 * only). Every schema is complete, not a refinement of another through allOf, so an example is
 * checked against every field it shows.
 */
function errorBody(codes: readonly ErrorCode[]): Schema {
  const detail = { type: 'object', additionalProperties: false, required: ['field', 'message'], properties: { field: { type: 'string' }, message: { type: 'string' } } };
  // Validation errors name every bad field; a permission denied names the scope it lacks.
  const details = codes.includes('VALIDATION_ERROR')
    ? { details: { type: 'array', description: 'Every bad field, by its REST name', items: detail } }
    : codes.includes('PERMISSION_DENIED')
      ? { details: { type: 'array', description: 'The scope the caller lacks (`field` is `scope`)', items: detail } }
      : {};
  return {
    type: 'object',
    additionalProperties: false,
    required: ['success', 'data', 'error'],
    properties: {
      success: { const: false },
      data: { type: 'null' },
      error: { type: 'object', additionalProperties: false, required: ['code', 'message'], properties: { code: { type: 'string', enum: [...codes] }, message: { type: 'string' }, ...details } },
    },
  };
}

/** The body of some codes, registered once in the components. */
function errorSchemaOf(codes: readonly ErrorCode[], schemas: Schemas): Schema {
  const name = errorSchemaName(codes);
  schemas[name] ??= errorBody(codes);
  return { $ref: `#/components/schemas/${name}` };
}

/**
 * The error responses of `codes`, one per status, with an example of each code. `keyed`: the
 * request carries an API key, so its answers carry the key's RateLimit headers (not a 401's).
 */
export function errorResponses(codes: readonly ErrorCode[], schemas: Schemas, keyed = true): Record<string, Schema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(statusOf(code), [...(byStatus.get(statusOf(code)) ?? []), code]);
  const out: Record<string, Schema> = {};
  for (const [status, those] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    const limited = keyed && status !== 401;
    const retry = those.includes('USAGE_LIMIT_EXCEEDED') || those.includes('SERVICE_UNAVAILABLE');
    const headers = refs([...COMMON.filter((h) => limited || !RATE_LIMIT.includes(h)), ...(status === 401 ? ['WWW-Authenticate'] : []), ...(retry ? ['Retry-After'] : [])]);
    const schema = errorSchemaOf(those, schemas);
    const examples = Object.fromEntries(those.map((code) => [code, { summary: code, value: { success: false, data: null, error: EXAMPLES[code] } }]));
    out[String(status)] = { description: DESCRIPTIONS[status] ?? those.join(', '), headers, content: { 'application/json': { schema, examples } } };
  }
  return out;
}

// An example of each code, as the server words it.
const EXAMPLES: Record<ErrorCode, Schema> = {
  VALIDATION_ERROR: { code: 'VALIDATION_ERROR', message: 'first_name is required', details: [{ field: 'first_name', message: 'first_name is required' }] },
  UNAUTHORIZED: { code: 'UNAUTHORIZED', message: 'Missing API key: send Authorization: Bearer <key>' },
  ADDON_REQUIRED: { code: 'ADDON_REQUIRED', message: 'This operation requires the "job_photos" add-on' },
  IP_RESTRICTED: { code: 'IP_RESTRICTED', message: 'This API key may not be used from 203.0.113.7' },
  USAGE_LIMIT_EXCEEDED: { code: 'USAGE_LIMIT_EXCEEDED', message: 'Usage limit exceeded: this API key allows 1000 requests per hour; the window resets in 120 s' },
  PERMISSION_DENIED: { code: 'PERMISSION_DENIED', message: 'This API key may not do this: it needs invoices:write', details: [{ field: 'scope', message: 'needs invoices:write' }] },
  NOT_FOUND: { code: 'NOT_FOUND', message: 'Customer not found' },
  CONFLICT: { code: 'CONFLICT', message: 'Estimate EST-0042 is already linked to a job' },
  LINK_EXPIRED: { code: 'LINK_EXPIRED', message: 'This link has expired or was revoked' },
  CURSOR_EXPIRED: { code: 'CURSOR_EXPIRED', message: 'This cursor is older than the events kept (EVENT_RETENTION_DAYS): copy the lists again from events/head' },
  SERVICE_UNAVAILABLE: { code: 'SERVICE_UNAVAILABLE', message: 'Too many documents are being rendered; retry shortly' },
  SCHEDULE_CONFLICT: { code: 'SCHEDULE_CONFLICT', message: 'A user of this visit is already booked at an overlapping time' },
  PRECONDITION_FAILED: { code: 'PRECONDITION_FAILED', message: 'If-Match does not match the current ETag of the record: read it again' },
  PAYMENTS_NOT_CONFIGURED: { code: 'PAYMENTS_NOT_CONFIGURED', message: 'Online payments are not configured on this server (STRIPE_SECRET_KEY)' },
  INTERNAL: { code: 'INTERNAL', message: 'Internal server error' },
};
