import type { RequestHandler } from 'express';
import { logger } from '../logger';
import { clientAddress } from '../auth/ip-allow-list';
import { routeLabel } from './route-label';

/**
 * One JSON line per request when it ends: request id, company and key id (never the key or any
 * header), method, route pattern, status and duration. 5xx lines are errors; a client that went
 * away before the response is logged as aborted.
 */
export function requestLog(trustProxy: boolean): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    let done = false;
    const write = (aborted: boolean) => {
      if (done) return;
      done = true;
      const entry = {
        requestId: req.requestId,
        method: req.method,
        route: routeLabel(req),
        path: req.originalUrl.split('?')[0],
        status: aborted ? null : res.statusCode,
        durationMs: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
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
