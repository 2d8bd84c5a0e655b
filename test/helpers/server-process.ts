import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
/** The compiled server that `npm start` runs; the global setup builds it (scripts/build.js). */
export const MAIN_JS = path.join(ROOT, 'dist/src/main.js');

export interface ServerProcess {
  proc: ChildProcess;
  port: number;
  /** Everything written so far: stdout (JSON log lines) and stderr. */
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  kill(signal?: NodeJS.Signals): void;
}

/** Runs the server (`dist/src/main.js`) in a process of its own, as `npm start` does, with env overrides. */
export function runMain(env: Record<string, string>): { proc: ChildProcess; stdout(): string; stderr(): string; exited: Promise<number | null> } {
  const proc = spawn(process.execPath, [MAIN_JS], {
    cwd: ROOT,
    // NODE_ENV=test silences the logger; the tests read the log lines. No webhook worker unless a
    // test asks for one (WEBHOOK_WORKER=on): its transactions would race the truncation between tests.
    // The server keeps an idle connection 60 s, not 5: a test's fetch drops its idle sockets after
    // the server's hint less 1 s, and on a loaded machine the test's timer can fire a second late,
    // after the server has closed the socket the test is sending on ("other side closed").
    // Five connections in its pool, as the tests' own app (useTestApp), not the default ten: the
    // run's workers start such processes side by side, on a server whose max_connections (100 on
    // the CI machine's) they share.
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      PORT: '0',
      MIGRATE: 'false',
      SEED_DEMO: 'false',
      WEBHOOK_WORKER: 'off',
      TASK_WORKER: 'off',
      KEEP_ALIVE_TIMEOUT_MS: '60000',
      DB_POOL_MAX: '5',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stdout!.on('data', (d) => (out += String(d)));
  proc.stderr!.on('data', (d) => (err += String(d)));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return { proc, stdout: () => out, stderr: () => err, exited };
}

/** Starts a server process and waits for its "listening" log line. */
export async function startServer(env: Record<string, string>, timeoutMs = 60_000): Promise<ServerProcess> {
  const run = runMain(env);
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${run.stdout()}\n${run.stderr()}`)), timeoutMs);
    const check = () => {
      for (const line of run.stdout().split('\n')) {
        if (!line.startsWith('{')) continue;
        const entry = JSON.parse(line) as { msg?: string; port?: number };
        if (entry.msg?.startsWith('listening') && entry.port) {
          clearTimeout(timer);
          run.proc.stdout!.off('data', check);
          return resolve(entry.port);
        }
      }
    };
    run.proc.stdout!.on('data', check);
    run.exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${run.stdout()}\n${run.stderr()}`));
    });
  });
  // A server that was listening and ends without being asked: its last lines in the test's output.
  run.exited.then((code) => {
    if (!run.proc.killed) console.error(`server process ${run.proc.pid} on port ${port} ended by itself (${code}):\n${run.stdout().slice(-4000)}\n${run.stderr().slice(-4000)}`);
  });
  return { ...run, port, kill: (signal = 'SIGTERM') => run.proc.kill(signal) };
}
