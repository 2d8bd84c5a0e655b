import path from 'node:path';
import { NODE22, Proc, ROOT, startProcess } from './procs';

// The three servers of a run, each a process of its own over the same database.

const LISTENING = /"port":(\d+)[^\n]*listening on/;

/** The V8 heap setting of `npm start` (package.json "start"): old space capped at 160 MB. */
export const START_NODE_OPTIONS = `--max-old-space-size=160 ${process.env.NODE_OPTIONS ?? ''}`.trim();

/** The project's server exactly as `npm start` runs it (src/main.ts, its heap setting), on a free port. */
export function startApiServer(env: Record<string, string>, name = 'server'): Promise<Proc> {
  return startProcess(
    name,
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', path.join(ROOT, 'src/main.ts')],
    { NODE_ENV: 'production', LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: '0', MIGRATE: 'true', SEED_DEMO: 'false', NODE_OPTIONS: START_NODE_OPTIONS, ...env },
    LISTENING,
  );
}

/** The raw baseline: node:http + pg, the same SQL and the same JSON, nothing else. */
export function startBaseline(url: string, poolMax: number): Promise<Proc> {
  return startProcess(
    'baseline',
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', path.join(ROOT, 'bench/baseline.ts')],
    { DATABASE_URL: url, DB_POOL_MAX: String(poolMax) },
    /baseline listening on (\d+)/,
  );
}

/** PostGraphile 5 (amber preset) under Node 22, over the same database. */
export function startPostGraphile(url: string, poolMax: number): Promise<Proc> {
  return startProcess(
    'postgraphile',
    NODE22,
    [path.join(ROOT, 'bench/postgraphile.mjs')],
    { DATABASE_URL: url, DB_POOL_MAX: String(poolMax), GRAPHILE_ENV: 'production', NODE_OPTIONS: '' },
    /postgraphile listening on (\d+)/,
  );
}
