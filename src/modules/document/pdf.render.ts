import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../errors/app-error';
import { documentDefinition } from './pdf.layout';
import { shareFont } from './pdf.fonts';
import type { DocumentView } from './document.view';

// PDFs are rendered in this process by pdfmake (pure JavaScript, no browser), with Roboto from
// pdfmake's own virtual file system (Latin, Greek, Cyrillic) or the TTF/OTF named by PDF_FONT.
// No URL and no local file is ever read by a document: both access policies refuse everything.

interface Pdfmake {
  virtualfs: { writeFileSync(name: string, data: Buffer): void };
  setFonts(fonts: Record<string, Record<string, string>>): void;
  setUrlAccessPolicy(cb: (url: string) => boolean): void;
  setLocalAccessPolicy(cb: (path: string) => boolean): void;
  createPdf(doc: unknown): { getBuffer(): Promise<Buffer> };
}

let loaded: Pdfmake | undefined;

/**
 * pdfmake (with pdfkit and fontkit), loaded with the fonts: at the first PDF, or at the start when
 * PDF_FONT names a file. A process that renders no PDF does not load it (a third of a second).
 */
function pdfmake(): Pdfmake {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (loaded ??= require('pdfmake') as Pdfmake);
}

/** The font family that writes every text ('Roboto', or 'Custom' for PDF_FONT's file), once configured. */
let fontName: string | undefined;
/** PDF_FONT's file, or null. */
let customFont: string | null = null;
/** Whether the configured fonts are in pdfmake's virtual file system. */
let fontsLoaded = false;

const ROBOTO = { normal: 'Roboto-Regular.ttf', bold: 'Roboto-Medium.ttf', italics: 'Roboto-Italic.ttf', bolditalics: 'Roboto-MediumItalic.ttf' };

/**
 * How a render gets its fonts: `shared` (the fast path) uses the fonts parsed once per process
 * (pdf.fonts.ts); `plain` lets pdfkit parse each font file anew for the document, as pdfmake does
 * by itself. Both give the same bytes (test/modules/document/pdf-fonts.spec.ts).
 */
export type FontPath = 'shared' | 'plain';

/** A family of four styles, as a font file in the virtual file system for each path. */
function family(name: string, files: Record<keyof typeof ROBOTO, string>, read: (file: string) => Buffer): Record<string, Record<string, string>> {
  const plain: Record<string, string> = {};
  const fast: Record<string, string> = {};
  for (const [style, file] of Object.entries(files)) {
    const bytes = read(file);
    pdfmake().virtualfs.writeFileSync(`plain/${file}`, bytes);
    pdfmake().virtualfs.writeFileSync(`shared/${file}`, shareFont(bytes));
    plain[style] = `plain/${file}`;
    fast[style] = `shared/${file}`;
  }
  return { [`${name} shared`]: fast, [`${name} plain`]: plain };
}

/**
 * Sets the fonts: Roboto always, and the PDF_FONT file, which then writes every text. A PDF_FONT
 * file is read and parsed now, so that a missing or unreadable one stops the start; Roboto alone
 * is loaded with the first PDF.
 */
export function configurePdfFonts(pdfFont: string | null): void {
  customFont = pdfFont;
  fontName = pdfFont ? 'Custom' : 'Roboto';
  fontsLoaded = false;
  if (pdfFont) loadFonts();
}

/** Puts the configured fonts into pdfmake's virtual file system, once. */
function loadFonts(): void {
  if (fontsLoaded) return;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const vfs = require('pdfmake/build/vfs_fonts') as Record<string, string>;
  const fonts = family('Roboto', ROBOTO, (file) => Buffer.from(vfs[file], 'base64'));
  if (customFont) {
    const file = `custom${path.extname(customFont).toLowerCase()}`;
    const bytes = fs.readFileSync(customFont);
    Object.assign(fonts, family('Custom', { normal: file, bold: file, italics: file, bolditalics: file }, () => bytes));
  }
  pdfmake().setFonts(fonts);
  pdfmake().setUrlAccessPolicy(() => false);
  pdfmake().setLocalAccessPolicy(() => false);
  fontsLoaded = true;
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
export function renderPdf(view: DocumentView, fonts: FontPath = 'shared'): Promise<Buffer> {
  if (!fontName) configurePdfFonts(null);
  loadFonts();
  return limit.run(() => pdfmake().createPdf(documentDefinition(view, `${fontName} ${fonts}`)).getBuffer());
}

/** Names the font setup, for the ETag: another font gives other bytes. */
export function fontTag(): string {
  return fontName ?? 'Roboto';
}
