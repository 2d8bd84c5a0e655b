import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The raw body, exactly as sent. */
  body: string;
}

export type Answer = { status: number; headers?: Record<string, string>; body?: string; holdMs?: number } | 'hold';

/**
 * A webhook receiver on 127.0.0.1 (node:http): keeps every request with its raw body, answers
 * with `answer(req, n)` (default 200), and tracks how many requests per webhook-id are open at once.
 */
export async function startReceiver(answer: (r: Received, n: number) => Answer = () => ({ status: 200 })) {
  const received: Received[] = [];
  const open = new Map<string, number>();
  let overlaps = 0;
  const held: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const r: Received = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      const id = String(req.headers['webhook-id']);
      open.set(id, (open.get(id) ?? 0) + 1);
      if (open.get(id)! > 1) overlaps++;
      const close = () => open.set(id, open.get(id)! - 1);
      res.once('close', close);
      received.push(r);
      const a = answer(r, received.length);
      if (a === 'hold') return void held.push(res);
      const reply = () => res.writeHead(a.status, a.headers ?? {}).end(a.body ?? 'ok');
      if (a.holdMs) setTimeout(reply, a.holdMs);
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received,
    /** Requests of one webhook-id seen while another of the same id was still open. */
    overlaps: () => overlaps,
    held,
    async close() {
      for (const r of held) r.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Waits until `check` returns a truthy value (polling; the jest timeout bounds it). */
export async function until<T>(check: () => T | Promise<T>, what: string, timeoutMs = 60_000): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
