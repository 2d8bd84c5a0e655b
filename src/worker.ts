// First: V8's heap settings apply to everything loaded after them (src/ops/v8-heap.ts).
import './ops/v8-heap-start';
// Second: MikroORM's async storages, made before anything loads MikroORM (src/db/settling-storage.ts).
import { ormStorages } from './db/settling-storage';
import 'reflect-metadata';
import { ConfigError, loadConfig } from './config';
import { initOrm } from './db/orm';
import { flushLogs, logger } from './logger';
import { startEventMaintenance } from './modules/event/event.maintenance';
import { configureWebhooks } from './modules/webhook/webhook.settings';
import { startWebhookWorker } from './modules/webhook/webhook.worker';
import { startTasks } from './jobs/tasks';
import { WriteSweeper } from './db/write-sweep';

// `npm run worker`: the background tasks (recurring work, docs/recurring-work.md) and webhook delivery workers alone, beside (or instead of) the servers' inline
// ones, over the database of DATABASE_URL (docs/webhooks.md). It also gives event positions, as
// servers do, so that a worker alone keeps deliveries flowing.
async function main(): Promise<void> {
  const config = loadConfig();
  logger.level = config.logLevel;
  if (!config.databaseUrl) throw new ConfigError('npm run worker needs DATABASE_URL (the database the servers use)');
  configureWebhooks(config.webhooks);
  // MikroORM loaded with its storages settling (the second import above), or a refusal to start.
  ormStorages();
  const orm = await initOrm(config.databaseUrl, config.dbPoolMax, config.debugSql);
  const events = startEventMaintenance(orm, config.eventRetentionDays);
  // The write marks of its commits become their companies' WAL positions (docs/scaling.md).
  const sweeper = new WriteSweeper(orm).start();
  const worker = startWebhookWorker(orm, config.webhooks);
  logger.info({ concurrency: config.webhooks.concurrency }, 'webhook worker started');
  // pg-boss keeps session state (LISTEN-free, but advisory locks): the session connection.
  const tasks = await startTasks(orm, config.databaseDirectUrl ?? config.databaseUrl);
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'webhook worker stopping: finishing the attempts in flight');
    events.stop();
    await worker.stop();
    await sweeper.stop();
    await tasks.stop().catch(() => undefined);
    await orm.close(true).catch(() => undefined);
    await flushLogs();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch(async (err) => {
  if (err instanceof ConfigError) process.stderr.write(`Configuration error: ${err.message}\n`);
  else process.stderr.write(`Worker start failed: ${err instanceof Error ? err.message : String(err)}\n`);
  await flushLogs();
  process.exit(1);
});
