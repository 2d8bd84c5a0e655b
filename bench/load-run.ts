import { ChildProcess, fork } from 'node:child_process';
import type net from 'node:net';
import path from 'node:path';
import type { LoadJob, LoadResult } from './load';
import { ROOT } from './procs';

// The load generators (bench/load.ts) run in processes of their own, so that they do not share a
// CPU queue with the server they measure. A generator serves one job at a time and is kept for the
// next: starting one (node, ts-node, autocannon) took about a second, as long as a quick run's load.
// Jobs that overlap get a generator each. An idle generator does not keep this process alive, and
// it ends when this process does (its IPC channel closes).

interface Generator {
  child: ChildProcess;
  /** The job's answer, while one runs. */
  pending: { resolve: (r: LoadResult) => void; reject: (e: Error) => void } | null;
  err: string;
}

const idle: Generator[] = [];

function start(): Generator {
  const child = fork(path.join(ROOT, 'bench/load.ts'), [], {
    cwd: ROOT,
    execArgv: ['-r', 'ts-node/register/transpile-only'],
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  const g: Generator = { child, pending: null, err: '' };
  child.stderr!.on('data', (d) => (g.err = (g.err + String(d)).slice(-4000)));
  child.on('message', (m: { result?: LoadResult; error?: string }) => {
    const p = g.pending;
    g.pending = null;
    if (!p) return;
    release(g);
    if (m.result) p.resolve(m.result);
    else p.reject(new Error(`load generator failed: ${m.error}`));
  });
  child.on('exit', (code) => {
    const at = idle.indexOf(g);
    if (at >= 0) idle.splice(at, 1);
    g.pending?.reject(new Error(`load generator exited with ${code}: ${g.err}`));
    g.pending = null;
  });
  return g;
}

// An idle generator's handles (the process, its IPC channel, its stderr pipe) are unreferenced, a
// busy one's referenced again: only a running job keeps this process alive.
function hold(g: Generator, on: boolean): void {
  const handles: Array<{ ref(): void; unref(): void } | null | undefined> = [g.child, g.child.channel, g.child.stderr as unknown as net.Socket | null];
  for (const h of handles) {
    if (!h) continue;
    if (on) h.ref();
    else h.unref();
  }
}

function release(g: Generator): void {
  hold(g, false);
  idle.push(g);
}

/** One autocannon run, in a generator process of its own (one started if none is idle). */
export function runLoad(job: LoadJob): Promise<LoadResult> {
  const g = idle.pop() ?? start();
  hold(g, true);
  return new Promise((resolve, reject) => {
    g.pending = { resolve, reject };
    g.child.send({ job });
  });
}
