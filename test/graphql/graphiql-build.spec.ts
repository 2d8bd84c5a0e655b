import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

// scripts/build-graphiql.js (the bundle of /graphql's GraphiQL, run by scripts/build.js) on a small
// entry of its own: it bundles only when a file it read, or an output, changed.
const { buildGraphiql } = require('../../scripts/build-graphiql.js') as {
  buildGraphiql(o: { entry: string; out: string }): Promise<{ bundled: boolean; bytes: { js: number; css: number } }>;
};

it('bundles the entry into hashed JS and CSS files, compressed, and again only when an input or an output changed', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'graphiql-build-'));
  const src = (name: string, text: string) => fs.writeFileSync(path.join(dir, name), text);
  src('entry.js', "import { greeting } from './greeting.js';\nimport './style.css';\ndocument.body.append(greeting);\n");
  src('greeting.js', "export const greeting = 'hello';\n");
  src('style.css', 'body { color: teal; }\n');
  src('unrelated.js', 'export const x = 1;\n');
  const out = path.join(dir, 'out');
  const build = () => buildGraphiql({ entry: path.join(dir, 'entry.js'), out });
  const manifest = () => JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8'));
  const js = () => fs.readFileSync(path.join(out, manifest().files.js), 'utf8');

  expect((await build()).bundled).toBe(true);
  const first = manifest().files;
  expect(first).toEqual({ js: expect.stringMatching(/^graphiql-[A-Z0-9]{8}\.js$/), css: expect.stringMatching(/^graphiql-[A-Z0-9]{8}\.css$/) });
  expect(js()).toContain('"hello"');
  expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(out, `${first.js}.br`))).toString()).toBe(js());
  expect(zlib.gunzipSync(fs.readFileSync(path.join(out, `${first.css}.gz`))).toString()).toMatch(/color:\s*teal/);
  expect((await build()).bundled).toBe(false);
  src('unrelated.js', 'export const x = 2;\n');
  expect((await build()).bundled).toBe(false);

  // An input changed: new names, the old files removed.
  src('greeting.js', "export const greeting = 'hi there';\n");
  expect((await build()).bundled).toBe(true);
  expect(manifest().files.js).not.toBe(first.js);
  expect(manifest().files.css).toBe(first.css);
  expect(js()).toContain('"hi there"');
  expect(fs.readdirSync(out).sort()).toEqual(['manifest.json', ...[manifest().files.js, manifest().files.css].flatMap((n) => [n, `${n}.br`, `${n}.gz`])].sort());
  // An output gone.
  fs.rmSync(path.join(out, `${manifest().files.css}.br`));
  expect((await build()).bundled).toBe(true);
  expect((await build()).bundled).toBe(false);
  fs.rmSync(dir, { recursive: true, force: true });
});
