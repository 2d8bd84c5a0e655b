import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../errors/app-error';
import { documentDefinition } from './pdf.layout';
import type { DocumentView } from './document.view';

// PDFs are rendered in this process by pdfmake (pure JavaScript, no browser), with Roboto from
// pdfmake's own virtual file system (Latin, Greek, Cyrillic) or the TTF/OTF named by PDF_FONT.
// No URL and no local file is ever read by a document: both access policies refuse everything.

// eslint-disable-next-line @typescript-eslint/no-require-imports
const pdfmake = require('pdfmake') as {
  virtualfs: { writeFileSync(name: string, data: Buffer): void };
  setFonts(fonts: Record<string, Record<string, string>>): void;
  setUrlAccessPolicy(cb: (url: string) => boolean): void;
  setLocalAccessPolicy(cb: (path: string) => boolean): void;
  createPdf(doc: unknown): { getBuffer(): Promise<Buffer> };
};

let fontName: string | undefined;

/** Loads the fonts once: Roboto always, and the PDF_FONT file, which then writes every text. */
export function configurePdfFonts(pdfFont: string | null): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const vfs = require('pdfmake/build/vfs_fonts') as Record<string, string>;
  for (const file of ['Roboto-Regular.ttf', 'Roboto-Medium.ttf', 'Roboto-Italic.ttf', 'Roboto-MediumItalic.ttf']) pdfmake.virtualfs.writeFileSync(file, Buffer.from(vfs[file], 'base64'));
  const fonts: Record<string, Record<string, string>> = {
    Roboto: { normal: 'Roboto-Regular.ttf', bold: 'Roboto-Medium.ttf', italics: 'Roboto-Italic.ttf', bolditalics: 'Roboto-MediumItalic.ttf' },
  };
  fontName = 'Roboto';
  if (pdfFont) {
    const file = `custom${path.extname(pdfFont).toLowerCase()}`;
    pdfmake.virtualfs.writeFileSync(file, fs.readFileSync(pdfFont));
    fonts.Custom = { normal: file, bold: file, italics: file, bolditalics: file };
    fontName = 'Custom';
  }
  pdfmake.setFonts(fonts);
  pdfmake.setUrlAccessPolicy(() => false);
  pdfmake.setLocalAccessPolicy(() => false);
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

/** The PDF of a document view. */
export function renderPdf(view: DocumentView): Promise<Buffer> {
  if (!fontName) configurePdfFonts(null);
  return limit.run(() => pdfmake.createPdf(documentDefinition(view, fontName!)).getBuffer());
}

/** Names the font setup, for the ETag: another font gives other bytes. */
export function fontTag(): string {
  return fontName ?? 'Roboto';
}
