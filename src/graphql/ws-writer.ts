import type { Duplex } from 'node:stream';
import type { ExecutionResult } from 'graphql';
import { WebSocket } from 'ws';
import type { LiveOperation } from '../modules/live/live.render';

// Writing live events to WebSocket subscribers in batches (docs/live-updates.md, "How events
// reach subscribers"). graphql-ws writes each `next` message on its own: per subscriber and event
// a JSON.stringify of the whole result, a socket write (a system call) and a chain of promises
// waiting for it, which at 1,000 subscribers and 200 events a second took most of the process's
// CPU (docs/benchmark.md, "Live delivery"). Here a subscription's queued events are taken together
// and go out in one write of their frames, each result's JSON is encoded once for every subscriber
// of its selection, and every `next` message is the text graphql-ws would have written for it
// (test/graphql/ws-writer.spec.ts compares them byte for byte).
//
// The frames are written on the connection under the WebSocket, corked into one write, each
// payload from its one shared buffer, not through `ws.send` (a frame, two buffered writes and the
// whole message encoded again per subscriber and message: twice the CPU per message at a hundred a
// write). That is sound because `ws` writes its own frames (graphql-ws's other messages, pings,
// the close) synchronously too, so frames never interleave, and because the server negotiates no
// compression (src/graphql/ws.ts), which would queue them.

/** Events taken from a subscriber's queue for one write at most. */
const BATCH = 128;

const payloads = new WeakMap<ExecutionResult, Buffer>();

/** A result as a `next` message's payload, as graphql-ws writes it: the result, its errors last (toJSON), encoded once per result. */
function payloadOf(result: ExecutionResult): Buffer {
  let bytes = payloads.get(result);
  if (bytes === undefined) {
    const { errors, ...rest } = result;
    payloads.set(result, (bytes = Buffer.from(JSON.stringify(errors ? { ...rest, errors: errors.map((e) => e.toJSON()) } : rest))));
  }
  return bytes;
}

/**
 * Writes the WebSocket frames (RFC 6455 §5.2) of the `next` messages `<prefix><payload>}`, corked
 * into one write: each final, text, unmasked (a server's), its length in 7 bits, 16 or 64. The
 * payloads go from their shared buffers; only the heads (the previous message's closing brace, a
 * frame's header and the prefix) are bytes of this subscriber's.
 */
function writeFrames(raw: Duplex, prefix: Buffer, results: ExecutionResult[]): void {
  const heads = Buffer.allocUnsafe(results.length * (prefix.length + 11) + 1);
  let at = 0;
  raw.cork();
  for (const result of results) {
    const body = payloadOf(result);
    const n = prefix.length + body.length + 1;
    const start = at;
    if (start > 0) heads[at++] = 0x7d;
    heads[at++] = 0x81;
    if (n < 126) heads[at++] = n;
    else if (n < 65_536) {
      heads[at++] = 126;
      at = heads.writeUInt16BE(n, at);
    } else {
      heads[at++] = 127;
      at = heads.writeBigUInt64BE(BigInt(n), at);
    }
    at += prefix.copy(heads, at);
    raw.write(heads.subarray(start, at));
    raw.write(body);
  }
  heads[at] = 0x7d;
  raw.write(heads.subarray(at, at + 1));
  raw.uncork();
}

/** Resolves when the socket has written what it holds, or closed. */
function drained(raw: Duplex): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      raw.off('drain', done).off('close', done);
      resolve();
    };
    raw.on('drain', done).on('close', done);
  });
}

/**
 * The process's writers of live subscriptions. A subscription's writer is woken when its
 * subscriber queues an event, and runs after the wakes of the same turn (setImmediate): the events
 * of one feed read go out to each socket together. A run writes one batch; a writer with more
 * queued runs again in the next turn, so that a backlog (a catch-up, a burst) leaves the event loop
 * to other work between batches. It takes nothing while its socket's buffer is full
 * (`writableNeedDrain`), so a client that stops reading leaves its events in the subscriber's
 * queue, where falling too far behind ends the subscription (4408), as with graphql-ws's own writes.
 */
export class LiveWriters {
  private readonly due = new Set<() => Promise<void>>();
  private immediate: NodeJS.Immediate | null = null;

  /** Writes the operation's events as `next` messages of subscription `id` on the socket (`raw`: the connection under it). */
  start(op: LiveOperation, ws: WebSocket, raw: Duplex, id: string): void {
    const prefix = Buffer.from(`{"id":${JSON.stringify(id)},"type":"next","payload":`);
    const s = op.subscriber;
    const open = () => !s.endReason && ws.readyState === WebSocket.OPEN;
    let active = false;
    const run = async () => {
      try {
        if (raw.writableNeedDrain) await drained(raw);
        const items = open() ? s.take(BATCH) : [];
        if (!items.length) return;
        const rendered = items.map(op.render);
        const results = rendered.some((r) => r instanceof Promise) ? await Promise.all(rendered) : (rendered as ExecutionResult[]);
        // A `complete` from the client, or a close, while rendering: nothing more for this id.
        if (open()) writeFrames(raw, prefix, results);
      } catch (err) {
        s.end('error', err);
      } finally {
        active = false;
        if (s.pending && open()) wake();
      }
    };
    const wake = () => {
      if (active) return;
      active = true;
      this.due.add(run);
      this.immediate ??= setImmediate(() => this.runDue());
    };
    s.onQueued(wake);
  }

  private runDue(): void {
    this.immediate = null;
    const due = [...this.due];
    this.due.clear();
    for (const run of due) void run();
  }
}
