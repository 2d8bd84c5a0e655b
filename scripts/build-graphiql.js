// The GraphiQL page of /graphql (src/graphql/graphiql/page.jsx) bundled by esbuild into
// dist/graphiql/: one JS and one CSS file named by their content's hash, each also compressed
// (.br, .gz) so that the server sends them without compressing per request, and manifest.json,
// which names them and which src/graphql/graphiql.ts reads.
//
// Bundled only when an input changed: the manifest records every file esbuild read (the entry,
// GraphiQL, React, ...) with its size, time and hash, and this script's own and esbuild's version;
// when all are the same (a file of another time but the same bytes counts as the same) and the
// outputs exist, nothing is done. Used by scripts/build.js.
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

const ROOT = path.resolve(__dirname, '..');
const ENTRY = path.join(ROOT, 'src/graphql/graphiql/page.jsx');
/** The bundle's folder; src/graphql/graphiql.ts reads the same path. */
const OUT = path.join(ROOT, 'dist/graphiql');

const sha256 = (data) => crypto.createHash('sha256').update(data).digest('hex');

function writeAtomic(file, data) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, data);
  fs.renameSync(tmp, file);
}

function stampOf() {
  return sha256(fs.readFileSync(__filename) + require('esbuild/package.json').version);
}

/** The manifest when every input and output is as it recorded, else null. */
function current(stamp, out) {
  let m;
  try {
    m = JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8'));
  } catch {
    return null;
  }
  if (m.stamp !== stamp) return null;
  for (const name of Object.values(m.files)) {
    for (const suffix of ['', '.br', '.gz']) if (!fs.existsSync(path.join(out, name + suffix))) return null;
  }
  for (const [file, seen] of Object.entries(m.inputs)) {
    const p = path.join(ROOT, file);
    try {
      // Its size and time as recorded: unchanged, not read again (as make); else its bytes decide.
      const st = fs.statSync(p);
      if (st.size === seen.size && st.mtimeMs === seen.mtimeMs) continue;
      if (sha256(fs.readFileSync(p)) !== seen.sha256) return null;
    } catch {
      return null;
    }
  }
  return m;
}

/**
 * Bundles when an input changed; returns { bundled, bytes: { js, css } (uncompressed), ms }.
 * `entry` and `out` are for the tests (test/graphql/graphiql-build.spec.ts).
 */
async function buildGraphiql({ entry = ENTRY, out = OUT } = {}) {
  const started = process.hrtime.bigint();
  const stamp = stampOf();
  const ms = () => Number(process.hrtime.bigint() - started) / 1e6;
  const kept = current(stamp, out);
  if (kept) return { bundled: false, bytes: kept.bytes, ms: ms() };
  const esbuild = require('esbuild');
  const result = await esbuild.build({
    entryPoints: { graphiql: entry },
    absWorkingDir: ROOT,
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: ['es2020'],
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    entryNames: '[name]-[hash]',
    outdir: out,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const files = {};
  const bytes = {};
  for (const file of result.outputFiles) {
    const kind = path.extname(file.path).slice(1);
    const name = path.basename(file.path);
    files[kind] = name;
    bytes[kind] = file.contents.length;
    writeAtomic(file.path, file.contents);
    // Compressed once here instead of at level 1 on every request. Brotli at quality 9: the JS
    // (1.3 MB) in 0.3 s to 404 KB, where 11 took 5 s for 369 KB.
    writeAtomic(`${file.path}.br`, zlib.brotliCompressSync(file.contents, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: file.contents.length } }));
    writeAtomic(`${file.path}.gz`, zlib.gzipSync(file.contents, { level: 9 }));
  }
  if (!files.js || !files.css) throw new Error(`esbuild gave ${Object.keys(files).join(', ')}, not one JS and one CSS file`);
  const inputs = {};
  for (const file of Object.keys(result.metafile.inputs)) {
    const p = path.join(ROOT, file);
    const { size, mtimeMs } = fs.statSync(p);
    inputs[file] = { size, mtimeMs, sha256: sha256(fs.readFileSync(p)) };
  }
  writeAtomic(path.join(out, 'manifest.json'), JSON.stringify({ stamp, files, bytes, inputs }, null, 1) + '\n');
  // Bundles of earlier inputs.
  const keep = new Set(['manifest.json', ...Object.values(files).flatMap((n) => [n, `${n}.br`, `${n}.gz`])]);
  for (const name of fs.readdirSync(out)) if (!keep.has(name) && !name.endsWith('.tmp')) fs.rmSync(path.join(out, name), { force: true });
  return { bundled: true, bytes, ms: ms() };
}

module.exports = { buildGraphiql, OUT };
