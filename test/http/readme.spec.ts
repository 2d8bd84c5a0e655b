import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useTestApp } from '../helpers/app';
import { runMain } from '../helpers/server-process';

// The README's examples run as written: every ```sh block, in
// order, in one bash session (variables set by one block are used by the next), from the
// repository root, against a server started as `npm start` starts it, with the demo company. Only
// the port differs: `localhost:4000` becomes the started server's. A failed command stops the run
// (`set -euo pipefail`; curl fails on an HTTP error status, printing the body).

const ROOT = path.resolve(__dirname, '../..');
const t = useTestApp();

/** The README's ```sh blocks, in order. */
function shellBlocks(): string[] {
  const text = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  return [...text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
}

/** Blocks not run, by their first line: starting the server and the suite (each tested by its own test). */
const NOT_RUN = ['npm install && npm start'];

it('every shell example of the README runs against a started server', async () => {
  const blocks = shellBlocks();
  const skipped = blocks.filter((b) => NOT_RUN.some((s) => b.startsWith(s)));
  expect(skipped).toHaveLength(NOT_RUN.length);
  const run = blocks.filter((b) => !skipped.includes(b));
  expect(run.length).toBeGreaterThanOrEqual(9);

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fsc-readme-'));
  const pdf = path.join(ROOT, 'INV-0001.pdf');
  const server = runMain({ DATABASE_URL: t.url, DATA_DIR: dataDir, SEED_DEMO: 'true', LOG_FORMAT: 'json' });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setInterval(() => {
        const m = /"port":(\d+)[^\n]*listening on/.exec(server.stdout());
        if (m) {
          clearInterval(timer);
          resolve(Number(m[1]));
        }
      }, 50);
      void server.exited.then(() => {
        clearInterval(timer);
        reject(new Error(`server ended:\n${server.stdout()}\n${server.stderr()}`));
      });
    });
    const demoKey = /"apiKey":"(fsk_\w+)"/.exec(server.stdout())![1];

    const script = [
      'set -euo pipefail',
      'curl() { command curl --fail-with-body "$@"; }',
      ...run.map((b, i) => `echo "### README block ${i + 1}: ${b.split('\n')[0].replace(/["`$\\]/g, '.').slice(0, 60)}" >&2\n${b.replace(/localhost:4000/g, `localhost:${port}`)}`),
      'echo "### done" >&2',
    ].join('\n');
    const { DATABASE_URL: _d, LOG_FORMAT: _l, ...base } = process.env;
    const env = { ...base, DATABASE_URL: t.url, DATA_DIR: dataDir, KEY: demoKey, LOG_FORMAT: '' };
    const result = await new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
      const bash = spawn('bash', ['-c', script], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      bash.stdout.on('data', (d) => (out += String(d)));
      bash.stderr.on('data', (d) => (err += String(d)));
      bash.on('exit', (code) => resolve({ code, out, err }));
    });
    const failedAt = result.err.split('\n').filter((l) => l.startsWith('### ')).pop();
    expect({ code: result.code, failedAt, tail: result.code === 0 ? '' : `${result.out.slice(-1500)}\n${result.err.slice(-1500)}` }).toEqual({ code: 0, failedAt: '### done', tail: '' });

    // What the examples show came back: no error envelope, no GraphQL error; the files they wrote.
    expect(result.out).not.toContain('"success":false');
    expect(result.out).not.toMatch(/"errors":\s*\[/);
    expect(result.out).toContain('"phone":"217-555-0101"');
    expect(result.out).toContain('"total_amount":161.29');
    expect(result.out).toMatch(/"paid_amount":100,/);
    expect(fs.readFileSync(pdf).subarray(0, 5).toString()).toBe('%PDF-');
    expect(fs.readdirSync(path.join(dataDir, 'outbox')).some((f) => f.endsWith('.eml'))).toBe(true);
  } finally {
    server.proc.kill('SIGTERM');
    await server.exited;
    fs.rmSync(pdf, { force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}, 240_000);
