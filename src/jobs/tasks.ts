import type { Orm } from '../db/orm';
import { Engine, registerTask, startEngine } from './engine';
import { extendSchedules } from '../modules/schedule/schedule.task';
import { issueDue } from '../modules/recurring/recurring.generate';
import { settleStaleRefunds } from '../modules/online-payment/refund-intents';
// Imports register their tasks (docs/import-export.md).
import '../modules/import/import.task';

// The background tasks of this application, registered with the engine (src/jobs/engine.ts).
// Importing this file registers them; src/main.ts and src/worker.ts start the engine after it.

/** Recurring work (docs/recurring-work.md): each minute, and once when a process starts (catch-up). */
export const RECURRING_TASK = 'recurring-work';

registerTask({
  name: RECURRING_TASK,
  cron: '* * * * *',
  runOnStart: true,
  async run(orm) {
    await extendSchedules(orm);
    await issueDue(orm);
  },
});

/** Stripe refunds reserved and not yet confirmed (docs/payments.md): asked again with their key each minute. */
export const STRIPE_REFUNDS_TASK = 'stripe-refunds';

registerTask({
  name: STRIPE_REFUNDS_TASK,
  cron: '* * * * *',
  runOnStart: true,
  run: (orm) => settleStaleRefunds(orm),
});

/** Starts the engine with the tasks above, on the database at `url`. */
export function startTasks(orm: Orm, url: string): Promise<Engine> {
  return startEngine(orm, url);
}
