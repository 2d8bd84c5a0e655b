import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Client } from 'pg';
import request from 'supertest';
import { urlFor } from '../../src/db/embedded';
import { JPEG, png } from '../helpers/images';
import { ADMIN_JS } from '../helpers/cli';
import { MAIN_JS } from '../helpers/server-process';

// `npm start` as an operator runs it: the embedded database under DATA_DIR, migrations, the demo
// company and its key printed once, data reused on the next start, clean stop on SIGTERM.

function start(env: Record<string, string>, opts: { detached?: boolean } = {}): { child: ChildProcess; output: () => string; ready: Promise<number> } {
  const { DATABASE_URL: _omit, ...base } = process.env;
  const child = spawn(process.execPath, [MAIN_JS], {
    env: { ...base, PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // detached: a process group of its own, like a terminal's foreground job (Ctrl-C signals the group).
    detached: opts.detached ?? false,
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

function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  return new Promise((resolve) => {
    child.on('exit', (code) => resolve(code));
    child.kill(signal);
  });
}

const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

/** The admin CLI as an operator runs it on the embedded database of dataDir. */
async function admin(dataDir: string, ...args: string[]): Promise<any> {
  const { DATABASE_URL: _omit, ...base } = process.env;
  const { stdout } = await promisify(execFile)(process.execPath, [ADMIN_JS, ...args], {
    env: { ...base, DATA_DIR: dataDir },
  });
  return JSON.parse(stdout);
}

/** The embedded cluster of dataDir as its state file describes it (null when none is recorded). */
function embeddedState(dataDir: string): { port: number; users: string[] } | null {
  const file = path.join(dataDir, 'embedded-postgres.json');
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null;
}

/** True when no PostgreSQL runs on dataDir's cluster (its postmaster.pid is gone once it stopped). */
const clusterStopped = (dataDir: string) => !fs.existsSync(path.join(dataDir, 'pg', 'postmaster.pid')) && embeddedState(dataDir) === null;

async function query(dataDir: string, sql: string, params: unknown[] = []): Promise<any[]> {
  const c = new Client({ connectionString: urlFor(embeddedState(dataDir)!.port, 'field_service_crm') });
  await c.connect();
  try {
    return (await c.query(sql, params)).rows;
  } finally {
    await c.end();
  }
}

describe('npm start on the embedded database', () => {
  // Laid out like the default ./.data
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fsc-start-'));
  fs.chmodSync(root, 0o755);
  const dataDir = path.join(root, '.data');
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('seeds a demo company once, serves it, stops cleanly and reuses the data', async () => {
    const first = start({ DATA_DIR: dataDir });
    const port = await first.ready;
    const key = /API key \(shown once\): (fsk_[0-9A-Za-z]{40})/.exec(first.output())?.[1];
    expect(key).toBeDefined();
    const api = request(`http://127.0.0.1:${port}`);
    const customers = await api.get('/api/v1/customers').set('Authorization', `Bearer ${key}`);
    expect(customers.status).toBe(200);
    expect(customers.body.data.customers.length).toBeGreaterThan(0);
    // A photo link works with the data under a dot-directory (the default ./.data).
    const job = (await api.get('/api/v1/jobs').set('Authorization', `Bearer ${key}`)).body.data.jobs[0];
    const up = await api.post(`/api/v1/jobs/${job.uuid}/photos`).set('Authorization', `Bearer ${key}`).attach('photos', JPEG, 'before.jpg');
    expect(up.status).toBe(200);
    const link = new URL(up.body.data.photos[0].photo_url);
    const file = await api.get(link.pathname + link.search);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('image/jpeg');
    expect(Buffer.compare(file.body, JPEG)).toBe(0);
    // GraphiQL, bundled by the build: the compiled server finds it under dist/graphiql.
    const ide = await api.get('/graphql').set('Accept', 'text/html');
    const script = /<script defer src="([^"]+)"/.exec(ide.text)?.[1];
    expect([ide.status, (await api.get(script!)).headers['content-type']]).toEqual([200, 'text/javascript; charset=utf-8']);
    expect(await stop(first.child)).toBe(0);
    expect(clusterStopped(dataDir)).toBe(true);

    const second = start({ DATA_DIR: dataDir });
    const port2 = await second.ready;
    expect(second.output()).not.toContain('API key (shown once)');
    const again = await request(`http://127.0.0.1:${port2}`).get('/api/v1/companies/me').set('Authorization', `Bearer ${key}`);
    expect(again.status).toBe(200);
    expect(await stop(second.child)).toBe(0);
  });

  it('Ctrl-C (SIGINT to the whole process group) lets an in-flight request finish on a live database, then stops the database', async () => {
    const server = start({ DATA_DIR: dataDir }, { detached: true });
    const port = await server.ready;
    // The admin CLI with the server running: it uses the server's database and leaves it running.
    const [{ uuid: company }] = await query(dataDir, 'select uuid from companies limit 1');
    const { api_key: key, key: { id: keyId } } = await admin(dataDir, 'create-key', '--company', company, '--usage-limit', '100', '--usage-period', 'day');
    expect((await request(`http://127.0.0.1:${port}`).get('/ready')).status).toBe(200);
    const [{ uuid: jobUuid }] = await query(dataDir, 'select uuid from jobs limit 1');

    // An upload whose body is still on its way when the signal comes.
    const boundary = 'fscboundary';
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="photos"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`);
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const image = png(64, 64);
    const req = http.request({
      host: '127.0.0.1', port, method: 'POST', path: `/api/v1/jobs/${jobUuid}/photos`,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': head.length + image.length + tail.length },
    });
    const response = new Promise<{ status: number; body: any }>((resolve, reject) => {
      req.on('response', (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(body) }));
      });
      req.on('error', reject);
    });
    req.write(head);
    req.write(image.subarray(0, 100));
    // The key's usage counter moves when the server has authenticated the request: it is in flight.
    while (!(await query(dataDir, 'select 1 from api_key_usage where key_id = $1', [keyId])).length) await new Promise((r) => setTimeout(r, 50));

    const done = exited(server.child);
    process.kill(-server.child.pid!, 'SIGINT');
    while (!server.output().includes('shutting down')) await new Promise((r) => setTimeout(r, 50));
    req.end(Buffer.concat([image.subarray(100), tail]));
    const res = await response;
    expect(res.status).toBe(200);
    expect(res.body.data.photos).toHaveLength(1);
    expect(await done).toBe(0);
    expect(server.output()).toContain('"msg":"stopped"');
    expect(clusterStopped(dataDir)).toBe(true);
  });

  it('two servers started at once on a fresh data directory both serve; the last one to stop stops the database', async () => {
    const fresh = path.join(root, 'fresh');
    const a = start({ DATA_DIR: fresh });
    const b = start({ DATA_DIR: fresh });
    const [portA, portB] = await Promise.all([a.ready, b.ready]);
    const keys = [a, b].map((s) => /API key \(shown once\): (fsk_\w+)/.exec(s.output())?.[1]).filter(Boolean);
    expect(keys).toHaveLength(1);
    expect((await query(fresh, 'select count(*)::int as n from companies'))[0].n).toBe(1);
    expect(await stop(a.child)).toBe(0);
    // b keeps its database.
    const res = await request(`http://127.0.0.1:${portB}`).get('/api/v1/customers').set('Authorization', `Bearer ${keys[0]}`);
    expect(res.status).toBe(200);
    expect(portA).not.toBe(portB);
    expect(clusterStopped(fresh)).toBe(false);
    expect(await stop(b.child, 'SIGINT')).toBe(0);
    expect(clusterStopped(fresh)).toBe(true);
  });

  it('the admin CLI starts the database when no server runs and stops it afterwards', async () => {
    expect(clusterStopped(dataDir)).toBe(true);
    const out = await admin(dataDir, 'create-company', '--name', 'Bolt Electric', '--email', 'office@bolt.example');
    expect(out.api_key).toMatch(/^fsk_/);
    expect(clusterStopped(dataDir)).toBe(true);
  });

  it('a start that fails after starting the database (port taken) leaves no database running', async () => {
    const blocker = http.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const taken = (blocker.address() as { port: number }).port;
    const bad = start({ DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(taken) });
    const failure = await bad.ready.then(() => 'started', (e: Error) => e.message);
    blocker.close();
    expect(failure).toMatch(/^server exited with 1:/);
    expect(failure).toContain(`Start failed: cannot listen on 127.0.0.1:${taken}`);
    expect(clusterStopped(dataDir)).toBe(true);
  });

  it('refuses a bad setting with a clear message', async () => {
    const bad = start({ DATA_DIR: dataDir, PORT: 'eighty' });
    await expect(bad.ready).rejects.toThrow(/PORT must be a whole number/);
  });
});
