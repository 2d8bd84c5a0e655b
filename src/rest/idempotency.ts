import type { NextFunction, Request, Response } from 'express';
import { beginIdempotent, IDEMPOTENCY_HEADER } from '../data/idempotency';
import type { RouteDef } from './route';

/**
 * Idempotency-Key on a creating JSON route (`creates: true`): a replay answers with the first
 * response; otherwise the route runs inside the transaction that holds the key, and its response
 * is kept, and everything committed, before it is sent (src/data/idempotency.ts).
 */
export function idempotentRoute(route: RouteDef) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const key = req.header(IDEMPOTENCY_HEADER);
    if (key === undefined) return next();
    try {
      // The concrete path (parameters filled in), without a trailing slash.
      const scope = `${route.method} ${(req.baseUrl + req.path).replace(/\/+$/, '')}`;
      const start = await beginIdempotent(req.ctx!, scope, key, req.body);
      if (start.kind === 'replay') {
        res.setHeader('Idempotent-Replayed', 'true');
        res.json(start.response);
        return;
      }
      // The route runs in the key's transaction.
      req.ctx = start.ctx;
      const send = res.json.bind(res);
      let settled = false;
      res.json = (body: unknown) => {
        if (settled) return send(body);
        settled = true;
        const ok = res.statusCode === 200 && (body as { success?: boolean })?.success === true;
        (ok ? start.finish(body) : start.abandon()).then(
          () => send(body),
          (err) => {
            settled = false;
            next(err);
          },
        );
        return res;
      };
      // A client that goes away before the answer: everything is rolled back, the key is free.
      res.on('close', () => {
        if (!settled) void start.abandon().catch(() => undefined);
      });
      next();
    } catch (err) {
      next(err);
    }
  };
}
