import type { RequestHandler } from 'express';
import { logger } from '../logger';
import { clientAddress } from '../auth/ip-allow-list';
import { routeLabel } from './route-label';

/** What a request's end tells the metrics (src/ops/metrics.ts): its method, route pattern, status and seconds. */
export type RequestObserver = (method: string, route: string, status: number, seconds: number) => void;

/**
 * One JSON line per request when it ends: request id, company and key id (never the key or any
 * header), method, route pattern, status and duration. 5xx lines are errors; a client that went
 * away before the response is logged as aborted. A request that finished is also handed to
 * `observe` (the metrics), from the same clock reading and route pattern: one pair of listeners
 * per request for both.
 */
export function requestLog(trustProxy: boolean, observe?: RequestObserver): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    let done = false;
    const write = (aborted: boolean) => {
      if (done) return;
      done = true;
      const nanos = Number(process.hrtime.bigint() - started);
      const route = routeLabel(req);
      if (!aborted) observe?.(req.method, route, res.statusCode, nanos / 1e9);
      const entry = {
        requestId: req.requestId,
        method: req.method,
        route,
        path: req.originalUrl.split('?')[0],
        status: aborted ? null : res.statusCode,
        durationMs: Math.round(nanos / 1e4) / 100,
        companyUuid: req.ctx?.companyId ?? null,
        keyId: req.ctx?.key.id ?? null,
        ip: clientAddress(req, trustProxy),
      };
      if (aborted) logger.warn(entry, 'request aborted');
      else if (res.statusCode >= 500) logger.error(entry, 'request');
      else logger.info(entry, 'request');
    };
    res.once('finish', () => write(false));
    res.once('close', () => write(!res.writableFinished));
    next();
  };
}
