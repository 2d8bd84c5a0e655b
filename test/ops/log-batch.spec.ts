import { execFile } from 'node:child_process';
import { EventEmitter } from 'node:events';
import path from 'node:path';
import { promisify } from 'node:util';
import pino from 'pino';
import { BATCH_BYTES, LineBatch, urgent } from '../../src/log-batch';
import { createTenant, useTestApp } from '../helpers/app';
import { startServer } from '../helpers/server-process';

// Log lines are written in batches (src/log-batch.ts): every line reaches stdout, in order, however
// the process ends: by itself, after flushLogs (process.exit), on SIGTERM.

const ROOT = path.resolve(__dirname, '../..');

/** A writer as sonic-boom behaves: writes complete later and report their bytes. */
function fakeWriter() {
  const out = Object.assign(new EventEmitter(), {
    writes: [] as string[],
    synced: [] as string[],
    held: '',
    write(text: string) {
      out.writes.push(text);
      setImmediate(() => out.emit('write', Buffer.byteLength(text)));
      return true;
    },
    flushSync() {
      out.synced.push(out.held);
      out.held = '';
    },
  });
  return out;
}

const line = (i: number) => `${JSON.stringify({ level: 30, i, msg: 'request', path: '/api/v1/customers/é' })}\n`;

describe('LineBatch', () => {
  it('hands lines over in order, a batch at a time, and the rest when flushed', async () => {
    const out = fakeWriter();
    const batch = new LineBatch(out, () => undefined);
    const lines = Array.from({ length: 500 }, (_, i) => line(i));
    lines.forEach((l) => batch.write(l));
    // Whole batches only: fewer writes than lines, each at least BATCH_BYTES long.
    expect(out.writes.length).toBeGreaterThan(1);
    expect(out.writes.length).toBeLessThan(lines.length / 5);
    for (const w of out.writes) expect(w.length).toBeGreaterThanOrEqual(BATCH_BYTES);
    const flushed = await new Promise<boolean>((resolve) => batch.flush(() => resolve(true)));
    expect(flushed).toBe(true);
    expect(out.writes.join('')).toBe(lines.join(''));
  });

  it('calls flush back only once the writer reported every byte written', async () => {
    const out = fakeWriter();
    let reported = 0;
    out.on('write', (n: number) => (reported += n));
    const batch = new LineBatch(out, () => undefined);
    batch.write(line(1));
    const done = new Promise<number>((resolve) => batch.flush(() => resolve(reported)));
    expect(await done).toBe(Buffer.byteLength(line(1)));
  });

  it('writes a partial batch by itself after a while, without a flush', async () => {
    const out = fakeWriter();
    const batch = new LineBatch(out, () => undefined);
    batch.write(line(1));
    expect(out.writes).toEqual([]);
    await new Promise<void>((resolve) => out.once('write', () => resolve()));
    expect(out.writes).toEqual([line(1)]);
  });

  it('hands a warning or an error over at once, after the lines gathered before it', () => {
    const out = fakeWriter();
    const batch = new LineBatch(out, () => undefined);
    const logged: string[] = [];
    // What pino writes for each level, through the logger's own settings (no base fields).
    const pinoLine = (lvl: 'info' | 'warn' | 'error' | 'fatal', i: number) =>
      new Promise<string>((resolve) => pino({ base: undefined, level: 'trace' }, { write: (text: string) => resolve(text) })[lvl]({ i }, 'm'));
    return (async () => {
      const [info, warn, error, fatal] = await Promise.all([pinoLine('info', 1), pinoLine('warn', 2), pinoLine('error', 3), pinoLine('fatal', 4)]);
      batch.write(info);
      logged.push(info);
      expect(out.writes).toEqual([]);
      for (const urgentLine of [warn, error, fatal]) {
        batch.write(urgentLine);
        logged.push(urgentLine);
        expect(out.writes.join('')).toBe(logged.join(''));
      }
      expect(out.writes).toHaveLength(3);
      expect([info, warn, error, fatal].map(urgent)).toEqual([false, true, true, true]);
      expect([line(1), 'not json\n', '{"level":"x"}\n', '{"level":100}\n'].map(urgent)).toEqual([false, false, true, true]);
      batch.flushSync();
    })();
  });

  it('at exit writes what the writer holds, then the lines not handed over, synchronously', () => {
    const out = fakeWriter();
    out.held = 'older\n';
    const sync: string[] = [];
    const batch = new LineBatch(out, (text) => sync.push(text));
    batch.write(line(1));
    batch.write(line(2));
    batch.flushSync();
    expect(out.synced).toEqual(['older\n']);
    expect(sync).toEqual([line(1) + line(2)]);
    expect(out.writes).toEqual([]);
  });
});

describe('log lines of a process', () => {
  // The compiled logger (the global setup builds dist/), in a process of its own.
  async function run(ending: string, count: number): Promise<string[]> {
    const script = `const { logger, flushLogs } = require(${JSON.stringify(path.join(ROOT, 'dist/src/logger.js'))});
      for (let i = 0; i < ${count}; i++) logger.info({ i, path: '/api/v1/customers/' + 'x'.repeat(i % 50) }, 'request');
      ${ending}`;
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], {
      env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'info', LOG_FORMAT: 'json' },
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout.split('\n').filter(Boolean);
  }

  it.each([
    ['ends by itself', ''],
    ['exits after flushLogs', 'flushLogs().then(() => process.exit(0));'],
    ['exits after flushLogs, lines logged while earlier batches are written', 'setImmediate(() => { for (let i = 0; i < 20; i++) logger.info({ i: 5000 + i }, "late"); flushLogs().then(() => process.exit(0)); });'],
  ])('loses no line when it %s', async (_name, ending) => {
    const lines = await run(ending, 5000);
    const entries = lines.map((l) => JSON.parse(l));
    const expected = [...Array.from({ length: 5000 }, (_, i) => i), ...(ending.includes('late') ? Array.from({ length: 20 }, (_, i) => 5000 + i) : [])];
    expect(entries.map((e) => e.i)).toEqual(expected);
  });
});

describe('log lines of the server', () => {
  const t = useTestApp();

  it('writes every request line before it exits on SIGTERM', async () => {
    const a = await createTenant(t);
    const server = await startServer({ DATABASE_URL: t.url });
    const n = 300;
    try {
      for (let i = 0; i < n; i += 30) {
        await Promise.all(Array.from({ length: 30 }, (_, j) => fetch(`http://127.0.0.1:${server.port}/api/v1/customers?limit=1`, { headers: { Authorization: `Bearer ${a.key}`, 'X-Request-Id': `batch-${i + j}` } }).then((r) => r.text())));
      }
    } finally {
      server.kill('SIGTERM');
    }
    expect(await server.exited).toBe(0);
    const entries = server
      .stdout()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const ids = entries.filter((e) => e.msg === 'request').map((e) => e.requestId);
    expect(new Set(ids)).toEqual(new Set(Array.from({ length: n }, (_, i) => `batch-${i}`)));
    expect(ids).toHaveLength(n);
    expect(entries[entries.length - 1].msg).toBe('stopped');
  });
});
