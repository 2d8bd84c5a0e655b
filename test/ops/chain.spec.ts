import http from 'node:http';
import express, { ErrorRequestHandler, RequestHandler } from 'express';
import request from 'supertest';
import { chain } from '../../src/ops/chain';

// chain(a, b, c) as one layer must behave as the layers a, b, c (src/ops/chain.ts): the same
// handlers run in the same order with the same view of the URL, and the same answer goes out,
// for handlers that go on, answer, fail in each way express knows, or skip with 'route'/'router'.

type Kind = 'next' | 'async-next' | 'answer' | 'throw' | 'reject' | 'reject-undefined' | 'next-error' | 'next-route' | 'next-router' | 'next-false' | 'deferred-next';
const KINDS: Kind[] = ['next', 'async-next', 'answer', 'throw', 'reject', 'reject-undefined', 'next-error', 'next-route', 'next-router', 'next-false', 'deferred-next'];

function handler(name: string, kind: Kind): RequestHandler {
  return (req, res, next) => {
    const seen = ((req as any).seen ??= []) as string[];
    seen.push(`${name}:${kind}:${req.baseUrl}|${req.url}|${req.path}`);
    switch (kind) {
      case 'next':
        return next();
      case 'async-next':
        return Promise.resolve().then(() => next());
      case 'answer':
        res.status(201).json({ by: name, seen });
        return;
      case 'throw':
        throw new Error(`thrown by ${name}`);
      case 'reject':
        return Promise.reject(new Error(`rejected by ${name}`));
      case 'reject-undefined':
        return Promise.reject(undefined);
      case 'next-error':
        return next(new Error(`passed by ${name}`));
      case 'next-route':
        return next('route');
      case 'next-router':
        return next('router');
      case 'next-false':
        return (next as (e: unknown) => void)(false);
      case 'deferred-next':
        setImmediate(() => next());
        return;
    }
  };
}

function appOf(mount: string, layers: RequestHandler[], joined: boolean) {
  const app = express();
  app.set('etag', false);
  if (mount) app.use(mount, ...(joined ? [chain(...layers)] : layers));
  else app.use(...(joined ? [chain(...layers)] : layers));
  // What comes after the layer: a route on the same path, then the 404 and the error handler.
  app.all(/.*/, (req, res) => void res.status(200).json({ after: true, seen: (req as any).seen ?? [], url: req.url, baseUrl: req.baseUrl }));
  const onError: ErrorRequestHandler = (err, req, res, _next) => void res.status(500).json({ error: String(err?.message ?? err), seen: (req as any).seen ?? [] });
  app.use(onError);
  return app;
}

function listening(app: express.Express): Promise<http.Server> {
  return new Promise((resolve) => {
    const server = http.createServer(app);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

it('runs handlers of every kind as the separate layers do, mounted at a path and not', async () => {
  let cases = 0;
  for (const mount of ['', '/api/v1']) {
    for (const first of KINDS) {
      for (const second of KINDS) {
        const layers = [handler('a', first), handler('b', second), handler('c', 'next')];
        // Each app listens once for its three requests (supertest would start a server per request).
        const servers = await Promise.all([appOf(mount, layers, false), appOf(mount, layers, true)].map(listening));
        try {
          for (const path of ['/api/v1/customers/1?x=1', '/api/v1', '/other']) {
            const [separate, joined] = await Promise.all(servers.map((server) => request(server).get(path)));
            expect({ path, status: joined.status, body: joined.body }).toEqual({ path, status: separate.status, body: separate.body });
            cases++;
          }
        } finally {
          for (const server of servers) server.closeAllConnections();
          await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
        }
      }
    }
  }
  expect(cases).toBe(2 * KINDS.length * KINDS.length * 3);
});

it('one handler is itself', () => {
  const only = handler('a', 'next');
  expect(chain(only)).toBe(only);
});
