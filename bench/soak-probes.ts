import fs from 'node:fs';
import { Client } from 'pg';
import { cpuMsOf } from './procs';

// What the soak reads beside each minute's latency, to tell where a slow minute came from: the
// server's own latency histogram (its /metrics: how many answers it took over 100 ms to write,
// by route), its garbage collector's pauses, PostgreSQL's checkpoints, what the database's busy
// sessions were waiting for (sampled: a lock, the WAL's flush to the disk at a commit, …), and the
// machine's CPU (time spent waiting for the disk, and time the hypervisor gave to other machines:
// steal).
// A minute whose client-side p99 rises while the server measured no slow answers lost its time
// outside the server's handlers: in the kernel, the load generator, or the machine.

/** Cumulative counters at one instant; a minute's figures are the difference of two readings. */
export interface Reading {
  /** Per "METHOD route": [answers, answers over 100 ms] (the server's histogram). */
  routes: Map<string, [number, number]>;
  /** Seconds of garbage collection by kind (minor, major, incremental, weakcb). */
  gc: Map<string, number>;
  checkpoints: number | null;
  /** /proc/stat's first line: user, nice, system, idle, iowait, irq, softirq, steal (in ticks). */
  cpu: number[];
  /** The server process's CPU time (user + system), in milliseconds. */
  serverCpuMs: number;
}

export interface MinuteProbe {
  serverSlow: number;
  serverAnswers: number;
  /** The routes with answers over 100 ms, most first: "POST /api/v1/customers 12". */
  slowRoutes: string[];
  gcMs: Record<string, number>;
  checkpoints: number | null;
  /** Shares of the machine's CPU time, in percent; `server` is the server process's part of `busy`. */
  cpu: { busy: number; server: number; iowait: number; steal: number };
  /** The server's CPU time per answer, in milliseconds: flat while the server's work per request is. */
  serverCpuMsPerAnswer: number;
  /** What the database's busy sessions waited for in the minute's samples ("IO:WalSync": 12), most first. */
  waits?: Record<string, number>;
}

const BUCKET = /^http_request_duration_seconds_bucket\{([^}]*)\} (\S+)/;
const GC = /^nodejs_gc_duration_seconds_sum\{kind="(\w+)"\} (\S+)/;
// /proc/stat counts in the kernel's clock ticks (USER_HZ), 100 a second on Linux's usual builds.
const TICKS_PER_SECOND = 100;
const label = (labels: string, name: string) => new RegExp(`${name}="([^"]*)"`).exec(labels)?.[1] ?? '';

/** The server's histogram and GC counters from its /metrics text. */
export function parseMetrics(text: string): Pick<Reading, 'routes' | 'gc'> {
  const routes = new Map<string, [number, number]>();
  const gc = new Map<string, number>();
  for (const line of text.split('\n')) {
    const b = BUCKET.exec(line);
    if (b) {
      const key = `${label(b[1], 'method')} ${label(b[1], 'route')}`;
      const le = label(b[1], 'le');
      const n = Number(b[2]);
      const slot = routes.get(key) ?? [0, 0];
      // Summed over statuses: the +Inf bucket counts every answer, the 0.1 bucket the fast ones.
      if (le === '+Inf') slot[0] += n;
      if (le === '0.1') slot[1] += n;
      routes.set(key, slot);
      continue;
    }
    const g = GC.exec(line);
    if (g) gc.set(g[1], Number(g[2]));
  }
  for (const slot of routes.values()) slot[1] = slot[0] - slot[1];
  return { routes, gc };
}

// PostgreSQL 17 moved the checkpoint counts from pg_stat_bgwriter to pg_stat_checkpointer.
const CHECKPOINTS = ['select num_timed + num_requested as n from pg_stat_checkpointer', 'select checkpoints_timed + checkpoints_req as n from pg_stat_bgwriter'];
let checkpointsSql: string | null | undefined;

/** The server's checkpoints so far; the view that answers is found once (a failed query is an error line in PostgreSQL's log). */
async function checkpoints(pg: Client): Promise<number | null> {
  if (checkpointsSql === undefined) {
    checkpointsSql = null;
    for (const sql of CHECKPOINTS) {
      const ok = await pg.query(sql).then(() => true, () => false);
      if (ok) {
        checkpointsSql = sql;
        break;
      }
    }
  }
  return checkpointsSql === null ? null : Number((await pg.query(checkpointsSql)).rows[0].n);
}

export async function read(base: string, pg: Client, serverPid: number): Promise<Reading> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
  return { ...parseMetrics(text), checkpoints: await checkpoints(pg), cpu, serverCpuMs: cpuMsOf(serverPid) };
}

/** One minute's figures: the difference of the readings at its start and its end. */
export function minute(a: Reading, b: Reading): MinuteProbe {
  let serverSlow = 0;
  let serverAnswers = 0;
  const slow: [string, number][] = [];
  for (const [key, [n, over]] of b.routes) {
    const [n0, over0] = a.routes.get(key) ?? [0, 0];
    serverAnswers += n - n0;
    serverSlow += over - over0;
    if (over > over0) slow.push([key, over - over0]);
  }
  const gcMs: Record<string, number> = {};
  for (const [kind, s] of b.gc) gcMs[kind] = Math.round((s - (a.gc.get(kind) ?? 0)) * 1000);
  const d = b.cpu.map((v, i) => v - (a.cpu[i] ?? 0));
  const total = d.reduce((x, y) => x + y, 0) || 1;
  const pct = (v: number) => Math.round((1000 * v) / total) / 10;
  return {
    serverSlow,
    serverAnswers,
    slowRoutes: slow.sort((x, y) => y[1] - x[1]).map(([k, n]) => `${k} ${n}`),
    gcMs,
    checkpoints: a.checkpoints === null || b.checkpoints === null ? null : b.checkpoints - a.checkpoints,
    cpu: { busy: pct(total - d[3] - d[4]), server: pct(((b.serverCpuMs - a.serverCpuMs) / 1000) * TICKS_PER_SECOND), iowait: pct(d[4]), steal: pct(d[7] ?? 0) },
    serverCpuMsPerAnswer: serverAnswers ? Math.round((100 * (b.serverCpuMs - a.serverCpuMs)) / serverAnswers) / 100 : 0,
  };
}

let sink = 0;
let memory: Int32Array | null = null;

/**
 * This process's CPU time, in milliseconds, for two fixed pieces of work: integer arithmetic in
 * registers, and a million reads at random places of a 64 MB array (the caches, the TLB and the
 * memory's speed). The same work whatever the server does. The arithmetic rises only when the
 * machine's cores run slower (the host's other tenants); the reads also when the caches and the
 * memory are busier: with the server's and PostgreSQL's own load, the host's other tenants, or
 * the kernel's threads (a memory monitor that clears the pages' accessed bits makes every
 * process's page walks dearer). CPU time, not wall time, so that waiting for a core does not count.
 */
export function fixedWorkMs(): { arithmetic: number; memory: number } {
  if (!memory) {
    memory = new Int32Array(16 << 20);
    for (let i = 0; i < memory.length; i += 1024) memory[i] = i;
  }
  const cpu = (t: NodeJS.CpuUsage) => {
    const d = process.cpuUsage(t);
    return (d.user + d.system) / 1000;
  };
  let t = process.cpuUsage();
  let x = sink;
  for (let i = 0; i < 5_000_000; i++) x = (Math.imul(x, 1103515245) + 12345) | 0;
  const arithmetic = cpu(t);
  t = process.cpuUsage();
  let acc = 0;
  const mask = memory.length - 1;
  for (let i = 0; i < 1_000_000; i++) {
    x = (Math.imul(x, 1103515245) + 12345) | 0;
    acc = (acc + memory[(x >>> 8) & mask]) | 0;
  }
  sink = acc;
  return { arithmetic, memory: cpu(t) };
}

// The sessions of the database working on a statement and waiting for something, by wait event.
// A commit waits as "IO:WalSync" (PostgreSQL 17's name; "IO:WALSync" before) while its WAL is
// flushed to the disk; a row lock as "Lock:transactionid".
const WAITING = `select wait_event_type || ':' || wait_event as w, count(*)::int as n from pg_stat_activity
  where datname = current_database() and state = 'active' and wait_event is not null and pid <> pg_backend_pid() group by 1`;

/**
 * Samples what the database's busy sessions wait for, every `everyMs`, on a connection of its
 * own: take() returns the counts since the last take() (one session seen waiting in one sample
 * counts 1; at 100 ms, 10 is a second of one session's waiting). A sample still running when the
 * next is due is not overlapped: the next is skipped.
 */
export function sampleWaits(url: string, everyMs = 100): { take(): Record<string, number>; stop(): Promise<void> } {
  const pg = new Client({ connectionString: url });
  pg.on('error', () => undefined);
  const counts = new Map<string, number>();
  let busy = false;
  const connected = pg.connect();
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    connected
      .then(() => pg.query(WAITING))
      .then((r) => {
        for (const row of r.rows) counts.set(row.w, (counts.get(row.w) ?? 0) + row.n);
      })
      .catch(() => undefined)
      .finally(() => (busy = false));
  }, everyMs);
  return {
    take() {
      const out = Object.fromEntries([...counts].sort((a, b) => b[1] - a[1]));
      counts.clear();
      return out;
    },
    async stop() {
      clearInterval(timer);
      await connected.catch(() => undefined);
      await pg.end().catch(() => undefined);
    },
  };
}

export function describe(p: MinuteProbe): string {
  const gc = Object.entries(p.gcMs).map(([k, ms]) => `${k} ${ms}`).join(', ');
  const slow = p.slowRoutes.slice(0, 3).join(', ');
  const waits = p.waits ? Object.entries(p.waits).slice(0, 4).map(([k, n]) => `${k} ${n}`).join(', ') || 'none' : null;
  return (
    `server over 100 ms: ${p.serverSlow} of ${p.serverAnswers}${slow ? ` (${slow})` : ''}; GC ms: ${gc}; ` +
    `checkpoints ${p.checkpoints ?? '?'}; server CPU ${p.serverCpuMsPerAnswer} ms per answer; ` +
    `machine CPU busy ${p.cpu.busy}% (the server ${p.cpu.server}%), iowait ${p.cpu.iowait}%, steal ${p.cpu.steal}%` +
    (waits === null ? '' : `; database waits (sampled every 100 ms): ${waits}`)
  );
}
