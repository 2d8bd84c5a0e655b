import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ensurePeers, NODE22, POSTGRAPHILE } from './peers';
import { Proc, ROOT, startProcess } from './procs';

// The three servers of a run, each a process of its own over the same database.

const LISTENING = /"port":(\d+)[^\n]*listening on/;

/** The V8 heap setting of `npm start` (package.json "start"): old space capped at 160 MB. */
export const START_NODE_OPTIONS = `--max-old-space-size=160 ${process.env.NODE_OPTIONS ?? ''}`.trim();

/**
 * The Node.js that `npm start` runs the server with: the one running npm (`npm_node_execpath`), the
 * machine's. Outside npm: this process's own.
 */
export const SERVER_NODE = process.env.npm_node_execpath || process.execPath;

let built = false;
/** `npm start`'s first step: compiles src/ and migrations/ into dist/ (only what changed); once per run. */
export function buildServer(): void {
  if (built) return;
  const r = spawnSync(SERVER_NODE, [path.join(ROOT, 'scripts/build.js'), '--quiet'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`build failed (${r.error?.message ?? `exit ${r.status}`}):\n${r.stderr}`);
  built = true;
}

/** The project's server exactly as `npm start` runs it (the build in dist/, its Node, its heap setting), on a free port. */
export function startApiServer(env: Record<string, string>, name = 'server', nodeArgs: string[] = []): Promise<Proc> {
  buildServer();
  return startProcess(
    name,
    SERVER_NODE,
    [...nodeArgs, path.join(ROOT, 'dist/src/main.js')],
    { NODE_ENV: 'production', LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: '0', MIGRATE: 'true', SEED_DEMO: 'false', NODE_OPTIONS: START_NODE_OPTIONS, ...env },
    LISTENING,
  );
}

/** The raw baseline: node:http + pg, the same SQL and the same JSON, nothing else; on the server's Node. */
export function startBaseline(url: string, poolMax: number): Promise<Proc> {
  return startProcess(
    'baseline',
    SERVER_NODE,
    ['-r', 'ts-node/register/transpile-only', path.join(ROOT, 'bench/baseline.ts')],
    { DATABASE_URL: url, DB_POOL_MAX: String(poolMax) },
    /baseline listening on (\d+)/,
  );
}

/** PostGraphile 5 (amber preset) under Node 22, over the same database; both from bench/peers (installed on first use). */
export function startPostGraphile(url: string, poolMax: number): Promise<Proc> {
  ensurePeers();
  return startProcess(
    'postgraphile',
    NODE22,
    [POSTGRAPHILE],
    { DATABASE_URL: url, DB_POOL_MAX: String(poolMax), GRAPHILE_ENV: 'production', NODE_OPTIONS: '' },
    /postgraphile listening on (\d+)/,
  );
}
