import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { DocumentView } from './document.view';

// Renders in worker threads (docs/documents.md, "Rendering speed"): a render is about 11 ms of
// JavaScript that never awaits, so on the server's one thread it held up every other request
// meanwhile, and the machine's second core stayed half idle. A worker is a thread of this process
// with a heap of its own; it renders with the same code and the same fonts as this thread
// (pdf.worker.ts), so the bytes are the same (test/modules/document/pdf-worker.test.ts).
//
// Bounded: at most `size` workers (the render cap, pdf.render.ts), started on first use and kept;
// each one renders one document at a time, its heap capped (WORKER_HEAP_MB, WORKER_YOUNG_MB). A worker
// that fails (out of memory, a crash) fails its render and is replaced by the next render.

/** The old-space cap of a worker's heap: a 500-line invoice needs about 30 MB. */
export const WORKER_HEAP_MB = 96;
/**
 * The young generation's cap. Smaller saves memory but costs CPU: at 16 MB a worker spent about
 * 50% more CPU per 20-line PDF than a render in the main thread (more scavenges); at 32 MB the
 * same as the main thread, with V8's default as much memory (docs/documents.md, "Rendering speed").
 */
export const WORKER_YOUNG_MB = 32;

/** What a worker is asked: a view, and the font setting to render it with. */
export interface RenderRequest {
  id: number;
  view: DocumentView;
  pdfFont: string | null;
}
/** What it answers: the PDF's bytes (moved, not copied), or the message of its error. */
export type RenderAnswer = { id: number; pdf: Uint8Array } | { id: number; error: string };

interface Slot {
  worker: Worker;
  busy: { id: number; resolve(b: Buffer): void; reject(e: Error): void } | null;
}

/**
 * The worker's entry: the compiled .js next to this file (dist/, the server), or, run from the
 * TypeScript sources (jest, ts-node), the .ts, compiled by SWC as it is loaded, with the settings
 * of scripts/build.js.
 */
function entry(): { file: string; eval: boolean } {
  const js = path.join(__dirname, 'pdf.worker.js');
  if (fs.existsSync(js)) return { file: js, eval: false };
  const ts = path.join(__dirname, 'pdf.worker.ts');
  const options = { module: { type: 'commonjs' }, jsc: { parser: { syntax: 'typescript', decorators: true }, transform: { legacyDecorator: true, decoratorMetadata: true }, target: 'es2022' } };
  const code = `const swc = require('@swc/core'); const fs = require('node:fs');
require.extensions['.ts'] = (m, file) => m._compile(swc.transformSync(fs.readFileSync(file, 'utf8'), { filename: file, ...${JSON.stringify(options)} }).code, file);
require(${JSON.stringify(ts)});`;
  return { file: code, eval: true };
}

export class RenderPool {
  private readonly slots: Slot[] = [];
  private nextId = 1;

  constructor(
    readonly size: number,
    readonly heapMb = WORKER_HEAP_MB,
  ) {}

  /** How many workers are running (at most `size`). */
  get workers(): number {
    return this.slots.length;
  }

  /** Renders a view in an idle worker, starting one if fewer than `size` run. The caller caps how many renders run at once. */
  render(view: DocumentView, pdfFont: string | null): Promise<Buffer> {
    const slot = this.slots.find((s) => !s.busy) ?? (this.slots.length < this.size ? this.start() : null);
    if (!slot) return Promise.reject(new Error(`render pool: more than ${this.size} renders at once`));
    const id = this.nextId++;
    return new Promise<Buffer>((resolve, reject) => {
      slot.busy = { id, resolve, reject };
      slot.worker.ref();
      slot.worker.postMessage({ id, view, pdfFont } satisfies RenderRequest);
    });
  }

  /** Stops every worker (a render under way fails). */
  async close(): Promise<void> {
    await Promise.all(this.slots.splice(0).map((s) => s.worker.terminate()));
  }

  private start(): Slot {
    const { file, eval: isCode } = entry();
    const worker = new Worker(file, { eval: isCode, resourceLimits: { maxOldGenerationSizeMb: this.heapMb, maxYoungGenerationSizeMb: WORKER_YOUNG_MB } });
    const slot: Slot = { worker, busy: null };
    // An idle worker does not keep the process alive.
    worker.unref();
    worker.on('message', (a: RenderAnswer) => {
      const job = slot.busy;
      if (!job || job.id !== a.id) return;
      slot.busy = null;
      worker.unref();
      if ('error' in a) job.reject(new Error(a.error));
      else job.resolve(Buffer.from(a.pdf.buffer, a.pdf.byteOffset, a.pdf.byteLength));
    });
    const gone = (err: Error) => {
      const i = this.slots.indexOf(slot);
      if (i >= 0) this.slots.splice(i, 1);
      const job = slot.busy;
      slot.busy = null;
      job?.reject(err);
    };
    worker.on('error', gone);
    worker.on('exit', (code) => gone(new Error(`render worker exited (code ${code})`)));
    this.slots.push(slot);
    return slot;
  }
}
