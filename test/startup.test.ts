import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';

// `npm start` as an operator runs it: the embedded database under DATA_DIR, migrations, the demo
// company and its key printed once, data reused on the next start, clean stop on SIGTERM.

function start(env: Record<string, string>): { child: ChildProcess; output: () => string; ready: Promise<number> } {
  const bin = require.resolve('ts-node/dist/bin');
  const { DATABASE_URL: _omit, ...base } = process.env;
  const child = spawn(process.execPath, [bin, '--transpile-only', path.resolve(__dirname, '../src/main.ts')], {
    env: { ...base, PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const ready = new Promise<number>((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /"port":(\d+)/.exec(out);
      if (m) {
        clearInterval(timer);
        resolve(Number(m[1]));
      }
    }, 100);
    child.on('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`server exited with ${code}: ${out}`));
    });
  });
  return { child, output: () => out, ready };
}

function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.on('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

describe('npm start on the embedded database', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fsc-start-'));
  fs.chmodSync(dataDir, 0o755);
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('seeds a demo company once, serves it, stops cleanly and reuses the data', async () => {
    const first = start({ DATA_DIR: dataDir });
    const port = await first.ready;
    const key = /API key \(shown once\): (fsk_[0-9A-Za-z]{40})/.exec(first.output())?.[1];
    expect(key).toBeDefined();
    const api = request(`http://127.0.0.1:${port}`);
    const customers = await api.get('/api/v1/customers').set('Authorization', `Bearer ${key}`);
    expect(customers.status).toBe(200);
    expect(customers.body.data.customers.length).toBeGreaterThan(0);
    expect(await stop(first.child)).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'embedded-postgres.json'))).toBe(false);

    const second = start({ DATA_DIR: dataDir });
    const port2 = await second.ready;
    expect(second.output()).not.toContain('API key (shown once)');
    const again = await request(`http://127.0.0.1:${port2}`).get('/api/v1/companies/me').set('Authorization', `Bearer ${key}`);
    expect(again.status).toBe(200);
    expect(await stop(second.child)).toBe(0);
  });

  it('refuses a bad setting with a clear message', async () => {
    const bad = start({ DATA_DIR: dataDir, PORT: 'eighty' });
    await expect(bad.ready).rejects.toThrow(/PORT must be a whole number/);
  });
});
