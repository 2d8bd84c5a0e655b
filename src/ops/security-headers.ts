import type { RequestHandler } from 'express';
import helmet, { HelmetOptions } from 'helmet';

// The security headers of every response (helmet). No upgrade-insecure-requests: the server speaks
// plain HTTP (TLS, if any, ends at a proxy), and a browser told to upgrade would fetch /docs' own
// scripts over https from it and show nothing.
export const HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: { directives: { 'script-src': ["'self'"], 'style-src': ["'self'", "'unsafe-inline'"], 'img-src': ["'self'", 'data:'], 'upgrade-insecure-requests': null } },
};

type Value = string | number | readonly string[];
type Op = ['set', string, Value] | ['remove', string];

/**
 * helmet's headers, written by one function: helmet runs twelve middlewares per request, each
 * setting one header that does not depend on the request (the options above have no function
 * directives, no nonce). They are recorded once, from helmet itself on a recording response, and
 * set in the same order on every response; `precomputed` says whether that worked. Should helmet
 * ever read the request or finish asynchronously, its middleware is used as it is.
 * test/ops/security-headers.spec.ts compares the headers with helmet's.
 */
export function securityHeaders(options: HelmetOptions = HELMET_OPTIONS): RequestHandler & { precomputed: boolean } {
  const middleware = helmet(options);
  const ops: Op[] = [];
  let calls = 0;
  let failed: unknown = undefined;
  let readRequest = false;
  const req = new Proxy({}, { get: () => ((readRequest = true), undefined) });
  const res = { setHeader: (name: string, value: Value) => void ops.push(['set', name, value]), removeHeader: (name: string) => void ops.push(['remove', name]) };
  const recorder = new Proxy(res, { get: (target, p) => (p in target ? target[p as keyof typeof target] : ((readRequest = true), undefined)) });
  middleware(req as never, recorder as never, (err?: unknown) => {
    calls++;
    failed = err;
  });
  if (calls !== 1 || failed !== undefined || readRequest) return Object.assign(middleware as RequestHandler, { precomputed: false });
  const fast: RequestHandler = (_req, out, next) => {
    for (const op of ops) {
      if (op[0] === 'set') out.setHeader(op[1], op[2]);
      else out.removeHeader(op[1]);
    }
    next();
  };
  return Object.assign(fast, { precomputed: true });
}
