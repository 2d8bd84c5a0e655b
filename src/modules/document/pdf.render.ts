import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../errors/app-error';
import { documentDefinition } from './pdf.layout';
import { parseFont, shareFont } from './pdf.fonts';
import { RenderPool } from './pdf.pool';
import type { DocumentView } from './document.view';

// PDFs are rendered by pdfmake (pure JavaScript, no browser), with Roboto from pdfmake's own
// virtual file system (Latin, Greek, Cyrillic) or the TTF/OTF named by PDF_FONT. No URL and no
// local file is ever read by a document: both access policies refuse everything. The server
// renders in worker threads (pdf.pool.ts, pdf.worker.ts), which run renderHere below.

interface Pdfmake {
  virtualfs: { writeFileSync(name: string, data: Buffer): void };
  setFonts(fonts: Record<string, Record<string, string>>): void;
  setUrlAccessPolicy(cb: (url: string) => boolean): void;
  setLocalAccessPolicy(cb: (path: string) => boolean): void;
  createPdf(doc: unknown): { getBuffer(): Promise<Buffer> };
}
/** pdfmake, loaded by the first render in this thread (the server's main thread renders none). */
let pdfmake: Pdfmake | undefined;

/** PDF_FONT as configured (null: Roboto). */
let setting: string | null = null;
/** The setting this thread's pdfmake has loaded the fonts of (undefined: none yet). */
let loaded: string | null | undefined;

const ROBOTO = { normal: 'Roboto-Regular.ttf', bold: 'Roboto-Medium.ttf', italics: 'Roboto-Italic.ttf', bolditalics: 'Roboto-MediumItalic.ttf' };

/**
 * Where a render runs and how it gets its fonts: `worker` (the server's path) in a worker thread
 * on the shared fonts; `shared` in this thread on the fonts parsed once per thread (pdf.fonts.ts);
 * `plain` in this thread, with pdfkit parsing each font file anew for the document, as pdfmake
 * does by itself. All three give the same bytes (test/modules/document/pdf-fonts.test.ts,
 * pdf-worker.test.ts).
 */
export type RenderPath = 'worker' | FontPath;
export type FontPath = 'shared' | 'plain';

/** A family of four styles, as a font file in the virtual file system for each path. */
function family(vfs: Pdfmake['virtualfs'], name: string, files: Record<keyof typeof ROBOTO, string>, read: (file: string) => Buffer): Record<string, Record<string, string>> {
  const plain: Record<string, string> = {};
  const fast: Record<string, string> = {};
  for (const [style, file] of Object.entries(files)) {
    const bytes = read(file);
    vfs.writeFileSync(`plain/${file}`, bytes);
    vfs.writeFileSync(`shared/${file}`, shareFont(bytes));
    plain[style] = `plain/${file}`;
    fast[style] = `shared/${file}`;
  }
  return { [`${name} shared`]: fast, [`${name} plain`]: plain };
}

/** Loads the configured fonts into this thread's pdfmake, once per setting: Roboto always, and the PDF_FONT file, which then writes every text. */
function loadHere(): Pdfmake {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  pdfmake ??= require('pdfmake') as Pdfmake;
  if (loaded === setting) return pdfmake;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const vfs = require('pdfmake/build/vfs_fonts') as Record<string, string>;
  const fonts = family(pdfmake.virtualfs, 'Roboto', ROBOTO, (file) => Buffer.from(vfs[file], 'base64'));
  if (setting) {
    const file = `custom${path.extname(setting).toLowerCase()}`;
    const bytes = fs.readFileSync(setting);
    Object.assign(fonts, family(pdfmake.virtualfs, 'Custom', { normal: file, bold: file, italics: file, bolditalics: file }, () => bytes));
  }
  pdfmake.setFonts(fonts);
  pdfmake.setUrlAccessPolicy(() => false);
  pdfmake.setLocalAccessPolicy(() => false);
  loaded = setting;
  return pdfmake;
}

/** Sets the PDF font (PDF_FONT, or null for Roboto); a file that is not one TrueType or OpenType font is refused here, at start. */
export function configurePdfFonts(pdfFont: string | null): void {
  if (pdfFont) parseFont(fs.readFileSync(pdfFont));
  setting = pdfFont;
}

/** The font setting renders use (what a worker is sent). */
export function fontSetting(): string | null {
  return setting;
}

/**
 * A cap on renders in this process: `concurrency` at once, `queue` more waiting; past that the
 * request is refused at once (503 SERVICE_UNAVAILABLE with Retry-After) instead of holding one
 * more document in memory.
 */
export class RenderLimit {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly concurrency: number,
    readonly queue: number,
  ) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.queue) throw new AppError('SERVICE_UNAVAILABLE', 'Too many documents are being rendered; retry shortly');
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await task();
    } finally {
      // The slot passes to the next waiting render, or is given back.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

export const RENDER_CONCURRENCY = 2;
export const RENDER_QUEUE = 16;
const limit = new RenderLimit(RENDER_CONCURRENCY, RENDER_QUEUE);
/** One worker per render the cap lets run at once. */
const pool = new RenderPool(RENDER_CONCURRENCY);

/** The PDF of a document view, within the cap: in a worker thread unless `path` says otherwise. */
export function renderPdf(view: DocumentView, path: RenderPath = 'worker'): Promise<Buffer> {
  return limit.run(() => (path === 'worker' ? pool.render(view, setting) : renderHere(view, path)));
}

/** The PDF of a document view, rendered in this thread (a worker's, or a test's, or the bench's). */
export function renderHere(view: DocumentView, fonts: FontPath): Promise<Buffer> {
  const pdf = loadHere();
  return pdf.createPdf(documentDefinition(view, `${setting ? 'Custom' : 'Roboto'} ${fonts}`)).getBuffer();
}

/** How many render workers run (at most RENDER_CONCURRENCY). */
export function renderWorkerCount(): number {
  return pool.workers;
}

/** Stops the render workers. */
export function closeRenderWorkers(): Promise<void> {
  return pool.close();
}

/** Names the font setup, for the ETag: another font gives other bytes. */
export function fontTag(): string {
  return setting ? 'Custom' : 'Roboto';
}
