import { ERROR_CODES, ErrorCode } from '../errors/app-error';
import { statusOf } from '../errors/to-http-error';
import type { RouteDef } from './route';
import type { Schema } from './openapi-schemas';

// The parts of an operation that come from its route row: name, tag, error responses and headers.

const singular = (s: string) => s.replace(/ies$/, 'y').replace(/s$/, '');
const cap = (s: string) => s.replace(/(^|_)(\w)/g, (_m, _u, c: string) => c.toUpperCase());

/** The static segments of a path, a trailing action or alias (`preview`, `me`) set apart. */
function segments(r: RouteDef): { nouns: string[]; action?: string } {
  const parts = r.path.split('/').filter(Boolean);
  const nouns = parts.filter((p) => !p.startsWith(':'));
  const last = parts[parts.length - 1];
  // A static segment right after another static one is an action (`/estimates/preview`) or an
  // alias (`/companies/me`), not a collection.
  if (parts.length > 1 && !last.startsWith(':') && !parts[parts.length - 2].startsWith(':')) return { nouns: nouns.slice(0, -1), action: last };
  // After a record's id, a POST that creates nothing under a singular name is an action on the
  // record (`POST /invoices/:uuid/send` → sendInvoice).
  if (parts.length > 1 && r.method === 'POST' && !r.creates && !r.multipart && !last.startsWith(':') && !last.endsWith('s')) return { nouns: nouns.slice(0, -1), action: last };
  return { nouns };
}

/** `listCustomers`, `getCustomer`, `createInvoice`, `uploadJobPhotos`, `previewEstimate`, `getCompany`. */
export function operationId(r: RouteDef): string {
  if (r.operationId) return r.operationId;
  const { nouns, action } = segments(r);
  const many = r.plural !== undefined || !!r.multipart;
  const noun = nouns.map((n, i) => cap(i === nouns.length - 1 && many ? n : singular(n))).join('');
  if (action && r.method === 'POST') return action + noun;
  if (r.multipart) return 'upload' + noun;
  const verb = { GET: r.plural ? 'list' : 'get', POST: 'create', PUT: 'update', DELETE: 'delete' }[r.method];
  return verb + noun;
}

/** The resource a route belongs to: its last collection (`Customers`, `Photos`, `Numbering`). */
export function tagOf(r: RouteDef): string {
  const { nouns } = segments(r);
  return cap(nouns[nouns.length - 1]);
}

const header = (description: string, schema: Schema = { type: 'string' }, required = false): Schema => ({ description, required, schema });

export const HEADERS: Record<string, Schema> = {
  'X-Request-Id': header('The request id: the client-sent one (1–128 letters, digits, ., _, -) or a new UUID', { type: 'string' }, true),
  'RateLimit-Limit': header('Requests allowed per window (keys with a usage limit only)', { type: 'integer' }),
  'RateLimit-Remaining': header('Requests left in the current window (keys with a usage limit only)', { type: 'integer' }),
  'RateLimit-Reset': header('Seconds until the window resets (keys with a usage limit only)', { type: 'integer' }),
  'Retry-After': header('Seconds until the usage window resets (USAGE_LIMIT_EXCEEDED)', { type: 'integer' }),
  'Idempotent-Replayed': header('true when the response is the stored answer of an earlier request with the same Idempotency-Key', { const: 'true' }),
  ETag: header("Strong entity tag of the record's representation; send it back in If-Match"),
  'WWW-Authenticate': header('Bearer realm="field-service-crm" (error="invalid_token" when a key was sent)', { type: 'string' }, true),
  Vary: header('Accept-Encoding on compressible responses of 1 KiB or more'),
  'Content-Encoding': header('br or gzip, as Accept-Encoding allows, on responses of 1 KiB or more', { enum: ['br', 'gzip'] }),
};

const refs = (names: string[]) => Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));
const COMMON = ['X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Vary', 'Content-Encoding'];

/** Headers of a route's 200. */
export function successHeaders(r: RouteDef, tagged: boolean): Schema {
  return refs([...COMMON, ...(r.creates ? ['Idempotent-Replayed'] : []), ...(tagged ? ['ETag'] : [])]);
}

const DESCRIPTIONS: Partial<Record<number, string>> = {
  400: 'Validation error: every bad field named in details',
  401: 'Missing, malformed, unknown or revoked API key',
  403: 'Add-on required, IP restricted, or usage limit exceeded',
  404: 'Record not found (another company’s records are not found either)',
  412: 'If-Match does not match the record’s current ETag',
  500: 'Server error (details are logged, never shown)',
};

/** Whether an error code can answer a route (a code not listed here can answer any route). */
const APPLIES: Partial<Record<ErrorCode, (r: RouteDef, conditional: boolean) => boolean>> = {
  PRECONDITION_FAILED: (_r, conditional) => conditional,
  ADDON_REQUIRED: () => true,
  // Visits, and the job fields that write a job's visit, and turning the setting on (docs/visits.md).
  // An estimate already converted (docs/documents.md); expired links answer the customer page only.
  CONFLICT: (r) => r.path.endsWith('/convert_to_job'),
  LINK_EXPIRED: () => false,
  // A feed cursor older than the retention (docs/events.md).
  CURSOR_EXPIRED: (r) => r.path === '/events',
  SCHEDULE_CONFLICT: (r) => r.method !== 'GET' && (/^\/(visits|jobs)(\/|$)/.test(r.path) || r.path === '/companies/me/settings'),
};

/** The error responses of a route, one per status, with an example of each code it may carry. */
export function errorResponses(r: RouteDef, conditional: boolean): Record<string, Schema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of ERROR_CODES) {
    if (APPLIES[code] && !APPLIES[code]!(r, conditional)) continue;
    const status = statusOf(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, Schema> = {};
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    const headers = refs([...COMMON.filter((h) => status !== 401 || !h.startsWith('RateLimit')), ...(status === 401 ? ['WWW-Authenticate'] : []), ...(codes.includes('USAGE_LIMIT_EXCEEDED') ? ['Retry-After'] : [])]);
    const schema = { allOf: [{ $ref: '#/components/schemas/Error' }, { properties: { error: { properties: { code: { enum: codes } } } } }] };
    const examples = Object.fromEntries(codes.map((code) => [code, { value: { success: false, data: null, error: { code, message: EXAMPLE_MESSAGES[code] ?? code } } }]));
    out[String(status)] = { description: DESCRIPTIONS[status] ?? codes.join(', '), headers, content: { 'application/json': { schema, examples } } };
  }
  return out;
}

const EXAMPLE_MESSAGES: Partial<Record<ErrorCode, string>> = {
  VALIDATION_ERROR: 'first_name is required',
  UNAUTHORIZED: 'Missing API key: send Authorization: Bearer <key>',
  ADDON_REQUIRED: 'This feature needs the job_photos add-on',
  IP_RESTRICTED: 'This API key may not be used from 203.0.113.7',
  USAGE_LIMIT_EXCEEDED: 'Usage limit exceeded: this API key allows 1000 requests per hour; the window resets in 120 s',
  NOT_FOUND: 'Customer not found',
  PRECONDITION_FAILED: 'If-Match does not match the current ETag of the record: read it again',
  INTERNAL: 'Internal server error',
};
