import pino from 'pino';

// JSON logs. The API key itself is never logged: only its id.
export const logger = pino({
  level: process.env.LOG_LEVEL || (process.env.NODE_ENV === 'test' ? 'silent' : 'info'),
  redact: { paths: ['req.headers.authorization', 'headers.authorization', 'authorization'], censor: '[redacted]' },
  base: undefined,
});

export type Logger = typeof logger;
