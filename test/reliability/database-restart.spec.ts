import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { ensureDatabase } from '../../src/db/embedded';
import { clusterCtl, startCluster } from '../helpers/cluster';
import { ServerProcess, startServer } from '../helpers/server-process';

// PostgreSQL stopped (immediate: as a crash) and started again under write load, on a private
// embedded cluster: no acknowledged write is lost, /ready answers 503 while it is down, writes
// answer 503 SERVICE_UNAVAILABLE (never a 500), and the next request after the restart succeeds.
jest.setTimeout(5 * 60_000);

let dir: string;
let server: ServerProcess;
let url: string;
let port: string;
const ctl = (args: string[]) => clusterCtl(dir, args);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const until = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 300 && !(await check()); i++) await pause(50);
};

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fsc-restart-'));
  fs.chmodSync(dir, 0o755);
  const serverUrl = await startCluster(dir);
  port = new URL(serverUrl).port;
  url = await ensureDatabase(serverUrl, 'fsc_restart');
  server = await startServer({ DATABASE_URL: url, MIGRATE: 'true', SEED_DEMO: 'true' });
});

afterAll(async () => {
  server?.kill('SIGKILL');
  await server?.exited;
  await ctl(['stop', '-m', 'fast', '--wait']).catch(() => undefined);
  fs.rmSync(dir, { recursive: true, force: true });
});

it('a database restart under write load loses no acknowledged write', async () => {
  const key = /API key \(shown once\): (\S+)/.exec(server.stdout())![1];
  const base = `http://127.0.0.1:${server.port}`;
  const acknowledged: string[] = [];
  const statuses = new Map<number, number>();
  let writing = true;
  const writer = async (w: number) => {
    for (let n = 0; writing; n++) {
      const last = `w${w}-${n}`;
      try {
        const res = await fetch(`${base}/api/v1/customers`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ first_name: 'Load', last_name: last }),
          signal: AbortSignal.timeout(10_000),
        });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status === 200) acknowledged.push(last);
        else await pause(20);
      } catch {
        statuses.set(0, (statuses.get(0) ?? 0) + 1);
        await pause(20);
      }
    }
  };
  const writers = Array.from({ length: 4 }, (_, w) => writer(w));
  try {
    await until(async () => acknowledged.length >= 50);
    await ctl(['stop', '-m', 'immediate', '--wait']);
    const before = acknowledged.length;
    await until(async () => (await fetch(`${base}/ready`)).status === 503);
    const ready = await fetch(`${base}/ready`);
    expect(ready.status).toBe(503);
    expect(ready.headers.get('retry-after')).toBe('1');
    // The writers meet the stopped database for a while.
    await pause(1000);
    await ctl(['start', '--wait', '-l', path.join(dir, 'pg', 'restart.log'), '-o', `-p ${port} -c listen_addresses=127.0.0.1`]);
    // The first request after the restart is served, within a second.
    const first = await fetch(`${base}/api/v1/companies/me`, { headers: { Authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(1000) });
    expect(first.status).toBe(200);
    expect((await fetch(`${base}/ready`)).status).toBe(200);
    await until(async () => acknowledged.length >= before + 50);
  } finally {
    writing = false;
    await Promise.all(writers);
  }
  // Every failed write said 503; none was a 500 or went unanswered.
  expect([...statuses.keys()].filter((s) => s !== 200 && s !== 503)).toEqual([]);
  expect(statuses.get(503) ?? 0).toBeGreaterThan(0);
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ last_name: string }>(`select last_name from customers where first_name = 'Load'`);
    const stored = new Set(rows.map((r) => r.last_name));
    expect(acknowledged.filter((n) => !stored.has(n))).toEqual([]);
  } finally {
    await client.end();
  }
});
