import { parse as parseUrl } from 'node:url';
import type { RequestHandler } from 'express';
import { ApolloServer, HeaderMap } from '@apollo/server';
import type { RequestContext } from '../data/context';

/**
 * Apollo Server on express: what `expressMiddleware` of @as-integrations/express5 does, with less
 * work per request (docs/benchmark.md, "GraphQL's per-request floor"). Every request still goes
 * through `executeHTTPGraphQLRequest` (plugins, limits, error formatting) and the answer through
 * `res.send`, which the compression middleware wraps (src/ops/compression.ts).
 * `@as-integrations/express5` is a development dependency only: test/graphql/http-handler.spec.ts
 * runs it beside this handler and compares every answer.
 *
 * The two differences: node gives `req.headers` with lower-case names already, so they are put in
 * Apollo's HeaderMap without its lower-casing and without a copy of the entries; and the query
 * string is cut from the URL directly when it is plain (`url.parse`, which the integration called on
 * every request, only when the URL holds a fragment or a character it would escape).
 */
export function graphqlHandler(server: ApolloServer<RequestContext>): RequestHandler {
  server.assertStarted('graphqlHandler()');
  const setLowerCase = Map.prototype.set;
  return async (req, res) => {
    if (!('body' in req)) {
      res.status(500);
      res.send('`req.body` is not set; this probably means you forgot to set up the `json` middleware before the Apollo Server middleware.');
      return;
    }
    const headers = new HeaderMap();
    const incoming = req.headers;
    for (const key in incoming) {
      const value = incoming[key];
      if (value !== undefined) setLowerCase.call(headers, key, typeof value === 'string' ? value : value.join(', '));
    }
    const response = await server.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: req.method.toUpperCase(), headers, search: searchOf(req.url), body: req.body },
      context: async () => req.ctx!,
    });
    for (const [key, value] of response.headers) res.setHeader(key, value);
    res.statusCode = response.status || 200;
    if (response.body.kind === 'complete') {
      res.send(response.body.string);
      return;
    }
    for await (const chunk of response.body.asyncIterator) {
      res.write(chunk);
      if (typeof (res as { flush?: () => void }).flush === 'function') (res as unknown as { flush: () => void }).flush();
    }
    res.end();
  };
}

/** Characters of a URL after which `url.parse` might give another search than the plain cut (a fragment, escapes). */
const UNPLAIN = /[^A-Za-z0-9\-._~!$&()*+,;=:@/?%[\]]/;

/** `url.parse(url).search ?? ''` (what the integration passed to Apollo), without parsing a plain URL. */
export function searchOf(url: string): string {
  // A path of one leading slash and plain characters; anything else (`//host`, `scheme:`) is parsed.
  if (url[0] !== '/' || url[1] === '/' || UNPLAIN.test(url)) return parseUrl(url).search ?? '';
  const q = url.indexOf('?');
  return q < 0 ? '' : url.slice(q);
}
