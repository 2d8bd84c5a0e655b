import { writeSync } from 'node:fs';
import pino from 'pino';
import { LineBatch } from './log-batch';
import { prettyDestination } from './log-pretty';

// Logs: JSON lines, or pretty ones at a terminal. An API key is never logged, only its id (the one
// exception: the demo company's key, announced once by the first start; src/main.ts).
// An unknown LOG_LEVEL is reported by the config check at start, not by pino at import time.
const requested = process.env.LOG_LEVEL?.trim().toLowerCase();
const level = requested && requested in pino.levels.values ? requested : requested === 'silent' ? 'silent' : process.env.NODE_ENV === 'test' ? 'silent' : 'info';

// LOG_FORMAT: `json` (JSON lines), `pretty` (for a person, src/log-pretty.ts), or unset: pretty
// when stdout is a terminal, JSON lines otherwise (a pipe, a file, a log collector). An unknown
// value is reported by the config check at start; until then it counts as unset.
const format = process.env.LOG_FORMAT?.trim().toLowerCase();
const pretty = format === 'pretty' || (format !== 'json' && process.stdout.isTTY === true);
/** True when log lines are written for a terminal rather than as JSON. */
export const prettyLogs = pretty;

// JSON lines go to stdout asynchronously (buffered, written when the event loop is free): a
// synchronous write per request line cost ~6% of the server's CPU under load. They are written in
// batches (src/log-batch.ts: 4 KB, or 50 ms after the first line of a batch). What is buffered is
// written out before the process exits (see flushLogs, and the exit handler below).
const destination = pretty
  ? prettyDestination(process.stdout.isTTY === true && !process.env.NO_COLOR)
  : new LineBatch(pino.destination({ dest: 1, sync: false, minLength: 0 }), (text) => writeSync(1, text));

export const logger = pino(
  {
    level,
    redact: { paths: ['req.headers.authorization', 'headers.authorization', 'authorization'], censor: '[redacted]' },
    base: undefined,
  },
  destination,
);

/** Waits until every line logged so far is written (call before process.exit). */
export function flushLogs(): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 2000);
    try {
      destination.flush(() => {
        clearTimeout(timer);
        resolve();
      });
    } catch {
      clearTimeout(timer);
      resolve();
    }
  });
}

// A last synchronous flush for exits that did not wait for flushLogs.
process.on('exit', () => {
  try {
    destination.flushSync();
  } catch {
    // Nothing buffered, a write in flight, or stdout gone: nothing more can be done here.
  }
});

export type Logger = typeof logger;
