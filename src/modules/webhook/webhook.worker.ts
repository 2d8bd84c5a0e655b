import type { WebhookConfig } from '../../config';
import type { Orm } from '../../db/orm';
import { logger } from '../../logger';
import { claim, send } from './webhook.delivery';
import { DISPATCH_BATCH, dispatchEvents } from './webhook.dispatch';
import { batchRecorder } from './webhook.record';
import { deliveryAgent } from './webhook.url';

// The delivery worker (docs/webhooks.md): a loop that keeps its state in PostgreSQL. Each turn it
// dispatches new events into deliveries (one process at a time), claims due deliveries up to its
// free slots (FOR UPDATE SKIP LOCKED, with a lease) and sends them; it sleeps briefly only when
// there was nothing to do. Any number of processes can run it over the same database; a process
// that dies leaves its claimed deliveries to the others when their lease expires.

export const IDLE_MS = 250;
/** While busy, new events are dispatched at most this often (unless a full batch was read). */
export const DISPATCH_EVERY_MS = 100;
/**
 * Yielding (a worker inside a server): while the server handles requests, at most an eighth of
 * the slots are used, unless the deliveries claimed had been due for longer than this: then all
 * of them, until a claim finds the queue's head due for less than half of it.
 */
export const YIELD_LAG_MS = 2000;

export interface WebhookWorker {
  /** Stops claiming and waits for the attempts in flight. */
  stop(): Promise<void>;
}

export interface WorkerOptions {
  /** True while the process is handling requests (a server's inline worker yields to them). */
  busy?: () => boolean;
  /** The lag beyond which a yielding worker uses all its slots (YIELD_LAG_MS unless given). */
  yieldLagMs?: number;
}

/** A probe of an HTTP server's requests in flight, for WorkerOptions.busy. */
export function requestsInFlight(server: { on(event: 'request', fn: (req: unknown, res: { once(e: 'close', fn: () => void): unknown }) => void): unknown }): () => boolean {
  let n = 0;
  server.on('request', (_req, res) => {
    n++;
    res.once('close', () => n--);
  });
  return () => n > 0;
}

export function startWebhookWorker(orm: Orm, cfg: WebhookConfig, options: WorkerOptions = {}): WebhookWorker {
  // Made with the first delivery: a process that never delivers never loads undici.
  let agent: ReturnType<typeof deliveryAgent> | undefined;
  // Outcomes are written in batches (one statement for those that finished meanwhile).
  const recorder = batchRecorder(orm, cfg);
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  let wake: (() => void) | undefined;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const attempt = (d: Awaited<ReturnType<typeof claim>>[number]) => {
    const p = send(d, (agent ??= deliveryAgent(cfg, cfg.timeoutMs)), cfg)
      .then((o) => recorder.add(d, o))
      .then(() => undefined)
      .catch((err) => logger.warn({ err, delivery: d.uuid }, 'webhook attempt could not be recorded; the lease expires and another attempt follows'))
      .finally(() => {
        inFlight.delete(p);
        wake?.();
      });
    inFlight.add(p);
  };

  // Claims go in batches: while busy, the loop waits until a quarter of the slots are free.
  const yielding = Math.max(1, Math.floor(cfg.concurrency / 8));
  const lagBound = options.yieldLagMs ?? YIELD_LAG_MS;
  let behind = false;
  const slots = () => (options.busy?.() && !behind ? yielding : cfg.concurrency);
  let lastDispatch = 0;
  let fullBatch = false;
  const loop = async () => {
    while (!stopped) {
      let busy = false;
      try {
        if (fullBatch || Date.now() - lastDispatch >= DISPATCH_EVERY_MS) {
          lastDispatch = Date.now();
          const read = await dispatchEvents(orm);
          fullBatch = read >= DISPATCH_BATCH;
          busy = read > 0;
        }
        const free = slots() - inFlight.size;
        if (free > 0 && !stopped) {
          const claimed = await claim(orm, free, cfg.leaseSeconds);
          const lag = claimed.reduce((m, d) => Math.max(m, d.waited_ms), 0);
          if (lag > lagBound) behind = true;
          else if (lag < lagBound / 2) behind = false;
          for (const d of claimed) attempt(d);
          busy ||= claimed.length === free || inFlight.size > 0;
        }
      } catch (err) {
        if (!stopped) logger.warn({ err }, 'webhook worker turn failed; retrying');
      }
      if (stopped) break;
      const limit = slots();
      if (!busy) await sleep(IDLE_MS);
      else if (inFlight.size > limit - Math.max(1, Math.floor(limit / 4))) await Promise.race(inFlight);
      else if (inFlight.size > 0) await Promise.race([...inFlight, sleep(DISPATCH_EVERY_MS)]);
    }
  };
  const running = loop();
  return {
    async stop() {
      stopped = true;
      wake?.();
      await running;
      await Promise.allSettled([...inFlight]);
      await agent?.close().catch(() => undefined);
    },
  };
}
