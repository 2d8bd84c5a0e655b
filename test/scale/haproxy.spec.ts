import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { haproxyCfg, haproxyStatus, HAPROXY, missingBinaries, startHaproxy } from '../../deploy/topology';
import { createTenant, useTestApp } from '../helpers/app';
import { ServerProcess, startServer } from '../helpers/server-process';

// HAProxy (Debian's) in front of server processes, checking GET /ready (docs/scaling.md): a process
// that drains answers 503 and is taken out while it still serves; a process killed with SIGKILL is
// taken out and the requests sent meanwhile go to the other. Skipped, saying so, without haproxy.
const missing = missingBinaries(['haproxy']);
const maybe = missing.length ? it.skip : it;
if (missing.length) console.warn(`test/scale/haproxy.spec.ts skipped: ${missing.join(', ')} not installed`);

const t = useTestApp();
const servers: ServerProcess[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.kill('SIGKILL');
    await s.exited;
  }
});

const until = async <T>(f: () => Promise<T | null | false>, what: string, ms = 30_000): Promise<T> => {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

maybe('the committed deploy/haproxy.cfg and the generated configuration are valid for this HAProxy', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fsc-haproxy-'));
  const file = path.join(dir, 'haproxy.cfg');
  fs.writeFileSync(file, haproxyCfg({ port: 18080, servers: [4001, 4002, 4003], statsPort: 18081 }));
  expect(execFileSync(HAPROXY, ['-c', '-f', file]).toString()).toContain('valid');
  expect(execFileSync(HAPROXY, ['-c', '-f', path.resolve(__dirname, '../../deploy/haproxy.cfg')]).toString()).toContain('valid');
});

maybe('a draining process is taken out while it still answers, a killed one is routed around: no request through HAProxy fails', async () => {
  const tenant = await createTenant(t);
  // The drain outlasts HAProxy's notice (checks every 200 ms) even on a loaded machine.
  const env = { DATABASE_URL: t.url, DRAIN_MS: '8000' };
  const [a, b, c] = await Promise.all([startServer(env), startServer(env), startServer(env)]);
  servers.push(a, b, c);
  const lb = await startHaproxy(fs.mkdtempSync(path.join(os.tmpdir(), 'fsc-haproxy-')), [a.port, b.port, c.port], 200);
  try {
    await until(async () => Object.values(await haproxyStatus(lb.statsPort)).every((s) => s === 'UP'), 'all servers up');
    // Requests through HAProxy, without pause, until told to stop.
    let stop = false;
    const failures: string[] = [];
    let sent = 0;
    const load = Promise.all(
      Array.from({ length: 4 }, async () => {
        while (!stop) {
          sent++;
          try {
            const res = await fetch(`http://127.0.0.1:${lb.port}/api/v1/customers`, { headers: { Authorization: `Bearer ${tenant.key}` } });
            if (res.status !== 200) failures.push(`${res.status} ${await res.text()}`);
            else await res.arrayBuffer();
          } catch (err) {
            failures.push(String(err));
          }
        }
      }),
    );
    // SIGTERM: a drains (its /ready answers 503) and HAProxy takes it out while it still listens.
    a.kill('SIGTERM');
    await until(async () => (await haproxyStatus(lb.statsPort)).s1?.startsWith('DOWN'), 's1 down');
    const ready = await fetch(`http://127.0.0.1:${a.port}/ready`);
    expect(ready.status).toBe(503);
    const code = await a.exited;
    if (code !== 0) console.log(a.stdout(), a.stderr());
    expect(code).toBe(0);
    // SIGKILL of b under load: HAProxy retries the refused connections on c and takes b out.
    b.kill('SIGKILL');
    await until(async () => (await haproxyStatus(lb.statsPort)).s2?.startsWith('DOWN'), 's2 down');
    const at = sent;
    await until(async () => sent > at + 50 && true, 'more requests');
    stop = true;
    await load;
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(100);
  } finally {
    await lb.stop();
  }
}, 180_000);
