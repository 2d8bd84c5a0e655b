import pino from 'pino';

// JSON logs. The API key itself is never logged: only its id.
// An unknown LOG_LEVEL is reported by the config check at start, not by pino at import time.
const requested = process.env.LOG_LEVEL?.trim().toLowerCase();
const level = requested && requested in pino.levels.values ? requested : requested === 'silent' ? 'silent' : process.env.NODE_ENV === 'test' ? 'silent' : 'info';

export const logger = pino({
  level,
  redact: { paths: ['req.headers.authorization', 'headers.authorization', 'authorization'], censor: '[redacted]' },
  base: undefined,
});

export type Logger = typeof logger;
