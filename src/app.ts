import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import express, { ErrorRequestHandler, Express, RequestHandler } from 'express';
import type { ApolloServer } from '@apollo/server';
import type { Config } from './config';
import type { Orm } from './db/orm';
import type { RequestContext } from './data/context';
import { authenticate, ensureManaged } from './auth/authenticate';
import { createMetrics } from './ops/metrics';
import { requestLog } from './ops/request-log';
import { requestClasses, RequestClasses } from './ops/request-classes';
import { compression } from './ops/compression';
import { securityHeaders } from './ops/security-headers';
import { enforceAccess } from './auth/access';
import { KeyCache } from './auth/key-cache';
import { AppError } from './errors/app-error';
import { asAppError } from './errors/db-error';
import { toHttpError } from './errors/to-http-error';
import { createApolloServer } from './graphql/server';
import { logger } from './logger';
import { buildRestRouter, JSON_LIMIT } from './rest/router';
import { routes } from './rest/routes';
import { methodNotAllowed } from './rest/methods';
import { docsRouter, openApiDocument } from './rest/openapi';
import { graphqlUploads } from './graphql/uploads';
import { graphqlHandler } from './graphql/http';
import { explorerRoutes } from './graphql/explorer';
import { chain } from './ops/chain';
import { photoFilesRouter } from './storage/files-route';
import { configurePhotoStorage } from './storage/storage';
import { configureWebhooks } from './modules/webhook/webhook.settings';
import { usePreparedStatements } from './data/prepared';
import { configureDocuments } from './modules/document/document.settings';
import { documentFilesRouter } from './modules/document/document-files.route';
import { sharePageRouter } from './modules/document/share.route';
import { PAGE_PATH } from './modules/document/share.service';

export interface AppDeps {
  orm: Orm;
  config: Config;
}

export interface App {
  app: Express;
  apollo: ApolloServer<RequestContext>;
  /** The API key cache (null with API_KEY_CACHE=false). */
  keys: KeyCache | null;
  /** The server options whose request and response objects need no prototype swap (src/ops/request-classes.ts). */
  classes: RequestClasses;
  close(): Promise<void>;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** The whole HTTP surface, without listening (tests drive it with supertest). */
export async function createApp({ orm, config }: AppDeps): Promise<App> {
  configurePhotoStorage(config);
  configureWebhooks(config.webhooks);
  usePreparedStatements(config.dbPreparedStatements);
  configureDocuments(config);
  const app = express();
  const classes = requestClasses(app);
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy.length ? config.trustProxy : false);
  app.set('strict routing', false);
  // No ETag computed from every body: single-record responses carry the record's strong ETag
  // (src/rest/preconditions.ts), which If-Match and If-None-Match are compared with.
  app.set('etag', false);

  const requestId: RequestHandler = (req, res, next) => {
    const incoming = req.header('x-request-id');
    req.requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader('X-Request-Id', req.requestId);
    next();
  };
  const trusted = config.trustProxy.length > 0;
  const metrics = createMetrics(orm, { token: config.metricsToken, trustProxy: trusted });
  // Every request's middlewares, one layer of the router (src/ops/chain.ts); helmet's headers
  // computed once (src/ops/security-headers.ts).
  app.use(chain(requestId, requestLog(trusted, metrics.observe), compression(), securityHeaders(), cors(config.corsOrigins)));

  app.get('/metrics', metrics.endpoint);
  app.get('/health', (_req, res) => {
    res.json({ success: true, data: { status: 'ok' } });
  });
  app.get('/ready', async (_req, res) => {
    try {
      await orm.em.getConnection().execute('select 1');
      res.json({ success: true, data: { status: 'ready' } });
    } catch {
      res.status(503).setHeader('Retry-After', '1');
      res.json({ success: false, data: null, error: { code: 'SERVICE_UNAVAILABLE', message: 'database unavailable' } });
    }
  });

  const openapi = openApiDocument(routes);
  app.get('/api/v1/openapi.json', (_req, res) => {
    res.json(openapi);
  });
  app.use('/docs', docsRouter());

  // Signed photo links are for browsers: no API key, the signature is checked instead.
  app.use('/api/v1/photo-files', photoFilesRouter());
  // PDFs behind signed links (GraphQL pdfUrl), likewise.
  app.use('/api/v1/document-files', documentFilesRouter(orm));
  // The customer page of share links (no key: the token is the credential); its own CSP.
  app.use(PAGE_PATH, sharePageRouter(orm));

  // Keys kept in the process while it listens for their changes (src/auth/key-cache.ts).
  const keys = config.apiKeyCache ? new KeyCache(orm.config.get('clientUrl')!, { fence: config.dbPreparedStatements ? 'sync' : 'statement' }) : null;
  await keys?.start();
  const auth: RequestHandler = async (req, res, next) => {
    try {
      req.ctx = await authenticate(orm, req, req.requestId, keys);
      // Anything that may write gets the managed company, user and key first (see authenticate);
      // GraphQL mutations get them from the operation's plugin (src/graphql/server.ts).
      if (req.baseUrl === '/api/v1' && req.method !== 'GET' && req.method !== 'HEAD') ensureManaged(req.ctx);
      req.ctx.baseUrl = `${req.protocol}://${req.get('host')}`;
      await enforceAccess(req.ctx, req, res, config.trustProxy.length > 0);
      next();
    } catch (err) {
      next(err);
    }
  };

  app.use('/api/v1', chain(auth, buildRestRouter(routes), methodNotAllowed(routes)));

  const apollo = await createApolloServer({ maxDepth: config.graphqlMaxDepth, maxCost: config.graphqlMaxCost, maxFields: config.graphqlMaxFields }, config.graphqlJit, config.graphqlDirectCalls);
  // Routes of this app, not a router mounted without a path that every request would walk.
  for (const [path, handler] of explorerRoutes()) app.get(path, handler);
  // Handlers of this app (whose settings send no ETag) rather than a sub-app of their own, which
  // cost its request and response prototypes swapped twice and a router of its own per request.
  app.use('/graphql', chain(auth, graphqlUploads(config.maxPhotoBytes), express.json({ limit: JSON_LIMIT }), graphqlHandler(apollo)));

  app.use((_req, _res, next) => next(new AppError('NOT_FOUND', 'Route not found')));
  app.use(errorHandler);

  return { app, apollo, keys, classes, close: async () => void (await Promise.all([apollo.stop(), keys?.stop()])) };
}

function cors(origins: string[]): RequestHandler {
  return (req, res, next) => {
    const origin = req.header('origin');
    if (!origins.length || !origin || !(origins.includes('*') || origins.includes(origin))) return next();
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Vary', 'Origin');
    res.setHeader('Access-Control-Expose-Headers', 'X-Request-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset');
    if (req.method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Methods', 'GET, HEAD, POST, PUT, DELETE');
      res.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type, Idempotency-Key, X-Request-Id, apollo-require-preflight');
      res.setHeader('Access-Control-Max-Age', '600');
      res.status(204).end();
      return;
    }
    next();
  };
}

// Errors of reading a body (express.json, graphql-upload): the client's, so 400 naming the body.
const BODY_ERRORS: Record<string, string> = {
  'entity.parse.failed': 'is not valid JSON',
  'entity.verify.failed': 'is not valid JSON',
  'entity.too.large': 'is larger than 1 MiB',
  'encoding.unsupported': 'has an unsupported Content-Encoding (identity, gzip, deflate and br are accepted)',
  'charset.unsupported': 'has an unsupported character set',
  'request.aborted': 'was not received completely',
  'request.size.invalid': 'does not have the length its Content-Length announced',
};

function bodyError(err: unknown): AppError | null {
  const e = err as { type?: string; status?: number; expose?: boolean; message?: string } | null;
  if (!e || typeof e !== 'object') return null;
  const known = e.type ? BODY_ERRORS[e.type] : undefined;
  if (known) return AppError.field('body', known);
  // Any other refusal of a parser (http-errors marks client errors `expose`): a compressed body
  // that does not decompress, a malformed multipart request.
  if (e.expose && typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
    return AppError.field('body', e.type ? 'could not be read' : 'could not be decoded (does its Content-Encoding match its bytes?)');
  }
  return null;
}

const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  let app = asAppError(err) ?? bodyError(err);
  if (!app) {
    logger.error({ err, requestId: req.requestId, method: req.method, path: req.path }, 'request failed');
    app = new AppError('INTERNAL', 'Internal server error');
  }
  const { status, body } = toHttpError(app);
  if (res.headersSent) return;
  if (status === 503) {
    res.setHeader('Retry-After', '1');
    logger.warn({ err, reason: app.message, requestId: req.requestId, method: req.method, path: req.path }, 'service unavailable');
  }
  // RFC 6750 §3: a 401 names the scheme; a key that was sent but refused is an invalid_token.
  if (status === 401) res.setHeader('WWW-Authenticate', req.headers.authorization ? 'Bearer realm="field-service-crm", error="invalid_token"' : 'Bearer realm="field-service-crm"');
  // GraphQL clients read `errors`; REST clients read the envelope. A GraphQL request refused before
  // execution (401, 403) gets both.
  const graphql = req.baseUrl === '/graphql' || req.path.startsWith('/graphql');
  res.status(status).json(graphql ? { ...body, errors: [{ message: body.error.message, extensions: { code: body.error.code } }] } : body);
};
