// First: V8's heap settings apply to everything loaded after them (src/ops/v8-heap.ts).
import './ops/v8-heap-start';
// Second: MikroORM's async storages, made before anything loads MikroORM (src/db/settling-storage.ts).
import { ormStorages } from './db/settling-storage';
import 'reflect-metadata';
import { createServer, Server, ServerResponse } from 'node:http';
import { createApp } from './app';
import { startEventMaintenance } from './modules/event/event.maintenance';
import { requestsInFlight, startWebhookWorker } from './modules/webhook/webhook.worker';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/database';
import { initOrm, migrateThrough, requireExtensions } from './db/orm';
import { flushLogs, logger, prettyLogs } from './logger';
import { seedDemoIfEmpty } from './seed/demo';
import { startTasks } from './jobs/tasks';
import type { Engine } from './jobs/engine';

// Stops (or leaves) the database when the start fails after opening it: a failed start leaves no
// embedded PostgreSQL running behind it.
let releaseDatabase: () => Promise<void> = async () => undefined;

async function main(): Promise<void> {
  const config = loadConfig();
  logger.level = config.logLevel;
  const db = await openDatabase(config, (m) => logger.info(m));
  releaseDatabase = () => db.stop().catch(() => undefined);
  // MikroORM loaded with its storages settling (the second import above), or a refusal to start.
  ormStorages();
  const orm = await initOrm(db.url, config.dbPoolMax, config.debugSql);
  await requireExtensions(orm);
  // The session connection to the primary (DATABASE_DIRECT_URL, default DATABASE_URL): LISTEN,
  // advisory locks, the job engine and migrations, which a pooler in transaction mode breaks.
  const directUrl = db.embedded ? db.url : (config.databaseDirectUrl ?? db.url);
  if (config.migrate) {
    const applied = await migrateThrough(directUrl, orm);
    if (applied.length) logger.info({ applied }, 'migrations applied');
  }
  if (config.seedDemo) {
    const demo = await seedDemoIfEmpty(orm);
    // Shown once: only a hash of the key is stored. At a terminal a block of text; otherwise a
    // log line like the others, so a script reads `apiKey` from it.
    if (demo && prettyLogs) {
      process.stdout.write(`\nDemo company "${demo.company.name}" (${demo.company.uuid}) created.\nAPI key (shown once): ${demo.apiKey}\n\n`);
    } else if (demo) {
      logger.info({ companyUuid: demo.company.uuid, companyName: demo.company.name, apiKey: demo.apiKey }, `API key (shown once): ${demo.apiKey} of the demo company`);
    }
  }
  const { app, classes, close, attach, drain } = await createApp({ orm, config });
  // Positions and retention of the event feed, in the background of every server (docs/events.md).
  const events = startEventMaintenance(orm, config.eventRetentionDays);
  // Slow or half-open connections cannot pin the server: a request must arrive whole within
  // REQUEST_TIMEOUT_MS and its headers within HEADERS_TIMEOUT_MS; an idle keep-alive socket is
  // closed after KEEP_ALIVE_TIMEOUT_MS (docs/security.md).
  const server: Server = createServer(
    {
      requestTimeout: config.requestTimeoutMs,
      headersTimeout: config.headersTimeoutMs,
      keepAliveTimeout: config.keepAliveTimeoutMs,
      // Not connectionsCheckingInterval: with it set, Node 20 and 22 stopped timing out sockets at
      // all in our test (a silent socket stayed open); the default (30 s) checks headers timeouts.
      // Requests and responses made with the app's prototypes (src/ops/request-classes.ts).
      ...classes,
    },
    app,
  );
  // Node's request and headers timeouts are checked every 30 s and only for sockets that began a
  // request: any socket without traffic for REQUEST_TIMEOUT_MS is closed as well.
  server.setTimeout(config.requestTimeoutMs, (socket) => socket.destroy());
  // GraphQL subscriptions: WebSocket upgrades of /graphql on this server (docs/live-updates.md).
  attach(server);
  // Webhook deliveries, unless WEBHOOK_WORKER=off (then `npm run worker` processes deliver); the
  // inline worker yields to this server's requests (docs/webhooks.md).
  const webhooks = config.webhooks.worker ? startWebhookWorker(orm, config.webhooks, { busy: requestsInFlight(server) }) : null;
  // Background tasks (recurring work), unless TASK_WORKER=off (then `npm run worker` runs them);
  // started once the server listens, so that a start that fails does no background work.
  let tasks: Promise<Engine | null> = Promise.resolve(null);
  server.on('error', (err) => {
    process.stderr.write(`Start failed: cannot listen on ${config.host}:${config.port}: ${err.message}\n`);
    void orm.close(true).catch(() => undefined).then(releaseDatabase).then(() => process.exit(1));
  });
  server.listen(config.port, config.host, () => {
    const port = (server.address() as { port: number }).port;
    logger.info({ port, database: db.embedded ? 'embedded' : 'DATABASE_URL' }, `listening on http://localhost:${port} (GraphQL /graphql, REST /api/v1, docs /docs)`);
    if (config.taskWorker) {
      tasks = startTasks(orm, directUrl).catch((err) => {
        logger.error({ err }, 'background tasks did not start: `npm run worker` can run them');
        return null;
      });
    }
  });

  let stopping = false;
  const inFlight = new Set<ServerResponse>();
  server.on('request', (_req, res: ServerResponse) => {
    // Stopping: each response closes its connection, so that keep-alive clients reconnect through
    // the load balancer elsewhere (a response sent at once, as /ready's 503, has its headers already).
    if (stopping) return void (res.headersSent || res.setHeader('Connection', 'close'));
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
  });
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // First /ready answers 503 for DRAIN_MS while requests are still served, so that a load
    // balancer's health check takes the process out before it stops accepting (docs/scaling.md).
    drain();
    if (config.drainMs > 0 && signal !== 'uncaughtException') {
      logger.info({ signal, drainMs: config.drainMs }, 'draining: /ready answers 503');
      await new Promise((resolve) => setTimeout(resolve, config.drainMs));
    }
    logger.info({ signal, timeoutMs: config.shutdownTimeoutMs }, 'shutting down: draining in-flight requests');
    // Stop accepting, let in-flight requests finish (bounded), then close the database. Responses
    // sent meanwhile close their connection, so keep-alive clients reconnect elsewhere.
    for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
    const drained = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const timer = setTimeout(() => {
      logger.warn({ timeoutMs: config.shutdownTimeoutMs }, 'shutdown timeout: closing the connections still open');
      server.closeAllConnections();
    }, config.shutdownTimeoutMs);
    await drained;
    clearTimeout(timer);
    events.stop();
    await webhooks?.stop();
    await (await tasks)?.stop().catch((e) => logger.warn({ err: e }, 'stopping the background tasks failed'));
    await close().catch(() => undefined);
    await orm.close(true).catch(() => undefined);
    await db.stop().catch((e) => logger.error({ err: e }, 'stopping the embedded database failed'));
    logger.info('stopped');
    await flushLogs();
    process.exit(process.exitCode ?? 0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  lastResort = (err) => {
    // A bug, never a client's doing (every stream and request has its own error path): the
    // process state is unknown, so it drains what it can and exits for a supervisor to restart.
    logger.fatal({ err }, 'uncaught exception: stopping');
    process.exitCode = 1;
    void shutdown('uncaughtException');
  };
}

let lastResort = (err: unknown): void => {
  logger.fatal({ err }, 'uncaught exception during start');
  void flushLogs().then(() => process.exit(1));
};
process.on('uncaughtException', (err) => lastResort(err));
// A promise nobody awaited that failed: logged; the request it belonged to has answered already.
process.on('unhandledRejection', (err) => logger.error({ err }, 'unhandled promise rejection'));

main().catch(async (err) => {
  if (err instanceof ConfigError) {
    process.stderr.write(`Configuration error: ${err.message}\n`);
  } else {
    logger.fatal({ err }, 'start failed');
    process.stderr.write(`Start failed: ${err instanceof Error ? err.message : String(err)}\n`);
  }
  await releaseDatabase();
  await flushLogs();
  process.exit(1);
});
