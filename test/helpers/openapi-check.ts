import zlib from 'node:zlib';
import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import express, { Express, RequestHandler } from 'express';
import { openApiDocument } from '../../src/rest/openapi';
import { routes } from '../../src/rest/routes';

// Every REST response a test receives through useTestApp's app is recorded and, after the spec
// file, held against the OpenAPI document (JSON Schema 2020-12 with ajv): the status must be
// documented for the operation, the body must validate, required headers must be present and
// the known headers sent must be declared. A response to a path and method the document does not
// list (an unknown route, or a method the path does not take: 404) has no operation to check against.

export interface Recorded {
  method: string;
  path: string;
  status: number;
  headers: Record<string, unknown>;
  body: Buffer;
}

type Doc = Record<string, any>;

/** The app wrapped by a recorder of its /api/v1 responses. */
export function recording(app: Express, into: Recorded[]): Express {
  const outer = express();
  outer.disable('x-powered-by');
  outer.set('etag', false);
  outer.use(recorder(into));
  outer.use(app);
  return outer;
}

function recorder(into: Recorded[]): RequestHandler {
  return (req, res, next) => {
    const path = req.path;
    if (!path.startsWith('/api/v1/') || path.startsWith('/api/v1/photo-files') || path === '/api/v1/openapi.json') return next();
    const chunks: Buffer[] = [];
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
    };
    const write = res.write.bind(res) as (...a: unknown[]) => boolean;
    const end = res.end.bind(res) as (...a: unknown[]) => typeof res;
    res.write = ((...a: unknown[]) => (keep(a[0], a[1]), write(...a))) as typeof res.write;
    res.end = ((...a: unknown[]) => (keep(a[0], a[1]), end(...a))) as typeof res.end;
    res.on('finish', () => into.push({ method: req.method, path, status: res.statusCode, headers: res.getHeaders(), body: Buffer.concat(chunks) }));
    next();
  };
}

let doc: Doc | undefined;
let ajv: Ajv2020 | undefined;
/** By the schema's JSON: the document's thousand response schemas are some seventy distinct ones. */
const validators = new Map<string, ValidateFunction>();
/** The id under which ajv holds the document's components, compiled once for the file. */
const COMPONENTS_ID = 'https://field-service-crm.test/openapi.json';

/** A copy of `schema` whose references to the document's components name them by COMPONENTS_ID. */
function absolute(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(absolute);
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `${COMPONENTS_ID}${v}` : absolute(v)]),
  );
}

/**
 * The validator of a response schema. The document's components are added to ajv once and the
 * response schemas refer to them there, so that each component a file meets is compiled once,
 * not once per response schema (a file that meets every route compiled hundreds of copies: seconds).
 */
function validatorOf(schema: object): ValidateFunction {
  const key = JSON.stringify(schema);
  let v = validators.get(key);
  if (!v) {
    v = ajv!.compile(absolute(schema) as object);
    validators.set(key, v);
  }
  return v;
}

/** The document's path templates as patterns, static paths before templated ones (/estimates/preview before /estimates/{uuid}). */
let templates: Array<{ template: string; re: RegExp }> | undefined;

function operationOf(method: string, path: string): { template: string; op: Doc } | undefined {
  const m = method === 'HEAD' ? 'get' : method.toLowerCase();
  templates ??= Object.keys(doc!.paths)
    .sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0))
    .map((template) => ({ template, re: new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}/?$`) }));
  for (const { template, re } of templates) {
    if (re.test(path) && doc!.paths[template][m]) return { template, op: doc!.paths[template][m] };
  }
  return undefined;
}

const KNOWN_HEADERS = ['x-request-id', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after', 'idempotent-replayed', 'etag', 'www-authenticate'];

/** The mismatches of one response with the document ('' when it conforms or has no operation). */
export function mismatchOf(r: Recorded): string[] {
  if (!doc) {
    doc = openApiDocument(routes);
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ components: doc.components }, COMPONENTS_ID);
  }
  const found = operationOf(r.method, r.path);
  if (!found) return [];
  const where = `${r.method} ${r.path} → ${r.status} (${found.op.operationId})`;
  const response = found.op.responses[String(r.status)];
  if (!response) return [`${where}: status ${r.status} is not documented`];
  const problems: string[] = [];
  const declared = new Map<string, Doc>(Object.entries(response.headers ?? {}).map(([name, h]) => [name.toLowerCase(), resolve(h as Doc)]));
  for (const [name, h] of declared) if (h.required && r.headers[name] === undefined) problems.push(`${where}: header ${name} is required but missing`);
  for (const name of KNOWN_HEADERS) if (r.headers[name] !== undefined && !declared.has(name)) problems.push(`${where}: header ${name} is sent but not documented`);
  if (r.method === 'HEAD' || r.status === 304) return problems;
  // A response documented without content (MCP's 202) must come without a body.
  if (!response.content) return r.body.length ? [...problems, `${where}: a body is sent where none is documented`] : problems;
  // A file answer (a PDF): its media type must be the one documented.
  const type = String(r.headers['content-type'] ?? '').split(';')[0].trim();
  if (type && type !== 'application/json' && response.content?.[type]) return problems;
  const schema = response.content?.['application/json']?.schema;
  if (!schema) return [...problems, `${where}: no JSON body documented for ${type || 'an untyped body'}`];
  const coding = r.headers['content-encoding'];
  const bytes = coding === 'br' ? zlib.brotliDecompressSync(r.body) : coding === 'gzip' ? zlib.gunzipSync(r.body) : r.body;
  let body: unknown;
  try {
    body = JSON.parse(bytes.toString('utf8'));
  } catch {
    return [...problems, `${where}: body is not JSON: ${bytes.toString('utf8').slice(0, 100)}`];
  }
  const validate = validatorOf(schema);
  if (!validate(body)) {
    const errors = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
    problems.push(`${where}: body does not match the document: ${errors.join('; ')}`);
  }
  return problems;
}

function resolve(h: Doc): Doc {
  if (typeof h.$ref !== 'string') return h;
  return h.$ref.split('/').slice(1).reduce((o: Doc, k: string) => o[k], doc!);
}

/** Fails (throws) when any recorded response does not conform to the document. */
export function checkRecorded(recorded: Recorded[]): void {
  const problems = recorded.flatMap(mismatchOf);
  recorded.length = 0;
  if (problems.length) {
    const unique = [...new Set(problems)];
    throw new Error(`${unique.length} REST responses do not match the OpenAPI document (src/rest/openapi.ts):\n${unique.slice(0, 20).join('\n')}`);
  }
}
