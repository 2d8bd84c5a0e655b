// JSON log lines gathered into batches before they are written (docs/access-and-operations.md,
// "Logs"). Each write to stdout is a system call and its thread-pool round trip: one per request
// line cost ~4–5% of the server's CPU under load (docs/benchmark.md, "Log lines in batches").
// Lines are handed to the writer when BATCH_BYTES have gathered or FLUSH_MS after the first line
// of a batch, in order; a warning or an error at once.

/** What the batch writes to: pino's asynchronous destination (sonic-boom). */
export interface LineWriter {
  write(text: string): boolean;
  flushSync(): void;
  /** sonic-boom's 'write' event: bytes written by one completed write. */
  on(event: 'write', listener: (bytes: number) => void): unknown;
}

export const BATCH_BYTES = 4096;
export const FLUSH_MS = 50;

/** pino's JSON lines begin with their level (`{"level":40,…`: the logger has no `base` fields). */
const LEVEL = '{"level":';

/** A line of level warn (40) or above, or of a level that cannot be read. */
export function urgent(line: string): boolean {
  if (!line.startsWith(LEVEL)) return false;
  return !(parseInt(line.slice(LEVEL.length, LEVEL.length + 4), 10) < 40);
}

export class LineBatch {
  private pending = '';
  private timer: NodeJS.Timeout | null = null;
  /** Bytes handed to the writer, and bytes it reports written. */
  private handed = 0;
  private written = 0;
  private waiting: Array<() => void> = [];

  constructor(
    private readonly out: LineWriter,
    private readonly writeSync: (text: string) => void,
    private readonly bytes = BATCH_BYTES,
    private readonly ms = FLUSH_MS,
  ) {
    out.on('write', (n) => {
      this.written += n;
      if (this.written >= this.handed) for (const resolve of this.waiting.splice(0)) resolve();
    });
  }

  /** pino's destination interface: one line (its newline included). */
  write(line: string): boolean {
    this.pending += line;
    // A warning or an error is handed over at once, with what was gathered before it: it may be
    // the last line before a process dies, and whoever watches the log waits for it.
    if (this.pending.length >= this.bytes || urgent(line)) this.hand();
    // Not unref'd: a process that ends by itself hands its last lines over first (at most FLUSH_MS later).
    else if (!this.timer) this.timer = setTimeout(() => this.hand(), this.ms);
    return true;
  }

  /** Resolves once every line logged so far has been written. */
  flush(cb?: (err?: Error) => void): void {
    this.hand();
    if (this.written >= this.handed) return void cb?.();
    this.waiting.push(() => cb?.());
  }

  /**
   * At exit, with no event loop left: what the writer holds, then the lines not handed over yet,
   * written synchronously (a write the writer has on its way is its own; see src/logger.ts).
   */
  flushSync(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    try {
      this.out.flushSync();
    } finally {
      const text = this.pending;
      this.pending = '';
      if (text) this.writeSync(text);
    }
  }

  private hand(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.pending) return;
    const text = this.pending;
    this.pending = '';
    this.handed += Buffer.byteLength(text);
    this.out.write(text);
  }
}
