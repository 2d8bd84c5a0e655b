import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { runLoad } from '../../bench/load-run';

// The benchmark's kept load generators (bench/load-run.ts): jobs that overlap run in generators of
// their own and each gets its own answer; a generator left idle serves the next job, and does not
// keep the benchmark's process alive.

it('runs overlapping jobs each to its own answer, then the next job on a kept generator', async () => {
  const seen = new Map<string, number>();
  const server = http.createServer((req, res) => {
    seen.set(req.url!, (seen.get(req.url!) ?? 0) + 1);
    res.writeHead(req.url === '/b' ? 404 : 200).end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const [a, b] = await Promise.all([
      runLoad({ url, variants: [{ path: '/a' }], connections: 2, amount: 20 }),
      runLoad({ url, variants: [{ path: '/b' }], connections: 2, amount: 30 }),
    ]);
    expect([a.requests, a.statusCodes]).toEqual([20, { '200': 20 }]);
    expect([b.requests, b.non2xx, b.statusCodes]).toEqual([30, 30, { '404': 30 }]);
    const c = await runLoad({ url, variants: [{ path: '/c' }], connections: 1, amount: 5 });
    expect(c.requests).toBe(5);
    expect(Object.fromEntries(seen)).toEqual({ '/a': 20, '/b': 30, '/c': 5 });
  } finally {
    server.close();
  }
}, 60_000);

it('a process whose jobs are done ends, though its generator is kept', async () => {
  // One job against a server of its own, then nothing: the process must end by itself.
  const script = `
    const http = require('node:http');
    const { runLoad } = require(${JSON.stringify(require.resolve('../../bench/load-run'))});
    const server = http.createServer((req, res) => res.writeHead(200).end('{}'));
    server.listen(0, '127.0.0.1', async () => {
      const r = await runLoad({ url: 'http://127.0.0.1:' + server.address().port, variants: [{ path: '/' }], connections: 1, amount: 3 });
      server.close();
      console.log(r.requests);
    });`;
  const out = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e', script], { timeout: 30_000 }, (err, stdout) => (err ? reject(err) : resolve(stdout))),
  );
  expect(out.trim()).toBe('3');
}, 60_000);
