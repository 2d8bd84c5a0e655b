import fs from 'node:fs';
import path from 'node:path';
import { canonicalCidr } from '../auth/ip-allow-list';

// Every setting is an environment variable with a safe default; docs/configuration.md lists them all.
export interface Config {
  port: number;
  host: string;
  databaseUrl: string | null;
  /**
   * DATABASE_DIRECT_URL: a session connection to the primary (default DATABASE_URL) for LISTEN,
   * advisory locks, the job engine and migrations, when DATABASE_URL goes through a pooler in
   * transaction mode (docs/scaling.md); null: the ORM's own URL.
   */
  databaseDirectUrl: string | null;
  /** DATABASE_REPLICA_URLS: streaming replicas for lag-tolerant reads (src/db/replicas.ts, docs/scaling.md). */
  replicaUrls: string[];
  /** DRAIN_MS: after SIGTERM, how long /ready answers 503 before the server stops accepting (a load balancer's check interval and more). */
  drainMs: number;
  dataDir: string;
  migrate: boolean;
  seedDemo: boolean;
  corsOrigins: string[];
  trustProxy: string[];
  publicUrl: string | null;
  photoSecret: string | null;
  maxPhotoBytes: number;
  /** Photo storage backend: 'local' (DATA_DIR/photos) or 's3'; S3_BUCKET set means 's3'. */
  photoStorage: 'local' | 's3';
  photoUrlTtlSeconds: number;
  s3: { bucket: string | null; endpoint: string | null; region: string; accessKeyId: string | null; secretAccessKey: string | null; forcePathStyle: boolean };
  logLevel: string;
  /** Read by src/logger.ts at import; checked here so a bad value stops the start. */
  logFormat: 'json' | 'pretty' | 'auto';
  shutdownTimeoutMs: number;
  dbPoolMax: number;
  graphqlMaxDepth: number;
  graphqlMaxCost: number;
  graphqlMaxFields: number;
  /** Create the database DATABASE_URL names when it does not exist (otherwise the start stops). */
  databaseCreate: boolean;
  /** Node's HTTP server limits (src/main.ts): a whole request, its headers, an idle keep-alive socket. */
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** Queries run compiled by graphql-jit (src/graphql/executor.ts); false: graphql-js interprets every one. */
  graphqlJit: boolean;
  /** Field resolvers marked @DirectCall() are called directly (src/graphql/direct-resolvers.ts); false: all through TypeGraphQL's handler. */
  graphqlDirectCalls: boolean;
  /** Hot statements run as named prepared statements (src/data/prepared.ts); false for a pooler that cannot keep them. */
  dbPreparedStatements: boolean;
  /** API keys kept in the process, emptied through LISTEN/NOTIFY (src/auth/key-cache.ts); false: looked up on every request. */
  apiKeyCache: boolean;
  /** Bearer token for /metrics; null serves it to loopback clients only. */
  metricsToken: string | null;
  /** Log every SQL statement (MikroORM debug output). */
  debugSql: boolean;
  /** Customer documents (docs/documents.md): PDF_FONT, SMTP_URL, MAIL_FROM. */
  documents: { pdfFont: string | null; smtpUrl: string | null; mailFrom: string };
  /** Days events are kept in the feed (docs/events.md). */
  eventRetentionDays: number;
  /** Live updates (docs/live-updates.md): the SSE stream's comment line while idle, in ms. */
  liveHeartbeatMs: number;
  /** Live updates: a subscriber further behind than this many events is disconnected. */
  liveMaxBehind: number;
  /** Webhooks (docs/webhooks.md). */
  webhooks: WebhookConfig;
  /** Background tasks (docs/recurring-work.md): run them inside the server (TASK_WORKER, default on). */
  taskWorker: boolean;
  /** Online payments through Stripe (docs/payments.md); null: off (409 PAYMENTS_NOT_CONFIGURED). */
  stripe: StripeConfig | null;
}

export interface StripeConfig {
  secretKey: string;
  webhookSecret: string;
  /** Where the stripe library sends its calls (STRIPE_API_BASE): Stripe's API, or a compatible server. */
  apiBase: URL;
}

export function stripeConfig(env: NodeJS.ProcessEnv = process.env): StripeConfig | null {
  const secretKey = env.STRIPE_SECRET_KEY?.trim() || null;
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET?.trim() || null;
  if (!secretKey && !webhookSecret) return null;
  if (!secretKey || !webhookSecret) throw new ConfigError('STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET go together');
  const raw = env.STRIPE_API_BASE?.trim() || 'https://api.stripe.com';
  let apiBase: URL;
  try {
    apiBase = new URL(raw);
  } catch {
    throw new ConfigError(`STRIPE_API_BASE must be an http:// or https:// URL, got "${raw}"`);
  }
  if (!['http:', 'https:'].includes(apiBase.protocol) || (apiBase.pathname !== '/' && apiBase.pathname !== '')) {
    throw new ConfigError(`STRIPE_API_BASE must be an http:// or https:// URL without a path, got "${raw}"`);
  }
  return { secretKey, webhookSecret, apiBase };
}

export interface WebhookConfig {
  /** Run a delivery worker inside the server (WEBHOOK_WORKER, default on). */
  worker: boolean;
  allowHttp: boolean;
  allowPrivate: boolean;
  /** Multiplies every retry delay (tests: 0.001). */
  retryScale: number;
  timeoutMs: number;
  leaseSeconds: number;
  concurrency: number;
}

function scale(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 1;
  const n = Number(raw.trim());
  if (!Number.isFinite(n) || n < 0 || n > 1000) throw new ConfigError(`WEBHOOK_RETRY_SCALE must be a number between 0 and 1000, got "${raw}"`);
  return n;
}

export function webhookConfig(env: NodeJS.ProcessEnv = process.env): WebhookConfig {
  const timeoutMs = int('WEBHOOK_TIMEOUT_MS', env.WEBHOOK_TIMEOUT_MS, 15_000, 1, 15_000);
  const leaseSeconds = int('WEBHOOK_LEASE_SECONDS', env.WEBHOOK_LEASE_SECONDS, 60, 1, 3600);
  if (leaseSeconds * 1000 <= timeoutMs) throw new ConfigError('WEBHOOK_LEASE_SECONDS must be longer than WEBHOOK_TIMEOUT_MS');
  return {
    worker: bool('WEBHOOK_WORKER', env.WEBHOOK_WORKER, true),
    allowHttp: bool('WEBHOOK_ALLOW_HTTP', env.WEBHOOK_ALLOW_HTTP, false),
    allowPrivate: bool('WEBHOOK_ALLOW_PRIVATE', env.WEBHOOK_ALLOW_PRIVATE, false),
    retryScale: scale(env.WEBHOOK_RETRY_SCALE),
    timeoutMs,
    leaseSeconds,
    concurrency: int('WEBHOOK_CONCURRENCY', env.WEBHOOK_CONCURRENCY, 32, 1, 1000),
  };
}

export class ConfigError extends Error {}

function bool(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined || raw === '') return fallback;
  const v = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function int(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const n = Number(raw.trim());
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

function list(raw: string | undefined): string[] {
  return (raw ?? '').split(',').map((s) => s.trim()).filter(Boolean);
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function logFormat(raw: string | undefined): 'json' | 'pretty' | 'auto' {
  const v = raw?.trim().toLowerCase() || 'auto';
  if (v !== 'json' && v !== 'pretty' && v !== 'auto') throw new ConfigError(`LOG_FORMAT must be json, pretty or auto, got "${raw}"`);
  return v;
}

function logLevel(raw: string | undefined): string {
  const v = raw?.trim().toLowerCase() || 'info';
  if (!LOG_LEVELS.includes(v)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
  return v;
}

// Express's names for address ranges, or addresses and CIDRs of the proxies in front of the server.
const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function trustProxy(raw: string | undefined): string[] {
  const entries = list(raw);
  const bad = entries.filter((e) => !PROXY_NAMES.includes(e) && !canonicalCidr(e));
  if (bad.length) throw new ConfigError(`TRUST_PROXY must list proxy addresses, CIDRs or ${PROXY_NAMES.join('/')}, got "${bad.join(', ')}"`);
  return entries;
}

// A browser's Origin header is scheme://host[:port]: anything else would silently never match.
function corsOrigins(raw: string | undefined): string[] {
  const entries = list(raw);
  const bad = entries.filter((e) => e !== '*' && !/^https?:\/\/[^/\s?#]+$/.test(e));
  if (bad.length) throw new ConfigError(`CORS_ORIGINS must list origins like https://app.example.com (scheme, host, optional port, no path) or *, got "${bad.join(', ')}"`);
  return entries;
}

function photoSecret(raw: string | undefined): string | null {
  const v = raw?.trim() || null;
  if (v && v.length < 16) throw new ConfigError('PHOTO_URL_SECRET must be at least 16 characters');
  return v;
}

function metricsToken(raw: string | undefined): string | null {
  const v = raw?.trim() || null;
  if (v && v.length < 16) throw new ConfigError('METRICS_TOKEN must be at least 16 characters');
  return v;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const databaseUrl = env.DATABASE_URL?.trim() || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// URL');
  }
  const databaseDirectUrl = env.DATABASE_DIRECT_URL?.trim() || null;
  if (databaseDirectUrl && !/^postgres(ql)?:\/\//.test(databaseDirectUrl)) throw new ConfigError('DATABASE_DIRECT_URL must be a postgres:// URL');
  if (databaseDirectUrl && !databaseUrl) throw new ConfigError('DATABASE_DIRECT_URL needs DATABASE_URL');
  const replicaUrls = list(env.DATABASE_REPLICA_URLS);
  const badReplica = replicaUrls.find((u) => !/^postgres(ql)?:\/\//.test(u));
  if (badReplica) throw new ConfigError(`DATABASE_REPLICA_URLS must list postgres:// URLs, got "${badReplica}"`);
  if (replicaUrls.length && !databaseUrl) throw new ConfigError('DATABASE_REPLICA_URLS needs DATABASE_URL (the primary)');
  const publicUrl = env.PUBLIC_URL?.trim().replace(/\/+$/, '') || null;
  if (publicUrl && !/^https?:\/\//.test(publicUrl)) throw new ConfigError('PUBLIC_URL must start with http:// or https://');
  const s3Bucket = env.S3_BUCKET?.trim() || null;
  const photoStorage = (env.PHOTO_STORAGE?.trim().toLowerCase() || (s3Bucket ? 's3' : 'local')) as Config['photoStorage'];
  if (!['local', 's3'].includes(photoStorage)) throw new ConfigError(`PHOTO_STORAGE must be local or s3, got "${env.PHOTO_STORAGE}"`);
  if (photoStorage === 's3' && !s3Bucket) throw new ConfigError('PHOTO_STORAGE=s3 needs S3_BUCKET');
  const s3Endpoint = env.S3_ENDPOINT?.trim() || null;
  if (s3Endpoint && !/^https?:\/\//.test(s3Endpoint)) throw new ConfigError('S3_ENDPOINT must start with http:// or https://');
  const s3AccessKeyId = env.S3_ACCESS_KEY_ID?.trim() || null;
  const s3SecretAccessKey = env.S3_SECRET_ACCESS_KEY?.trim() || null;
  if (!s3AccessKeyId !== !s3SecretAccessKey) throw new ConfigError('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together');
  const pdfFont = env.PDF_FONT?.trim() || null;
  if (pdfFont && (!/\.(ttf|otf)$/i.test(pdfFont) || !fs.existsSync(pdfFont))) throw new ConfigError('PDF_FONT must name an existing .ttf or .otf file');
  const smtpUrl = env.SMTP_URL?.trim() || null;
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) throw new ConfigError('SMTP_URL must be an smtp:// or smtps:// URL');
  return {
    documents: { pdfFont: pdfFont && path.resolve(pdfFont), smtpUrl, mailFrom: env.MAIL_FROM?.trim() || 'no-reply@localhost' },
    port: int('PORT', env.PORT, 4000, 0, 65535),
    host: env.HOST?.trim() || '0.0.0.0',
    databaseUrl,
    databaseDirectUrl,
    replicaUrls,
    drainMs: int('DRAIN_MS', env.DRAIN_MS, 0, 0, 600_000),
    dataDir: path.resolve(env.DATA_DIR?.trim() || '.data'),
    migrate: bool('MIGRATE', env.MIGRATE, true),
    databaseCreate: bool('DATABASE_CREATE', env.DATABASE_CREATE, false),
    // Demo data only ever lands in the embedded database unless asked for explicitly.
    seedDemo: bool('SEED_DEMO', env.SEED_DEMO, !databaseUrl),
    corsOrigins: corsOrigins(env.CORS_ORIGINS),
    trustProxy: trustProxy(env.TRUST_PROXY),
    publicUrl,
    photoSecret: photoSecret(env.PHOTO_URL_SECRET),
    maxPhotoBytes: int('MAX_PHOTO_BYTES', env.MAX_PHOTO_BYTES, 15 * 1024 * 1024, 1, 1024 * 1024 * 1024),
    photoStorage,
    photoUrlTtlSeconds: int('PHOTO_URL_TTL_SECONDS', env.PHOTO_URL_TTL_SECONDS, 3600, 1, 7 * 24 * 3600),
    s3: {
      bucket: s3Bucket,
      endpoint: s3Endpoint,
      region: env.S3_REGION?.trim() || 'us-east-1',
      accessKeyId: s3AccessKeyId,
      secretAccessKey: s3SecretAccessKey,
      forcePathStyle: bool('S3_FORCE_PATH_STYLE', env.S3_FORCE_PATH_STYLE, !!s3Endpoint),
    },
    logLevel: logLevel(env.LOG_LEVEL),
    logFormat: logFormat(env.LOG_FORMAT),
    requestTimeoutMs: int('REQUEST_TIMEOUT_MS', env.REQUEST_TIMEOUT_MS, 120_000, 1_000, 3_600_000),
    headersTimeoutMs: int('HEADERS_TIMEOUT_MS', env.HEADERS_TIMEOUT_MS, 20_000, 1_000, 600_000),
    keepAliveTimeoutMs: int('KEEP_ALIVE_TIMEOUT_MS', env.KEEP_ALIVE_TIMEOUT_MS, 5_000, 1_000, 600_000),
    shutdownTimeoutMs: int('SHUTDOWN_TIMEOUT_MS', env.SHUTDOWN_TIMEOUT_MS, 10_000, 0, 600_000),
    dbPoolMax: int('DB_POOL_MAX', env.DB_POOL_MAX, 10, 1, 1000),
    graphqlMaxDepth: int('GRAPHQL_MAX_DEPTH', env.GRAPHQL_MAX_DEPTH, 10, 2, 100),
    graphqlMaxCost: int('GRAPHQL_MAX_COST', env.GRAPHQL_MAX_COST, 25_000, 1, 100_000_000),
    graphqlMaxFields: int('GRAPHQL_MAX_FIELDS', env.GRAPHQL_MAX_FIELDS, 1_000, 10, 100_000),
    graphqlJit: bool('GRAPHQL_JIT', env.GRAPHQL_JIT, true),
    graphqlDirectCalls: bool('GRAPHQL_DIRECT_CALLS', env.GRAPHQL_DIRECT_CALLS, true),
    dbPreparedStatements: bool('DB_PREPARED_STATEMENTS', env.DB_PREPARED_STATEMENTS, true),
    apiKeyCache: bool('API_KEY_CACHE', env.API_KEY_CACHE, true),
    metricsToken: metricsToken(env.METRICS_TOKEN),
    debugSql: bool('DEBUG_SQL', env.DEBUG_SQL, false),
    eventRetentionDays: int('EVENT_RETENTION_DAYS', env.EVENT_RETENTION_DAYS, 90, 1, 36_500),
    liveHeartbeatMs: int('LIVE_HEARTBEAT_MS', env.LIVE_HEARTBEAT_MS, 15_000, 100, 600_000),
    liveMaxBehind: int('LIVE_MAX_BEHIND', env.LIVE_MAX_BEHIND, 10_000, 100, 1_000_000),
    webhooks: webhookConfig(env),
    taskWorker: bool('TASK_WORKER', env.TASK_WORKER, true),
    stripe: stripeConfig(env),
  };
}
