import 'reflect-metadata';
import type { Server, ServerResponse } from 'node:http';
import { createApp } from './app';
import { startEventMaintenance } from './modules/event/event.maintenance';
import { startWebhookWorker } from './modules/webhook/webhook.worker';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/database';
import { initOrm, migrate } from './db/orm';
import { flushLogs, logger } from './logger';
import { seedDemoIfEmpty } from './seed/demo';

// Stops (or leaves) the database when the start fails after opening it: a failed start leaves no
// embedded PostgreSQL running behind it.
let releaseDatabase: () => Promise<void> = async () => undefined;

async function main(): Promise<void> {
  const config = loadConfig();
  logger.level = config.logLevel;
  const db = await openDatabase(config, (m) => logger.info(m));
  releaseDatabase = () => db.stop().catch(() => undefined);
  const orm = await initOrm(db.url, config.dbPoolMax, config.debugSql);
  if (config.migrate) {
    const applied = await migrate(orm);
    if (applied.length) logger.info({ applied }, 'migrations applied');
  }
  if (config.seedDemo) {
    const demo = await seedDemoIfEmpty(orm);
    if (demo) {
      // Shown once: only a hash of the key is stored.
      process.stdout.write(
        `\nDemo company "${demo.company.name}" (${demo.company.uuid}) created.\nAPI key (shown once): ${demo.apiKey}\n\n`,
      );
    }
  }
  const { app, close } = await createApp({ orm, config });
  // Positions and retention of the event feed, in the background of every server (docs/events.md).
  const events = startEventMaintenance(orm, config.eventRetentionDays);
  // Webhook deliveries, unless WEBHOOK_WORKER=off (then `npm run worker` processes deliver; docs/webhooks.md).
  const webhooks = config.webhooks.worker ? startWebhookWorker(orm, config.webhooks) : null;
  const server: Server = app.listen(config.port, config.host, (err?: Error) => {
    if (err) {
      process.stderr.write(`Start failed: cannot listen on ${config.host}:${config.port}: ${err.message}\n`);
      void orm.close(true).catch(() => undefined).then(releaseDatabase).then(() => process.exit(1));
      return;
    }
    const port = (server.address() as { port: number }).port;
    logger.info({ port, database: db.embedded ? 'embedded' : 'DATABASE_URL' }, `listening on http://localhost:${port} (GraphQL /graphql, REST /api/v1, docs /docs)`);
  });

  let stopping = false;
  const inFlight = new Set<ServerResponse>();
  server.on('request', (_req, res: ServerResponse) => {
    if (stopping) return void res.setHeader('Connection', 'close');
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
  });
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
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
    await close().catch(() => undefined);
    await orm.close(true).catch(() => undefined);
    await db.stop().catch((e) => logger.error({ err: e }, 'stopping the embedded database failed'));
    logger.info('stopped');
    await flushLogs();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

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
