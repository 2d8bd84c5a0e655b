import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '..');

export interface Proc {
  name: string;
  proc: ChildProcess;
  pid: number;
  port: number;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Spawns a server process and waits until a line of its output matches `ready` (whose first group
 * is the port). Every process here is started by the benchmark and stopped by its pid.
 */
export async function startProcess(
  name: string,
  cmd: string,
  args: string[],
  env: Record<string, string | undefined>,
  ready: RegExp,
  timeoutMs = 120_000,
): Promise<Proc> {
  const proc = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...env } as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  // Keep the head and the tail of the output only: a chatty process must not grow our memory.
  const add = (d: Buffer) => {
    out += String(d);
    if (out.length > 400_000) out = out.slice(0, 100_000) + '\n…\n' + out.slice(-200_000);
  };
  proc.stdout!.on('data', add);
  proc.stderr!.on('data', add);
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start in time:\n${out.slice(-4000)}`)), timeoutMs);
    const check = () => {
      const m = ready.exec(out);
      if (m) {
        clearTimeout(timer);
        // Not on every later chunk: the server logs a line per request, and scanning the kept
        // output (up to 400 KB) per chunk cost this process CPU the measured server shares.
        proc.stdout!.off('data', check);
        proc.stderr!.off('data', check);
        resolve(Number(m[1]));
      }
    };
    proc.stdout!.on('data', check);
    proc.stderr!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code}:\n${out.slice(-4000)}`));
    });
  });
  return {
    name,
    proc,
    pid: proc.pid!,
    port,
    output: () => out,
    stop: async () => {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill('SIGTERM');
      const t = setTimeout(() => proc.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(t);
    },
  };
}

/**
 * The CPU time (user + system) of a /proc/<pid>/stat text, in ms: utime and stime (fields 14 and
 * 15), in 1/100 s, counted after the command name, which may hold spaces and parentheses.
 */
function statCpuMs(stat: string): number {
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

/** CPU time (user + system) a process has used so far, in ms. */
export function cpuMsOf(pid: number): number {
  return statCpuMs(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

/** CPU time (ms) used so far by each process named `postgres` on the machine, by pid. */
export function databaseProcesses(): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) === 'postgres') out.set(Number(pid), statCpuMs(stat));
  }
  return out;
}

/**
 * CPU time (ms) of every process named `postgres` on the machine: the database's backends and its
 * background processes (databaseProcesses); those that have ended are not counted. Read before and
 * after a run of one server, whose pool keeps its backends, as the database's CPU for that run
 * (bench/ab.ts); other PostgreSQL servers of the machine count too, so keep them idle.
 */
export function databaseCpuMs(): number {
  let total = 0;
  for (const ms of databaseProcesses().values()) total += ms;
  return total;
}

/** Resident set size of a process in bytes (VmRSS), or 0 when it is gone. */
export function rssOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Samples a process's RSS every `everyMs` until stopped; returns the samples' maximum. */
export function sampleRss(pid: number, everyMs = 50): { stop(): { max: number; first: number } } {
  const first = rssOf(pid);
  let max = first;
  const timer = setInterval(() => {
    max = Math.max(max, rssOf(pid));
  }, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      max = Math.max(max, rssOf(pid));
      return { max, first };
    },
  };
}

/** The middle value of a run's samples (the upper one of an even count). */
export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
