// Fonts parsed once per process and shared by every PDF (docs/documents.md, "Rendering speed").
//
// pdfkit opens each font anew for every document (fontkit.create on the file's bytes), and fontkit
// parses a font's tables lazily on the object it returns: so every PDF parsed Roboto's GSUB, GPOS,
// cmap and glyph tables again, about half of a small PDF's CPU. Here each font file is parsed once
// and every document gets a view of it: the parsed tables are shared; what a document may change
// is its own (its glyph objects, layout engine and cmap processor, made afresh per view exactly as
// for a newly opened font). A glyph object keeps the code points it was first asked for, which
// become the PDF's ToUnicode map, so glyphs must never be shared between documents: with a view per
// document the bytes are those of the plain path (test/modules/document/pdf-fonts.spec.ts).
//
// How it plugs in: through fontkit's public registerFormat. pdfmake's virtual file system holds,
// in place of a font file, a short token naming a shared font; when pdfkit calls fontkit.create on
// those bytes, fontkit asks each format whether it reads them, and this one answers a new view.
//
// Bounded: one parsed font per configured file (Roboto's four, and PDF_FONT's), made at start and
// never more; a font's parsed tables grow to at most the whole font; at most 4,000 shaped words
// (pdf.shaping.ts) and 4,000 glyph outlines per font. Safe with renders in
// parallel: fontkit and pdfkit never await, so a render's use of a font runs without interruption;
// tables are filled the same way whichever render reads them first, and the shared stream's
// position is set and restored around every read, within one synchronous call.

import { createHash } from 'node:crypto';
import { ShapingCache, ShapingFont } from './pdf.shaping';
import { FixedTables, keepFixedTables } from './pdf.subset';

interface Fontkit {
  create(buffer: Uint8Array): object;
  registerFormat(format: unknown): void;
}
let fontkitLib: Fontkit | undefined;
/** fontkit, loaded with the first font (pdfmake's, which loads the same module). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const fontkit = (): Fontkit => (fontkitLib ??= require('fontkit') as Fontkit);

const MAGIC = 'field-service-crm shared font ';
interface Shared {
  font: ShapingFont;
  words: ShapingCache;
  /**
   * What a glyph reads of the font, by glyph id, for static TrueType fonts: its outline as decoded
   * from glyf (the subset reads it for every glyph it embeds) and its metrics. Neither depends on
   * the document and nothing writes to them; at most MAX_GLYPHS glyphs per font are kept.
   */
  glyphs: Map<number, { decoded: unknown; metrics: unknown }> | null;
  /** The subsets' fixed tables (fpgm, prep, cvt) encoded once, for static TrueType fonts (pdf.subset.ts). */
  fixed: FixedTables | null;
}
const shared: Shared[] = [];
/** The index of each parsed file by the SHA-256 of its bytes: a file is parsed once, however often it is configured. */
const byHash = new Map<string, number>();
const MAX_GLYPHS = 4000;

type Glyph = { _decode(): unknown; _getMetrics(): unknown; _metrics?: unknown };
type FontProto = ShapingFont & { _getBaseGlyph(id: number, codePoints?: number[]): Glyph | null };

/** Gives a new glyph object of a document the outline and metrics kept for its id. */
function shareGlyphData(store: NonNullable<Shared['glyphs']>, id: number, glyph: Glyph): void {
  let data = store.get(id);
  if (!data) {
    if (store.size >= MAX_GLYPHS) return;
    data = { decoded: glyph._decode(), metrics: glyph._getMetrics() };
    store.set(id, data);
  }
  const { decoded, metrics } = data;
  glyph._decode = () => decoded;
  glyph._metrics = metrics;
}

/**
 * A per-document view of a parsed font: the tables are the font's, glyphs and engines its own;
 * its words are shaped through the font's shaping cache (pdf.shaping.ts).
 */
function documentView({ font, words, glyphs, fixed }: Shared): object {
  const view = Object.create(font) as FontProto & { _glyphs: Record<number, unknown> };
  view._glyphs = {};
  view.layout = (...args: unknown[]) => words.layout(view, font.layout, args);
  if (glyphs) {
    const base = (font as FontProto)._getBaseGlyph;
    view._getBaseGlyph = (id: number, codePoints?: number[]) => {
      const made = !view._glyphs[id];
      const glyph = base.call(view, id, codePoints);
      if (made && glyph) shareGlyphData(glyphs, id, glyph);
      return glyph;
    };
  }
  if (fixed) {
    const createSubset = (font as unknown as { createSubset(): Parameters<typeof keepFixedTables>[0] }).createSubset;
    (view as unknown as { createSubset: typeof createSubset }).createSubset = () => {
      const subset = createSubset.call(view);
      keepFixedTables(subset, fixed);
      return subset;
    };
  }
  return view;
}

function tokenIndex(buffer: Uint8Array): number {
  if (buffer.length > 64) return -1;
  const text = Buffer.from(buffer.buffer, buffer.byteOffset, buffer.length).toString('latin1');
  if (!text.startsWith(MAGIC)) return -1;
  const index = Number(text.slice(MAGIC.length));
  return Number.isInteger(index) && index >= 0 && index < shared.length ? index : -1;
}

/** The fontkit format of tokens: fontkit calls `new format(stream)`; a constructor may return an object. */
function SharedFontFormat(this: unknown, stream: { buffer: Uint8Array }): object {
  return documentView(shared[tokenIndex(stream.buffer)]);
}
SharedFontFormat.probe = (buffer: Uint8Array): boolean => tokenIndex(buffer) >= 0;

let registered = false;

/**
 * Parses a font file once and answers the token to put in pdfmake's virtual file system in its
 * place: every document that uses the token gets its own view of this one parsed font.
 */
export function shareFont(file: Buffer): Buffer {
  if (!registered) {
    fontkit().registerFormat(SharedFontFormat);
    registered = true;
  }
  const hash = createHash('sha256').update(file).digest('hex');
  let index = byHash.get(hash);
  if (index === undefined) {
    const font = fontkit().create(file);
    if (!('_glyphs' in font) || !('_tables' in font)) throw new Error('PDF font: not a single TrueType or OpenType font');
    const tables = (font as unknown as { directory: { tables: Record<string, unknown> } }).directory.tables;
    const staticTrueType = !!tables.glyf && !tables.fvar && !tables.gvar && !tables.sbix && !tables.COLR;
    const fixed = staticTrueType && !tables['CFF '] ? { kept: null, failed: false } : null;
    index = shared.push({ font: font as unknown as ShapingFont, words: new ShapingCache(), glyphs: staticTrueType ? new Map() : null, fixed }) - 1;
    byHash.set(hash, index);
  }
  return Buffer.from(`${MAGIC}${index}`, 'latin1');
}

/** How many fonts are parsed and shared: one per distinct configured file (the test that they stay bounded). */
export function sharedFontCount(): number {
  return shared.length;
}

/** How many glyphs each shared font keeps the outline and metrics of (at most MAX_GLYPHS). */
export function sharedGlyphCounts(): number[] {
  return shared.map((s) => s.glyphs?.size ?? 0);
}

/** How many words each shared font keeps shaped (bounded by pdf.shaping.ts). */
export function shapedWordCounts(): number[] {
  return shared.map((s) => s.words.size);
}

/** Which fixed tables each shared font's subsets take from its kept bytes (pdf.subset.ts); null when it keeps none. */
export function keptFixedTables(): Array<string[] | null> {
  return shared.map((s) => (s.fixed?.kept && !s.fixed.failed ? [...s.fixed.kept.keys()] : null));
}
