import { spawn } from 'node:child_process';
import path from 'node:path';
import type { LoadJob, LoadResult } from './load';
import { ROOT } from './procs';

/** One autocannon run (bench/load.ts), in a process of its own. */
export function runLoad(job: LoadJob): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', path.join(ROOT, 'bench/load.ts'), JSON.stringify(job)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (err += String(d)));
    child.on('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code === 0 && line.startsWith('{')) resolve(JSON.parse(line));
      else reject(new Error(`load generator exited with ${code}: ${err.slice(-2000)}`));
    });
  });
}
