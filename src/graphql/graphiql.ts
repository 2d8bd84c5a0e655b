import fs from 'node:fs';
import path from 'node:path';
import type { RequestHandler } from 'express';
import { AppError } from '../errors/app-error';
import { logger } from '../logger';
import { chooseEncoding } from '../ops/compression';

// /graphql in a browser: GraphiQL, bundled at build time by scripts/build-graphiql.js from
// src/graphql/graphiql/page.jsx into dist/graphiql/ and served by this server from
// /graphql/assets/: no CDN, no other host, no inline script (the CSP's `script-src 'self'`), so it
// works offline. Apollo's landing page, which loads its CDN, is disabled (src/graphql/server.ts).

/** Where scripts/build-graphiql.js writes the bundle: dist/graphiql under the project's root. */
function bundleDir(): string {
  // This file runs from src/graphql (tests, ts-node) or dist/src/graphql (npm start).
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return path.join(dir, 'dist', 'graphiql');
}

export const ASSETS_PATH = '/graphql/assets';
const CODINGS = { br: '.br', gzip: '.gz' } as const;
const TYPES: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8' };

interface Asset {
  type: string;
  /** The file as it is and compressed. */
  bodies: { identity: Buffer; br: Buffer; gzip: Buffer };
}

function page(files: { js: string; css: string }): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>GraphiQL · field-service-crm</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${ASSETS_PATH}/${files.css}">
<script defer src="${ASSETS_PATH}/${files.js}"></script></head>
<body><div id="graphiql"><noscript>GraphiQL needs JavaScript; without it, POST queries to /graphql with an API key.</noscript></div></body></html>
`;
}

/** The bundle read once: the page, and its files by name (all of them kept in memory, ~2.5 MB). */
function loadBundle(dir = bundleDir()): { html: string; assets: Map<string, Asset> } | null {
  let files: { js: string; css: string };
  try {
    files = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')).files;
    const assets = new Map<string, Asset>();
    for (const [kind, name] of Object.entries(files)) {
      const read = (suffix: string) => fs.readFileSync(path.join(dir, name + suffix));
      assets.set(name, { type: TYPES[kind], bodies: { identity: read(''), br: read(CODINGS.br), gzip: read(CODINGS.gzip) } });
    }
    return { html: page(files), assets };
  } catch (err) {
    logger.warn({ err, dir }, 'GraphiQL is not built (node scripts/build.js builds it): /graphql in a browser answers 500');
    return null;
  }
}

/** GET /graphql from a browser (it asks for HTML) and the page's files: [path, handler] of GET routes. */
export function graphiqlRoutes(dir?: string): Array<[string, RequestHandler]> {
  const bundle = loadBundle(dir);
  return [
    [
      '/graphql',
      (req, res, next) => {
        // Browsers ask for text/html first; GraphQL clients ask for JSON (a GET query).
        if (req.accepts(['application/json', 'application/graphql-response+json', 'text/html']) !== 'text/html') return next();
        res.vary('Accept').setHeader('Cache-Control', 'no-cache');
        if (!bundle) return void res.status(500).type('text').send('GraphiQL is not built: run `node scripts/build.js` (npm start does).\n');
        res.type('html').send(bundle.html);
      },
    ],
    [
      `${ASSETS_PATH}/:file`,
      (req, res, next) => {
        const asset = bundle?.assets.get(req.params.file as string);
        if (!asset) return next(new AppError('NOT_FOUND', 'Route not found'));
        // Named by their content's hash: a new bundle has new names, so these never change.
        res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
        res.vary('Accept-Encoding').type(asset.type);
        const coding = chooseEncoding(req.header('accept-encoding'));
        if (coding) res.setHeader('Content-Encoding', coding);
        res.send(asset.bodies[coding ?? 'identity']);
      },
    ],
  ];
}
