import { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';

/** node:http server options that make the app's request and response objects (http.createServer(options, app)). */
export interface RequestClasses {
  IncomingMessage: typeof IncomingMessage;
  ServerResponse: typeof ServerResponse;
}

/**
 * Classes whose instances are an express app's request and response from the start, for node's
 * server to create (docs/benchmark.md, "Express's prototype swap"). Express gives every request
 * and response its app's prototypes with `Object.setPrototypeOf` when it handles them, which
 * engines do not optimise: measured on a plain express JSON route, ~6 KB of every request was
 * promoted to the old space with the swap and none without, at about a quarter of the CPU. An
 * object made by these classes already has the app's prototype, so express's swap changes nothing.
 *
 * The app's `request` and `response` become the classes' prototypes, with the same chain behind
 * them (express's request and response, then node's), so a request that arrives through a server
 * made without these options (supertest's) is swapped onto the same prototypes as before.
 * test/ops/request-classes.spec.ts compares the answers of both servers over one app.
 */
export function requestClasses(app: Express): RequestClasses {
  class AppRequest extends IncomingMessage {}
  class AppResponse extends ServerResponse {}
  adopt(AppRequest.prototype, app.request);
  adopt(AppResponse.prototype, app.response);
  app.request = AppRequest.prototype as Express['request'];
  app.response = AppResponse.prototype as Express['response'];
  return { IncomingMessage: AppRequest, ServerResponse: AppResponse as unknown as typeof ServerResponse };
}

/** `proto` takes the place of `current`: the same prototype behind it and the same own properties (`app`). */
function adopt(proto: object, current: object): void {
  Object.setPrototypeOf(proto, Object.getPrototypeOf(current));
  const { constructor: _ignored, ...own } = Object.getOwnPropertyDescriptors(current) as Record<string, PropertyDescriptor>;
  Object.defineProperties(proto, own);
}
