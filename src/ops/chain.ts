import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Several middlewares as one layer of express's router: `app.use(path, chain(a, b, c))` runs as
 * `app.use(path, a, b, c)` does (each handler's `next()` calls the following one, `next(err)` and
 * a throw or a rejected promise leave for the error handlers, the last `next()` goes on past the
 * layer, and every handler sees the same mount path), without the router matching the path,
 * trimming the URL and restoring it again for every one of them (docs/benchmark.md, "The shared
 * chain"). test/ops/chain.spec.ts compares the two on every kind of handler.
 */
export function chain(...handlers: RequestHandler[]): RequestHandler {
  if (handlers.length === 1) return handlers[0];
  return (req: Request, res: Response, next: NextFunction) => {
    let i = 0;
    const step = (err?: unknown): void => {
      // As the router: 'route' from a use-layer's handler goes on to the next layer, 'router' and
      // errors leave; any other falsy value is no error.
      if (err && err !== 'route') return next(err);
      const handler = handlers[i++];
      if (!handler) return next();
      try {
        const result: unknown = handler(req, res, step);
        if (result instanceof Promise) result.then(undefined, (e: unknown) => step(e || new Error('Rejected promise')));
      } catch (e) {
        step(e);
      }
    };
    step();
  };
}
