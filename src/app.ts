import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import express, { ErrorRequestHandler, Express, RequestHandler } from 'express';
import type { Server } from 'node:http';
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
import { buildGraphQLSchema } from './graphql/schema';
import { graphqlSubscriptions } from './graphql/ws';
import { FeedHub } from './modules/live/live.hub';
import { credentialWorks, liveAccess } from './modules/live/live.service';
import { EVENT_STREAM, MCP_ENDPOINT } from './rest/stream-endpoints';
import { eventStream } from './modules/live/live.stream';
import { mcpHttp, mcpTools } from './rest/mcp-server';
import { logger } from './logger';
import { buildRestRouter, JSON_LIMIT } from './rest/router';
import { keepUndecodableParams } from './rest/raw-input';
import { routes } from './rest/routes';
import { methodNotAllowed } from './rest/methods';
import { docsRouter, openApiDocument } from './rest/openapi';
import { graphqlUploads } from './graphql/uploads';
import { graphqlHandler } from './graphql/http';
import { graphiqlRoutes } from './graphql/graphiql';
import { chain } from './ops/chain';
import { photoFilesRouter } from './storage/files-route';
import { configurePhotoStorage } from './storage/storage';
import { configureWebhooks } from './modules/webhook/webhook.settings';
import { usePreparedStatements } from './data/prepared';
import { configureReplicas, Replicas } from './db/replicas';
import { WriteSweeper } from './db/write-sweep';
import { configureDocuments } from './modules/document/document.settings';
import { documentFilesRouter } from './modules/document/document-files.route';
import { sharePageRouter } from './modules/document/share.route';
import { PAGE_PATH } from './modules/document/share.service';
import { configureStripe } from './modules/online-payment/stripe.client';
import { STRIPE_WEBHOOK_PATH, stripeWebhookRouter } from './modules/online-payment/stripe-webhook.route';

export interface AppDeps {
  orm: Orm;
  config: Config;
}

export interface App {
  app: Express;
  apollo: ApolloServer<RequestContext>;
  /** The replicas of DATABASE_REPLICA_URLS (null: none). */
  replicas: Replicas | null;
  /** The sweep of the write marks into each company's WAL position (src/db/write-sweep.ts). */
  sweeper: WriteSweeper;
  /** The API key cache (null with API_KEY_CACHE=false). */
  keys: KeyCache | null;
  /** The server options whose request and response objects need no prototype swap (src/ops/request-classes.ts). */
  classes: RequestClasses;
  /** The process's live feed reader (docs/live-updates.md). */
  live: FeedHub;
  /** Serves GraphQL subscriptions (WebSocket upgrades of /graphql) on the HTTP server that listens. */
  attach(server: Server): void;
  /** Marks the process as draining: /ready answers 503 from now on. */
  drain(): void;
  close(): Promise<void>;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** The whole HTTP surface, without listening (tests drive it with supertest). */
export async function createApp({ orm, config }: AppDeps): Promise<App> {
  configurePhotoStorage(config);
  configureWebhooks(config.webhooks);
  usePreparedStatements(config.dbPreparedStatements);
  configureDocuments(config);
  configureStripe(config.stripe);
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
  let draining = false;
  app.get('/ready', async (_req, res) => {
    // A process that drains (SIGTERM, src/main.ts) is not ready: a load balancer stops sending it
    // requests while it still answers them (docs/scaling.md).
    if (draining) {
      res.status(503).setHeader('Retry-After', '1');
      return void res.json({ success: false, data: null, error: { code: 'SERVICE_UNAVAILABLE', message: 'draining' } });
    }
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
  // Their path parameters, as the API's, are taken as their text when they do not decode.
  app.use('/api/v1/document-files', keepUndecodableParams(documentFilesRouter(orm)));
  // The customer page of share links (no key: the token is the credential); its own CSP.
  app.use(PAGE_PATH, keepUndecodableParams(sharePageRouter(orm)));
  // Stripe's events: no key, the signature is checked instead (docs/payments.md).
  app.use(STRIPE_WEBHOOK_PATH, stripeWebhookRouter(orm));

  // Keys kept in the process while it listens for their changes (src/auth/key-cache.ts).
  // LISTEN needs a session: DATABASE_DIRECT_URL when the ORM's connections go through a pooler.
  const directUrl = config.databaseDirectUrl ?? orm.config.get('clientUrl')!;
  // Lag-tolerant reads on the replicas of DATABASE_REPLICA_URLS; the write marks swept into each
  // company's WAL position, replicas or not (src/db/replicas.ts, docs/scaling.md).
  const replicas = config.replicaUrls.length ? new Replicas(orm, config.replicaUrls, { poolMax: config.dbPoolMax }) : null;
  configureReplicas(orm, replicas);
  const sweeper = new WriteSweeper(orm).start();
  const keys = config.apiKeyCache ? new KeyCache(directUrl, { fence: config.dbPreparedStatements ? 'sync' : 'statement' }) : null;
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

  // One feed reader per process for every live subscriber (docs/live-updates.md).
  const live = new FeedHub(orm, directUrl, (credential) => credentialWorks(orm, credential), { maxBehind: config.liveMaxBehind });
  await live.start();
  app.get(EVENT_STREAM.path, auth, eventStream(live, config.liveHeartbeatMs));
  app.use('/api/v1', chain(auth, buildRestRouter(routes), methodNotAllowed(routes)));
  // MCP (docs/agents.md): the route table's operations as tools, over Streamable HTTP.
  app.post(MCP_ENDPOINT.path, auth, ...mcpHttp(() => mcpTools(routes)));
  // No sessions: no stream to GET, none to DELETE (the transport's answer to both is 405).
  app.all(MCP_ENDPOINT.path, (_req, res) => void res.status(405).setHeader('Allow', 'POST').end());

  const subscriptions = graphqlSubscriptions(buildGraphQLSchema(config.graphqlDirectCalls), live, async (authorization, req) => {
    const ctx = await authenticate(orm, { headers: { authorization } } as express.Request, randomUUID(), keys);
    // Counted once against the key's usage limit, and held to its allowed IPs, when the connection opens.
    // (no response to carry RateLimit headers: a refusal closes the socket with its message).
    await enforceAccess(ctx, req as express.Request, { setHeader: () => undefined } as unknown as express.Response, false);
    // A key that may follow nothing closes at once (4403), not at its first subscription.
    liveAccess(ctx);
    return ctx;
  });
  const limits = { maxDepth: config.graphqlMaxDepth, maxCost: config.graphqlMaxCost, maxFields: config.graphqlMaxFields };
  const apollo = await createApolloServer(limits, config.graphqlJit, config.graphqlDirectCalls, [subscriptions.plugin]);
  // Routes of this app, not a router mounted without a path that every request would walk.
  for (const [path, handler] of graphiqlRoutes()) app.get(path, handler);
  // Handlers of this app (whose settings send no ETag) rather than a sub-app of their own, which
  // cost its request and response prototypes swapped twice and a router of its own per request.
  app.use('/graphql', chain(auth, graphqlUploads(config.maxPhotoBytes), express.json({ limit: JSON_LIMIT }), graphqlHandler(apollo)));

  app.use((_req, _res, next) => next(new AppError('NOT_FOUND', 'Route not found')));
  app.use(errorHandler);

  const close = async () => void (await Promise.all([subscriptions.close(), live.stop(), apollo.stop(), keys?.stop(), sweeper.stop(), replicas?.close()]));
  return { app, apollo, keys, replicas, sweeper, classes, live, attach: subscriptions.attach, drain: () => void (draining = true), close };
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
  const extensions = body.error.details ? { code: body.error.code, details: body.error.details } : { code: body.error.code };
  res.status(status).json(graphql ? { ...body, errors: [{ message: body.error.message, extensions }] } : body);
};
