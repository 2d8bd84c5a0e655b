import PgBoss from 'pg-boss';
import type { Orm } from '../db/orm';
import { logger } from '../logger';

// The one engine for background tasks (docs/recurring-work.md): pg-boss over the application's
// PostgreSQL, in its own schema (`pgboss`). A task is a name, a handler and optionally a cron
// line; any number of servers and `npm run worker` processes run the same tasks, and a queued
// job goes to one of them. The engine only schedules: what a task writes must stay correct when
// it runs twice or dies half-way (the recurring generators hold exactly-once by unique
// constraints, not by the engine).

export interface BackgroundTask {
  /** The queue's name: letters, digits, `-`, `_`, `.`, `/`. */
  name: string;
  /** A five-field cron line (minutes at the finest), in UTC; the engine queues one job per tick. */
  cron?: string;
  /** Also run once in each process when the engine starts (a catch-up after downtime), outside the queue. */
  runOnStart?: boolean;
  run(orm: Orm, data: Record<string, unknown>): Promise<void>;
}

const registry = new Map<string, BackgroundTask>();

/** Every queue's: three retries, and a job running longer than 15 minutes counts as failed. */
const QUEUE_OPTIONS = { retryLimit: 3, retryDelay: 5, expireInSeconds: 15 * 60 } as const;

/**
 * Creates a task's queue unless it exists. pg-boss 10's create_queue, run by two processes at once
 * for one queue (two workers started together on a new database), can deadlock: one has inserted
 * the queue's row and attaches its partition, the other waits on that row while holding the queue
 * table. PostgreSQL aborts one of them (SQLSTATE 40P01); that one tries again and finds the queue
 * made (its insert is ON CONFLICT DO NOTHING). Any other error is thrown.
 */
async function createQueue(boss: PgBoss, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await boss.createQueue(name, { name, ...QUEUE_OPTIONS });
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== '40P01' || attempt === 5) throw err;
    }
  }
}

/** Adds a task to the engine of this process; call it at import, before startEngine. */
export function registerTask(task: BackgroundTask): void {
  if (!/^[A-Za-z0-9_./-]+$/.test(task.name)) throw new Error(`task name "${task.name}" is not a queue name`);
  registry.set(task.name, task);
}

export function registeredTasks(): BackgroundTask[] {
  return [...registry.values()];
}

export interface Engine {
  /** Queues one run of a task now; whichever process is free takes it. */
  runNow(name: string, data?: Record<string, unknown>): Promise<void>;
  /** Stops taking jobs and waits (bounded) for the ones running. */
  stop(): Promise<void>;
}

export interface EngineOptions {
  /** Jobs of one queue run at most this many at a time in this process. */
  concurrency?: number;
  /** How often an idle worker looks for queued jobs. */
  pollingIntervalSeconds?: number;
}

/**
 * Starts the engine on `url` (a session connection to the primary): creates or migrates its
 * schema, registers each task's queue and cron line, and works the queues. Task failures are
 * logged and retried by the engine (three times, then the next tick).
 */
export async function startEngine(orm: Orm, url: string, options: EngineOptions = {}): Promise<Engine> {
  const boss = new PgBoss({ connectionString: url, max: 3, application_name: 'fsc-tasks' });
  boss.on('error', (err) => logger.warn({ err }, 'background task engine error'));
  await boss.start();
  const tasks = registeredTasks();
  const running = new Set<Promise<void>>();
  const track = (p: Promise<void>) => {
    running.add(p);
    void p.finally(() => running.delete(p));
  };
  for (const task of tasks) {
    await createQueue(boss, task.name);
    if (task.cron) await boss.schedule(task.name, task.cron, {}, { tz: 'UTC' });
    else await boss.unschedule(task.name).catch(() => undefined);
    const work = { batchSize: 1, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 };
    for (let i = 0; i < (options.concurrency ?? 1); i++) {
      await boss.work<Record<string, unknown>>(task.name, work, async ([job]) => {
        const p = task.run(orm, job.data ?? {});
        track(p.catch(() => undefined));
        await p;
      });
    }
    if (task.runOnStart) {
      track(task.run(orm, {}).catch((err) => logger.warn({ err, task: task.name }, 'background task at start failed; the next tick retries')));
    }
  }
  logger.info({ tasks: tasks.map((t) => t.name) }, 'background task engine started');
  return {
    async runNow(name, data = {}) {
      if (!registry.has(name)) throw new Error(`no task "${name}"`);
      await boss.send(name, data);
    },
    async stop() {
      await boss.stop({ graceful: true, wait: true, timeout: 30_000 });
      await Promise.allSettled([...running]);
    },
  };
}

const senders = new Map<string, Promise<PgBoss>>();

/**
 * Queues one run of a task from any process, engine or not (a server with TASK_WORKER=off queues
 * an import for the workers; the task need not be registered in this one): a pg-boss instance that only sends, made
 * once per database and process. The queue is created if no engine has created it yet.
 */
export async function queueTask(url: string, name: string, data: Record<string, unknown>): Promise<void> {
  let sender = senders.get(url);
  if (!sender) {
    sender = (async () => {
      const boss = new PgBoss({ connectionString: url, max: 2, application_name: 'fsc-tasks-send', supervise: false, schedule: false });
      boss.on('error', (err) => logger.warn({ err }, 'background task sender error'));
      await boss.start();
      return boss;
    })();
    senders.set(url, sender);
    sender.catch(() => senders.delete(url));
  }
  const boss = await sender;
  if (!(await boss.getQueue(name))) await createQueue(boss, name);
  await boss.send(name, data);
}

/** Stops the senders queueTask made (a process that ends, a test's teardown). */
export async function stopSenders(): Promise<void> {
  const all = [...senders.values()];
  senders.clear();
  await Promise.allSettled(all.map(async (s) => (await s).stop({ graceful: false, wait: true })));
}
