import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import type { TestApp } from './app';

/** Listens with the test app (REST, GraphQL and its WebSocket upgrades) on a port of its own; closed in afterAll. */
export function useListening(t: TestApp): { base: () => string } {
  let server: Server | undefined;
  let base = '';
  beforeAll(async () => {
    server = createServer(t.built.app);
    t.built.attach(server);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    base = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });
  return { base: () => base };
}

export interface Collected<T> {
  items: T[];
  /** Resolves once `n` items have arrived. */
  until(n: number): Promise<T[]>;
  /** How the stream ended: a close code and reason (WebSocket), or 'end'. */
  closed: Promise<{ code: number; reason: string }>;
  stop(): void;
}

function collector<T>() {
  const items: T[] = [];
  const waiters: Array<{ n: number; resolve: (v: T[]) => void }> = [];
  const push = (item: T) => {
    items.push(item);
    for (const w of waiters.splice(0)) if (items.length >= w.n) w.resolve(items);
    else waiters.push(w);
  };
  const until = (n: number) => (items.length >= n ? Promise.resolve(items) : new Promise<T[]>((resolve) => waiters.push({ n, resolve })));
  return { items, push, until };
}

export interface LiveEventOut {
  id: string;
  type: string;
  resource: string;
  recordUuid: string;
  cursor: string;
  object: Record<string, any>;
  previous: Record<string, any> | null;
}

/** A graphql-ws client subscribed to `events`; every delivered event collected. */
export function subscribeWs(base: string, key: string, variables: { types?: string[]; after?: string } = {}): Collected<LiveEventOut> & { client: Client } {
  const c = collector<LiveEventOut>();
  let settle: (v: { code: number; reason: string }) => void = () => undefined;
  const closed = new Promise<{ code: number; reason: string }>((resolve) => (settle = resolve));
  const client = createClient({
    url: `ws://${base}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${key}` },
    retryAttempts: 0,
    lazy: false,
    on: { closed: (e) => settle({ code: (e as { code: number }).code, reason: String((e as { reason: string }).reason) }) },
  });
  client.subscribe<{ events: LiveEventOut }>(
    { query: 'subscription($types: [String!], $after: String) { events(types: $types, after: $after) { id type resource recordUuid cursor object previous } }', variables },
    { next: (r) => r.data && c.push(r.data.events), error: () => undefined, complete: () => undefined },
  );
  return { ...c, closed, client, stop: () => void client.dispose() };
}

export interface SseEvent {
  id: string;
  event: string;
  data: any;
}

/** An SSE client of /api/v1/events/stream; events and comment lines collected. */
export function streamSse(base: string, key: string, query = '', headers: Record<string, string> = {}): Collected<SseEvent> & { comments: string[]; status: Promise<number> } {
  const c = collector<SseEvent>();
  const comments: string[] = [];
  const abort = new AbortController();
  let settle: (v: { code: number; reason: string }) => void = () => undefined;
  const closed = new Promise<{ code: number; reason: string }>((resolve) => (settle = resolve));
  const status = (async () => {
    const res = await fetch(`http://${base}/api/v1/events/stream${query}`, { headers: { Authorization: `Bearer ${key}`, ...headers }, signal: abort.signal });
    void (async () => {
      let text = '';
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          text += Buffer.from(chunk).toString('utf8');
          let at: number;
          while ((at = text.indexOf('\n\n')) >= 0) {
            const block = text.slice(0, at);
            text = text.slice(at + 2);
            if (block.startsWith(':')) comments.push(block.slice(1).trim());
            else {
              const f = Object.fromEntries(block.split('\n').map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]));
              c.push({ id: f.id, event: f.event, data: JSON.parse(f.data) });
            }
          }
        }
        settle({ code: 0, reason: 'end' });
      } catch {
        settle({ code: 0, reason: 'aborted' });
      }
    })();
    return res.status;
  })();
  return { ...c, comments, status, closed, stop: () => abort.abort() };
}
