import { parse as parseUrl } from 'node:url';
import express, { ErrorRequestHandler, Express, RequestHandler } from 'express';
import { expressMiddleware } from '@as-integrations/express5';
import type { ApolloServer } from '@apollo/server';
import fc from 'fast-check';
import request from 'supertest';
import { authenticate } from '../../src/auth/authenticate';
import type { RequestContext } from '../../src/data/context';
import { compression } from '../../src/ops/compression';
import { graphqlHandler, searchOf } from '../../src/graphql/http';
import { createApolloServer } from '../../src/graphql/server';
import { graphqlUploads, receiveUploads } from '../../src/graphql/uploads';
import { JSON_LIMIT } from '../../src/rest/router';
import { GQL_INVOICES } from '../../bench/setup';
import { createTenant, gql, useTestApp } from '../helpers/app';

// The /graphql handlers (src/graphql/http.ts, src/app.ts) against what they replaced: Apollo's
// express integration (`expressMiddleware`) in a sub-app of its own. Both wirings serve the same
// Apollo server behind the same middleware; every answer must be the same: status, headers, body.

const t = useTestApp();

type Wiring = 'sub-app with expressMiddleware' | 'handlers with graphqlHandler';

/** graphqlUploads as it was: type-is asked on every request. */
function uploadsBefore(maxFileSize: number): RequestHandler {
  const receive = receiveUploads(maxFileSize);
  return (req, res, next) => (req.is('multipart/form-data') ? receive(req, res, next) : next());
}

function appWith(wiring: Wiring, apollo: ApolloServer<RequestContext>): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', ['loopback']);
  app.use(compression());
  // As the app's auth middleware: the context, and what express tells the handlers of the request.
  const auth: RequestHandler = async (req, res, next) => {
    try {
      req.ctx = await authenticate(t.orm, req, 'test', null);
      req.ctx.baseUrl = `${req.protocol}://${req.get('host')}`;
      res.setHeader('x-seen', JSON.stringify([req.ctx.baseUrl, req.ip, req.baseUrl, req.url, req.originalUrl, req.path, req.secure]));
      next();
    } catch (err) {
      next(err);
    }
  };
  const json = express.json({ limit: JSON_LIMIT });
  if (wiring === 'handlers with graphqlHandler') {
    app.use('/graphql', auth, graphqlUploads(1 << 20), json, graphqlHandler(apollo));
  } else {
    const sub = express();
    sub.disable('x-powered-by');
    sub.set('etag', false);
    sub.use(auth, uploadsBefore(1 << 20), json, expressMiddleware(apollo, { context: async ({ req }) => req.ctx! }));
    app.use('/graphql', sub);
  }
  app.use((_req, res) => void res.status(404).json({ notFound: true }));
  const errors: ErrorRequestHandler = (err, req, res, _next) => void res.status(err.status ?? 500).json({ error: String(err.message ?? err), code: err.code ?? null, path: req.path, baseUrl: req.baseUrl });
  app.use(errors);
  return app;
}

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: string;
}

async function answer(app: Express, make: (app: Express) => request.Test): Promise<Answer> {
  const res = await make(app).set('Host', 'crm.example').buffer(true).parse((r, done) => {
    const chunks: Buffer[] = [];
    r.on('data', (c: Buffer) => chunks.push(c));
    r.on('end', () => done(null, Buffer.concat(chunks).toString('latin1')));
  });
  const headers = { ...res.headers };
  delete headers.date;
  return { status: res.status, headers, body: res.body as string };
}

describe('the /graphql handlers', () => {
  let apollo: ApolloServer<RequestContext>;
  beforeAll(async () => {
    apollo = await createApolloServer({ maxDepth: 10, maxCost: 25_000, maxFields: 500 });
  });
  afterAll(async () => {
    await apollo?.stop();
  });

  it('answer every kind of request as Apollo’s express integration in a sub-app did', async () => {
    const a = await createTenant(t);
    await gql(t, a, 'mutation { createCustomer(input: { firstName: "Ada", lastName: "Lovelace" }) { uuid } }');
    const before = appWith('sub-app with expressMiddleware', apollo);
    const after = appWith('handlers with graphqlHandler', apollo);
    const key = `Bearer ${a.key}`;
    // Over 1 KB: compressed when the client accepts it (src/ops/compression.ts).
    const large = `{ ${Array.from({ length: 30 }, (_, i) => `c${i}: company { uuid name }`).join(' ')} }`;
    const cases: [string, (app: Express) => request.Test][] = [
      ['a query', (app) => request(app).post('/graphql').set('Authorization', key).send({ query: '{ company { name } }' })],
      ['a page of invoices, compressed', (app) => request(app).post('/graphql').set('Authorization', key).set('Accept-Encoding', 'gzip').send({ query: GQL_INVOICES, variables: { limit: 100 } })],
      ['a large answer, compressed with gzip', (app) => request(app).post('/graphql').set('Authorization', key).set('Accept-Encoding', 'gzip').send({ query: large })],
      ['a large answer, compressed with br', (app) => request(app).post('/graphql').set('Authorization', key).set('Accept-Encoding', 'br, gzip').send({ query: large })],
      ['a large answer, not compressed', (app) => request(app).post('/graphql').set('Authorization', key).send({ query: large })],
      ['an operation name and variables', (app) => request(app).post('/graphql').set('Authorization', key).send({ query: 'query A { company { name } } query B($l: Int) { customers(limit: $l) { items { lastName } } }', operationName: 'B', variables: { l: 5 } })],
      ['a document that does not parse', (app) => request(app).post('/graphql').set('Authorization', key).send({ query: '{ company { name }' })],
      ['a field that does not exist', (app) => request(app).post('/graphql').set('Authorization', key).send({ query: '{ nope }' })],
      ['variables of the wrong type', (app) => request(app).post('/graphql').set('Authorization', key).send({ query: 'query Q($l: Int) { customers(limit: $l) { items { uuid } } }', variables: { l: 'x' } })],
      ['a mutation refused by validation', (app) => request(app).post('/graphql').set('Authorization', key).send({ query: 'mutation { createCustomer(input: { firstName: "", lastName: "" }) { uuid } }' })],
      ['an Accept of graphql-response+json', (app) => request(app).post('/graphql').set('Authorization', key).set('Accept', 'application/graphql-response+json').send({ query: '{ company { name } }' })],
      ['an Accept it cannot answer', (app) => request(app).post('/graphql').set('Authorization', key).set('Accept', 'text/plain').send({ query: '{ company { name } }' })],
      ['a GET query', (app) => request(app).get('/graphql').query({ query: '{ company { name } }' }).set('Authorization', key).set('apollo-require-preflight', 'true')],
      ['a GET query with escapes and quotes', (app) => request(app).get("/graphql?query=%7B%20company%20%7B%20name%20%7D%20%7D&x='a'&y=[1]").set('Authorization', key).set('apollo-require-preflight', 'true')],
      ['a GET query with characters url.parse escapes', (app) => request(app).get('/graphql?query={company{name}}&z=a|b^c').set('Authorization', key).set('apollo-require-preflight', 'true')],
      ['a GET query refused by CSRF prevention', (app) => request(app).get('/graphql').query({ query: '{ company { name } }' }).set('Authorization', key)],
      ['a GET mutation', (app) => request(app).get('/graphql').query({ query: 'mutation { deleteCustomer(uuid: "00000000-0000-0000-0000-000000000000") { success } }' }).set('Authorization', key).set('apollo-require-preflight', 'true')],
      ['a GET of a sub-path', (app) => request(app).get('/graphql/more?query={company{name}}').set('Authorization', key).set('apollo-require-preflight', 'true')],
      ['a GET with a double slash', (app) => request(app).get('/graphql//x?query={company{name}}').set('Authorization', key).set('apollo-require-preflight', 'true')],
      ['a PUT', (app) => request(app).put('/graphql').set('Authorization', key).send({ query: '{ company { name } }' })],
      ['a HEAD', (app) => request(app).head('/graphql').set('Authorization', key)],
      ['an OPTIONS', (app) => request(app).options('/graphql').set('Authorization', key)],
      ['a batch', (app) => request(app).post('/graphql').set('Authorization', key).send([{ query: '{ company { name } }' }])],
      ['an empty object', (app) => request(app).post('/graphql').set('Authorization', key).send({})],
      ['a body of text/plain', (app) => request(app).post('/graphql').set('Authorization', key).set('Content-Type', 'text/plain').send('{ company { name } }')],
      ['JSON that does not parse', (app) => request(app).post('/graphql').set('Authorization', key).set('Content-Type', 'application/json').send('{"query": ')],
      ['a malformed multipart request', (app) => request(app).post('/graphql').set('Authorization', key).set('Content-Type', 'multipart/form-data; boundary=x').set('apollo-require-preflight', 'true').send('--x\r\nContent-Disposition: form-data; name="operations"\r\n\r\nnot json\r\n--x--\r\n')],
      ['a multipart request', (app) => request(app).post('/graphql').set('Authorization', key).set('apollo-require-preflight', 'true').field('operations', JSON.stringify({ query: '{ company { name } }' })).field('map', '{}')],
      ['a multipart request in capitals', (app) => request(app).post('/graphql').set('Authorization', key).set('apollo-require-preflight', 'true').set('Content-Type', 'MULTIPART/FORM-DATA; boundary=x').send(`--x\r\nContent-Disposition: form-data; name="operations"\r\n\r\n${JSON.stringify({ query: '{ company { name } }' })}\r\n--x\r\nContent-Disposition: form-data; name="map"\r\n\r\n{}\r\n--x--\r\n`)],
      ['no key', (app) => request(app).post('/graphql').send({ query: '{ company { name } }' })],
      ['a forwarded protocol', (app) => request(app).post('/graphql').set('Authorization', key).set('X-Forwarded-Proto', 'https').set('X-Forwarded-For', '203.0.113.9').send({ query: '{ company { name } }' })],
    ];
    for (const [name, make] of cases) {
      const old = await answer(before, make);
      const now = await answer(after, make);
      expect({ case: name, ...now }).toEqual({ case: name, ...old });
    }
    // The cases reach Apollo (not only the error paths), compressed where the body is large.
    const byName = new Map(cases);
    const page = await answer(after, byName.get('a large answer, compressed with br')!);
    expect(page.status).toBe(200);
    expect(page.headers['content-encoding']).toBe('br');
    for (const name of ['a GET query with escapes and quotes', 'a multipart request', 'a multipart request in capitals']) {
      expect(JSON.parse((await answer(after, byName.get(name)!)).body).data.company.name).toBe('Acme Plumbing');
    }
  });
});

describe('searchOf', () => {
  it('is url.parse(url).search ?? "" for any URL', () => {
    const char = fc.constantFrom(...'/?&=#%[]\'"{}|\\^`<> \taZ09-._~!$()*+,;:@é\u2028'.split(''));
    const same = (url: string) => {
      const expected = (() => {
        try {
          return parseUrl(url).search ?? '';
        } catch (e) {
          return `throws ${(e as Error).name}`;
        }
      })();
      const got = (() => {
        try {
          return searchOf(url);
        } catch (e) {
          return `throws ${(e as Error).name}`;
        }
      })();
      // expect() only on a difference: 20,000 calls of it cost more than the checks.
      if (got !== expected) expect(got).toBe(expected);
    };
    for (const url of ['/', '/?', '/?a=1', '/?a=1#x', '//x?y', "/?a='1'", '/?q={a}', '/a:b?c@d', '?x', 'a:b?c']) same(url);
    fc.assert(fc.property(fc.boolean(), fc.array(char, { maxLength: 16 }), (slash, chars) => same((slash ? '/' : '') + chars.join(''))), { numRuns: 20_000 });
  });
});
