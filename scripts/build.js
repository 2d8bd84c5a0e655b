#!/usr/bin/env node
// Compiles the server's TypeScript (src/ and migrations/) to CommonJS under dist/, with SWC and the
// decorator settings jest uses (jest.config.js), so `npm start` runs plain JavaScript without
// ts-node and the TypeScript compiler in the process. dist/ mirrors the tree: src/main.ts becomes
// dist/src/main.js, and src/db/orm.ts's `../../migrations` still resolves.
//
// Incremental: dist/.build.json records each source's hash; a source whose hash and output are
// unchanged is not compiled again, and outputs whose source is gone are removed. A change to this
// script or to @swc/core's version rebuilds everything. Files are written to a temporary name and
// renamed, so two builds at once (a start and a benchmark) never leave a half-written file.
//
// Meanwhile the GraphiQL page of /graphql is bundled for the browser (scripts/build-graphiql.js,
// into dist/graphiql/), also only when one of its inputs changed.
//
// Usage: node scripts/build.js [--quiet]; or require('./scripts/build').build().
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { buildGraphiql } = require('./build-graphiql');

const ROOT = path.resolve(__dirname, '..');
const OUT = path.join(ROOT, 'dist');
const DIRS = ['src', 'migrations'];
const MANIFEST = path.join(OUT, '.build.json');
/** The compiled entry point of `npm start`. */
const MAIN = path.join(OUT, 'src', 'main.js');

function swcOptions(file, outFile) {
  return {
    filename: file,
    sourceFileName: path.relative(path.dirname(outFile), file).split(path.sep).join('/'),
    sourceMaps: true,
    inlineSourcesContent: false,
    swcrc: false,
    configFile: false,
    module: { type: 'commonjs' },
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      target: 'es2022',
      // Class names matter: MikroORM and TypeGraphQL name entities and types after them.
      keepClassNames: true,
    },
  };
}

function sources(dir) {
  const found = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...sources(p));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) found.push(p);
  }
  return found;
}

function outputs(dir) {
  if (!fs.existsSync(dir)) return [];
  const found = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...outputs(p));
    else found.push(p);
  }
  return found;
}

function writeAtomic(file, text) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

function readManifest(stamp) {
  try {
    const m = JSON.parse(fs.readFileSync(MANIFEST, 'utf8'));
    if (m.stamp === stamp) return m.files;
  } catch {
    // none yet, or unreadable: build everything
  }
  return {};
}

/** Builds what changed; returns { compiled, removed, total, graphiql, ms } (graphiql: buildGraphiql's answer). */
async function build() {
  const started = process.hrtime.bigint();
  const swc = require('@swc/core');
  const stamp = crypto
    .createHash('sha256')
    .update(fs.readFileSync(__filename))
    .update(require('@swc/core/package.json').version)
    .digest('hex');
  const previous = readManifest(stamp);
  // esbuild works in a process of its own: the bundle is made while SWC compiles.
  const bundling = buildGraphiql();
  const files = {};
  const expected = new Set();
  const pending = [];
  for (const dir of DIRS) {
    for (const file of sources(path.join(ROOT, dir))) {
      const rel = path.relative(ROOT, file).split(path.sep).join('/');
      const outFile = path.join(OUT, rel.replace(/\.ts$/, '.js'));
      expected.add(outFile).add(`${outFile}.map`);
      const text = fs.readFileSync(file, 'utf8');
      const hash = crypto.createHash('sha256').update(text).digest('hex');
      files[rel] = hash;
      if (previous[rel] === hash && fs.existsSync(outFile) && fs.existsSync(`${outFile}.map`)) continue;
      pending.push(
        swc.transform(text, swcOptions(file, outFile)).then((r) => {
          writeAtomic(`${outFile}.map`, r.map);
          writeAtomic(outFile, `${r.code}\n//# sourceMappingURL=${path.basename(outFile)}.map\n`);
        }),
      );
    }
  }
  const [graphiql] = await Promise.all([bundling, Promise.all(pending)]);
  let removed = 0;
  for (const dir of DIRS) {
    for (const file of outputs(path.join(OUT, dir))) {
      if (expected.has(file) || file.endsWith('.tmp')) continue;
      fs.rmSync(file, { force: true });
      removed++;
    }
  }
  writeAtomic(MANIFEST, JSON.stringify({ stamp, files }, null, 1) + '\n');
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  return { compiled: pending.length, removed, total: Object.keys(files).length, graphiql, ms };
}

module.exports = { build, MAIN, OUT };

if (require.main === module) {
  build().then(
    (r) => {
      if (!process.argv.includes('--quiet')) {
        const what = r.compiled ? `compiled ${r.compiled} of ${r.total} files into dist/` : `dist/ is up to date (${r.total} files)`;
        const page = r.graphiql.bundled ? `, bundled GraphiQL (${Math.round(r.graphiql.bytes.js / 1024)} KiB JS, ${Math.round(r.graphiql.bytes.css / 1024)} KiB CSS) in ${Math.round(r.graphiql.ms)} ms` : '';
        process.stderr.write(`build: ${what}${r.removed ? `, removed ${r.removed} stale` : ''}${page} in ${Math.round(r.ms)} ms\n`);
      }
    },
    (err) => {
      process.stderr.write(`build failed: ${err && err.message ? err.message : err}\n`);
      process.exit(1);
    },
  );
}
