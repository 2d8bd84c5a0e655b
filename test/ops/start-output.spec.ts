import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { useTestApp } from '../helpers/app';
import { MAIN_JS, runMain } from '../helpers/server-process';
import { prettyLine } from '../../src/log-pretty';

// What `npm start` prints (docs/access-and-operations.md, "Logs"): JSON lines when stdout is a pipe
// or a file, short readable lines at a terminal. The demo company's key is shown once either way.

const t = useTestApp();
const ANSI = /\x1b\[[0-9;]*m/g;

/** Resolves with the output once `done` holds for it; rejects when the process ends first. */
function until(read: () => string, exited: Promise<unknown>, done: (out: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      if (done(read())) {
        clearInterval(timer);
        resolve(read());
      }
    }, 50);
    void exited.then(() => {
      clearInterval(timer);
      if (done(read())) resolve(read());
      else reject(new Error(`the server ended:\n${read()}`));
    });
  });
}

it('stdout a pipe: every line is JSON, the demo key among them', async () => {
  const run = runMain({ DATABASE_URL: t.url, SEED_DEMO: 'true', LOG_FORMAT: '' });
  try {
    const out = await until(run.stdout, run.exited, (o) => o.includes('listening on'));
    const lines = out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    const demo = lines.find((l) => typeof l.apiKey === 'string');
    expect(demo).toMatchObject({ level: 30, companyName: 'Demo Plumbing & Heating', apiKey: expect.stringMatching(/^fsk_[0-9A-Za-z]{40}$/) });
    expect(demo!.msg).toBe(`API key (shown once): ${String(demo!.apiKey)} of the demo company`);
    expect(lines.find((l) => String(l.msg).startsWith('listening on'))).toMatchObject({ level: 30, port: expect.any(Number), database: 'DATABASE_URL' });
  } finally {
    run.proc.kill('SIGTERM');
    await run.exited;
  }
});

it('stdout a terminal: readable lines, the demo key in a block of its own', async () => {
  // util-linux `script` runs the server on a pseudo-terminal and copies what it shows.
  const env = { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'info', LOG_FORMAT: '', HOST: '127.0.0.1', PORT: '0', MIGRATE: 'false', SEED_DEMO: 'true', WEBHOOK_WORKER: 'off', DATABASE_URL: t.url };
  const proc = spawn('script', ['-qfec', `exec "${process.execPath}" "${MAIN_JS}"`, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let raw = '';
  proc.stdout.on('data', (d) => (raw += String(d)));
  proc.stderr.on('data', (d) => (raw += String(d)));
  const exited = new Promise((resolve) => proc.on('exit', resolve));
  try {
    const shown = (await until(() => raw, exited, (o) => o.includes('listening on'))).replace(/\r/g, '');
    const text = shown.replace(ANSI, '');
    expect(shown).not.toBe(text); // coloured: a terminal
    expect(text).not.toMatch(/^\{/m);
    expect(text).toMatch(/\nDemo company "Demo Plumbing & Heating" \([0-9a-f-]{36}\) created\.\nAPI key \(shown once\): fsk_[0-9A-Za-z]{40}\n/);
    expect(text).toMatch(/^\d\d:\d\d:\d\d INFO {2}listening on http:\/\/localhost:\d+ \(GraphQL \/graphql, REST \/api\/v1, docs \/docs\) {2}port=\d+ database=DATABASE_URL$/m);
  } finally {
    // The server is `script`'s child: SIGTERM it directly, so it stops as it would at Ctrl-C.
    const children = fs.readFileSync(`/proc/${proc.pid}/task/${proc.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    for (const pid of children) process.kill(pid, 'SIGTERM');
    await exited;
  }
});

it('a pretty request line reads method, path, status and time; an error brings its stack', () => {
  const request = JSON.stringify({ level: 30, time: Date.UTC(2026, 0, 1, 12, 4, 5), requestId: 'r-1', method: 'POST', route: '/api/v1/customers', path: '/api/v1/customers', status: 201, durationMs: 11.2, msg: 'request' });
  expect(prettyLine(request, false)).toMatch(/^\d\d:\d\d:\d\d INFO {2}POST \/api\/v1\/customers 201 11\.2 ms {2}requestId=r-1\n$/);
  const failed = prettyLine(JSON.stringify({ level: 50, time: 0, err: { message: 'boom', stack: 'Error: boom\n    at x (y.ts:1:1)' }, msg: 'start failed' }), false);
  expect(failed).toMatch(/^\d\d:\d\d:\d\d ERROR start failed\n {4}Error: boom\n {8}at x \(y\.ts:1:1\)\n$/);
  expect(prettyLine('not json', false)).toBe('not json\n');
});
