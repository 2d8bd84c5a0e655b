import { ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';

// The parts of the topology of docs/scaling.md, started on this machine: PostgreSQL clusters (a
// primary and streaming replicas made with pg_basebackup), PgBouncer in transaction mode and
// HAProxy in front of the servers. Used by `npm run scale-test` (deploy/scale-test.ts) and by the
// tests of test/scale/. The configuration files they write are the ones deploy/README.md describes.

const execFileAsync = promisify(execFile);

/** PostgreSQL 15's binaries (Debian's postgresql-15); PG_BIN overrides. */
export const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
export const PGBOUNCER = process.env.PGBOUNCER_BIN ?? '/usr/sbin/pgbouncer';
export const HAPROXY = process.env.HAPROXY_BIN ?? '/usr/sbin/haproxy';

/** What is missing on this machine for a topology with clusters of its own (empty: nothing). */
export function missingBinaries(need: ('postgres' | 'pgbouncer' | 'haproxy')[] = ['postgres']): string[] {
  const files = { postgres: ['initdb', 'pg_ctl', 'pg_basebackup', 'postgres'].map((b) => path.join(PG_BIN, b)), pgbouncer: [PGBOUNCER], haproxy: [HAPROXY] };
  return need.flatMap((n) => files[n]).filter((f) => !fs.existsSync(f));
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** PostgreSQL and PgBouncer refuse to run as root: then they run as the `postgres` user. */
async function serviceIds(): Promise<{ uid?: number; gid?: number }> {
  if (process.getuid?.() !== 0) return {};
  const id = async (flag: string) => Number((await execFileAsync('id', [flag, 'postgres'])).stdout.trim());
  return { uid: await id('-u'), gid: await id('-g') };
}

function chownTree(dir: string, ids: { uid?: number; gid?: number }): void {
  if (ids.uid === undefined) return;
  fs.chownSync(dir, ids.uid, ids.gid!);
}

async function run(file: string, args: string[], ids: { uid?: number; gid?: number }, cwd?: string): Promise<string> {
  try {
    const { stdout } = await execFileAsync(file, args, { ...ids, cwd, env: { ...process.env, LC_ALL: 'C' } });
    return stdout;
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`${path.basename(file)} ${args.join(' ')} failed: ${e.stderr || e.message}`);
  }
}

export interface Cluster {
  port: number;
  dir: string;
  /** postgres://… of `database` on this cluster. */
  url(database?: string): string;
  /** pg_ctl stop -m fast (a replica stopped mid-run). */
  stop(): Promise<void>;
  start(): Promise<void>;
}

/**
 * A PostgreSQL 15 cluster in `dir` on a free port: a primary (initdb, WAL for streaming replicas),
 * or, with `primary`, a hot standby copied from it by pg_basebackup -R (streaming replication).
 */
export async function startCluster(dir: string, options: { primary?: Cluster; settings?: Record<string, string> } = {}): Promise<Cluster> {
  const ids = await serviceIds();
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  chownTree(dir, ids);
  const port = await freePort();
  if (options.primary) {
    await run(path.join(PG_BIN, 'pg_basebackup'), ['-h', '127.0.0.1', '-p', String(options.primary.port), '-U', 'postgres', '-D', dir, '-R', '-X', 'stream', '-c', 'fast'], ids, '/');
  } else {
    await run(path.join(PG_BIN, 'initdb'), ['-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '-D', dir], ids, '/');
  }
  const settings: Record<string, string> = {
    listen_addresses: "'127.0.0.1'",
    port: String(port),
    unix_socket_directories: `'${dir}'`,
    wal_level: 'replica',
    max_wal_senders: '10',
    hot_standby: 'on',
    // A standby's queries are not cancelled by the primary's vacuum for 30 s (lag-tolerant reads are short).
    max_standby_streaming_delay: '30s',
    hot_standby_feedback: 'on',
    max_connections: '200',
    shared_buffers: '64MB',
    // A throwaway cluster on a shared machine: no fsync (the faults of the scale test kill
    // application processes, never PostgreSQL).
    fsync: 'off',
    full_page_writes: 'off',
    ...options.settings,
  };
  fs.appendFileSync(path.join(dir, 'postgresql.conf'), '\n' + Object.entries(settings).map(([k, v]) => `${k} = ${v}`).join('\n') + '\n');
  const pgCtl = (args: string[]) => run(path.join(PG_BIN, 'pg_ctl'), ['-D', dir, ...args], ids, '/');
  const cluster: Cluster = {
    port,
    dir,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    start: async () => void (await pgCtl(['-w', '-t', '60', '-l', path.join(dir, 'server.log'), 'start'])),
    stop: async () => void (await pgCtl(['-w', '-t', '60', '-m', 'fast', 'stop']).catch(() => undefined)),
  };
  await cluster.start();
  return cluster;
}

/** Waits until the standby at `replica` has replayed the primary's current WAL position. */
export async function waitForReplay(primaryUrl: string, replicaUrl: string, timeoutMs = 60_000): Promise<void> {
  const p = new Client({ connectionString: primaryUrl });
  const r = new Client({ connectionString: replicaUrl });
  await p.connect();
  await r.connect();
  try {
    const { rows } = await p.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn');
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { rows: ok } = await r.query<{ ok: boolean }>('select pg_last_wal_replay_lsn() >= $1::pg_lsn as ok', [rows[0].lsn]);
      if (ok[0].ok) return;
      if (Date.now() > deadline) throw new Error('the replica did not catch up');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await p.end();
    await r.end();
  }
}

export interface Service {
  port: number;
  proc: ChildProcess;
  log(): string;
  stop(): Promise<void>;
}

/** PgBouncer's configuration: transaction pooling in front of the server at host:port (deploy/pgbouncer.ini is the same, with placeholders). */
export function pgbouncerIni(o: { dir: string; port: number; serverHost: string; serverPort: number; poolSize?: number; password?: string }): string {
  return [
    '[databases]',
    // Every database of the server, logging in as postgres (auth_type any: PgBouncer listens on
    // the loopback only and logs in to the server itself).
    `* = host=${o.serverHost} port=${o.serverPort} user=postgres${o.password ? ` password=${o.password}` : ''}`,
    '',
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${o.port}`,
    'unix_socket_dir =',
    'auth_type = any',
    'pool_mode = transaction',
    'max_client_conn = 1000',
    `default_pool_size = ${o.poolSize ?? 20}`,
    'ignore_startup_parameters = extra_float_digits,options',
    'server_reset_query =',
    `logfile = ${path.join(o.dir, 'pgbouncer.log')}`,
    `pidfile = ${path.join(o.dir, 'pgbouncer.pid')}`,
    'log_connections = 0',
    'log_disconnections = 0',
    '',
  ].join('\n');
}

async function waitForPort(port: number, proc: ChildProcess, log: () => string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`exited with ${proc.exitCode}: ${log()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => (s.destroy(), resolve(true)));
      s.on('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on ${port}: ${log()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function service(file: string, args: string[], port: number, ids: { uid?: number; gid?: number }): Service {
  const proc = spawn(file, args, { ...ids, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (d) => (out += String(d)));
  proc.stderr!.on('data', (d) => (out += String(d)));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  return {
    port,
    proc,
    log: () => out,
    stop: async () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    },
  };
}

/** Debian's PgBouncer (1.18) on a free port in front of the PostgreSQL server at serverPort. */
export async function startPgbouncer(dir: string, serverPort: number, serverHost = '127.0.0.1', o: { poolSize?: number; password?: string } = {}): Promise<Service> {
  const ids = await serviceIds();
  fs.mkdirSync(dir, { recursive: true });
  chownTree(dir, ids);
  const port = await freePort();
  const ini = path.join(dir, 'pgbouncer.ini');
  fs.writeFileSync(ini, pgbouncerIni({ dir, port, serverHost, serverPort, ...o }));
  const s = service(PGBOUNCER, [ini], port, ids);
  await waitForPort(port, s.proc, () => s.log() + (fs.existsSync(path.join(dir, 'pgbouncer.log')) ? fs.readFileSync(path.join(dir, 'pgbouncer.log'), 'utf8') : ''));
  return s;
}

/**
 * HAProxy's configuration (deploy/haproxy.cfg is the same, with placeholders): round robin over
 * the servers, each checked on GET /ready every `checkMs` (two failures take it out, the interval
 * is shortened to `checkMs`/2 while it fails), a failed connection retried on another server.
 */
export function haproxyCfg(o: { port: number; servers: number[]; checkMs?: number; statsPort?: number }): string {
  const inter = o.checkMs ?? 500;
  return [
    'global',
    '  maxconn 4096',
    '',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    // A check answered within 2 s is a pass (a busy server is slow, not dead); a killed one refuses at once.
    '  timeout check 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  timeout http-keep-alive 5s',
    // Connections to the servers are kept and reused (HAProxy's default, http-reuse safe): one
    // closed after each request cost each request a connection's setup on both sides. A request
    // sent on one the server closed meanwhile (its keep-alive timeout, a drain) gets no response
    // and is retried (empty-response, below).
    // A request whose connection is refused (a killed server) goes to another one.
    '  retries 3',
    '  option redispatch 1',
    '  retry-on conn-failure empty-response response-timeout',
    '',
    'frontend api',
    `  bind 127.0.0.1:${o.port}`,
    '  default_backend servers',
    '',
    'backend servers',
    '  balance roundrobin',
    '  option httpchk GET /ready',
    '  http-check expect status 200',
    `  default-server inter ${inter} fastinter ${Math.max(100, Math.floor(inter / 2))} downinter ${inter} fall 2 rise 2`,
    ...o.servers.map((p, i) => `  server s${i + 1} 127.0.0.1:${p} check`),
    ...(o.statsPort ? ['', 'frontend stats', `  bind 127.0.0.1:${o.statsPort}`, '  stats enable', '  stats uri /stats', '  stats refresh 1s'] : []),
    '',
  ].join('\n');
}

/** Debian's HAProxy in the foreground, on a free port, in front of the server ports. */
export async function startHaproxy(dir: string, servers: number[], checkMs?: number): Promise<Service & { statsPort: number }> {
  fs.mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const statsPort = await freePort();
  const cfg = path.join(dir, 'haproxy.cfg');
  fs.writeFileSync(cfg, haproxyCfg({ port, servers, checkMs, statsPort }));
  const s = service(HAPROXY, ['-db', '-f', cfg], port, {});
  await waitForPort(port, s.proc, s.log);
  return { ...s, statsPort };
}

/** HAProxy's view of each server: name → status (UP, DOWN, …), from its stats CSV. */
export async function haproxyStatus(statsPort: number): Promise<Record<string, string>> {
  const res = await fetch(`http://127.0.0.1:${statsPort}/stats;csv`);
  const lines = (await res.text()).split('\n').filter((l) => l.startsWith('servers,'));
  return Object.fromEntries(lines.map((l) => l.split(',')).filter((c) => c[1] !== 'BACKEND').map((c) => [c[1], c[17]]));
}
