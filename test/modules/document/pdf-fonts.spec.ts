import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configurePdfFonts, renderPdf } from '../../../src/modules/document/pdf.render';
import { keptFixedTables, shapedWordCounts, sharedFontCount, sharedGlyphCounts } from '../../../src/modules/document/pdf.fonts';
import type { DocumentView } from '../../../src/modules/document/document.view';
import { pdfText } from '../../helpers/pdf';
import { empty, estimate, greek, long, mixed, mixedBack, symbols, twenty, view } from '../../helpers/pdf-views';

// The fonts parsed once per process (src/modules/document/pdf.fonts.ts) must give the very bytes
// of the plain path, where pdfkit parses every font file anew for each document: whatever was
// rendered before, in whatever order, and with renders running at the same time.

beforeAll(() => configurePdfFonts(null));

describe('PDF fonts parsed once per process', () => {
  it('give the bytes of the plain path, whatever was rendered before', async () => {
    const all = [twenty, long, greek, symbols, mixed, mixedBack, estimate, empty];
    const plain = new Map<DocumentView, Buffer>();
    for (const v of all) plain.set(v, await renderPdf(v, 'plain'));
    // Forwards, backwards, and each twice: the shared fonts have seen the others by then.
    for (const v of [...all, ...[...all].reverse()]) expect((await renderPdf(v, 'shared')).equals(plain.get(v)!)).toBe(true);
    // The plain path itself is deterministic (the ETag rests on it).
    expect((await renderPdf(twenty, 'plain')).equals(plain.get(twenty)!)).toBe(true);
  });

  it('give the plain bytes with renders at the same time', async () => {
    const all = [symbols, greek, mixed, twenty, estimate, long, empty, mixedBack, greek, symbols];
    const plain = await Promise.all(all.map((v) => renderPdf(v, 'plain')));
    const shared = await Promise.all(all.map((v) => renderPdf(v, 'shared')));
    shared.forEach((b, i) => expect(b.equals(plain[i])).toBe(true));
  });

  it('encode the subsets\' fixed tables (fpgm, prep, cvt) once per font, and still give the plain bytes', async () => {
    // The first subset of each style is encoded by fontkit and its fixed tables kept; every later
    // one is encoded with them empty and the kept bytes put back (pdf.subset.ts).
    await renderPdf(twenty, 'shared');
    expect(keptFixedTables().slice(0, 2)).toEqual([['cvt ', 'prep', 'fpgm'], ['cvt ', 'prep', 'fpgm']]);
    for (const v of [twenty, greek, long, empty, twenty]) expect((await renderPdf(v, 'shared')).equals(await renderPdf(v, 'plain'))).toBe(true);
    expect(keptFixedTables().slice(0, 2)).toEqual([['cvt ', 'prep', 'fpgm'], ['cvt ', 'prep', 'fpgm']]);
  });

  it('keep each document its own text: Δ after ∆ (one glyph)', async () => {
    await renderPdf(symbols, 'shared');
    const text = (await pdfText(await renderPdf(greek, 'shared'))).pages.join('\n');
    expect(text).toContain('\u0394 valve, \u03a9 resistor');
    expect(text).not.toContain('\u2206');
    expect(text).toContain('Ζωή, Иван, Łukasz');
    // (pdf.js reads U+2126 as U+03A9, its canonical equivalent: the bytes tests above tell them apart.)
    const other = (await pdfText(await renderPdf(symbols, 'shared'))).pages.join('\n');
    expect(other).toContain('\u2206 pressure test, 10 k');
    expect(other).not.toContain('\u0394');
  });

  it('a 500-line invoice on the shared fonts: every line, the header on every page', async () => {
    const { pages } = await pdfText(await renderPdf(long, 'shared'));
    expect(pages.length).toBeGreaterThan(5);
    for (const page of pages.slice(0, -1)) expect(page).toContain('Unit price');
    const all = pages.join('\n');
    for (let i = 1; i <= 500; i++) expect(all).toContain(`Part ${i} `);
  });

  it('are bounded: one parsed font per distinct file, however often fonts are configured', async () => {
    await renderPdf(twenty, 'shared');
    expect(sharedFontCount()).toBe(4);
    const n = sharedFontCount();
    configurePdfFonts(null);
    // PDF_FONT naming a copy of Roboto Regular: the same bytes, parsed once.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fsc-font-'));
    const file = path.join(dir, 'Copy.ttf');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    fs.writeFileSync(file, Buffer.from((require('pdfmake/build/vfs_fonts') as Record<string, string>)['Roboto-Regular.ttf'], 'base64'));
    configurePdfFonts(file);
    expect(sharedFontCount()).toBe(n);
    expect((await renderPdf(greek, 'shared')).equals(await renderPdf(greek, 'plain'))).toBe(true);
    configurePdfFonts(null);
    for (let i = 0; i < 20; i++) await renderPdf(twenty, 'shared');
    expect(sharedFontCount()).toBe(n);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('every character of Roboto, regular and bold: the plain bytes, one kept outline per glyph', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const fontkit = require('fontkit') as { create(b: Buffer): { characterSet: number[]; numGlyphs: number } };
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const roboto = fontkit.create(Buffer.from((require('pdfmake/build/vfs_fonts') as Record<string, string>)['Roboto-Regular.ttf'], 'base64'));
    const chars = roboto.characterSet.filter((c) => c > 0x20 && c !== 0xad).map((c) => String.fromCodePoint(c));
    const rows = Array.from({ length: Math.ceil(chars.length / 40) }, (_, i) => chars.slice(i * 40, i * 40 + 40).join(''));
    // The customer's name is bold: every character in both styles.
    const every = view('INV-0928', rows, { notes: rows.join(' '), customer: { name: rows.join(' '), companyName: null, address: [], email: null } });
    const styled = { ...every, lines: every.lines.map((l, i) => ({ ...l, description: i % 2 ? l.description : `${l.description} ${l.description}` })) };
    for (const v of [every, styled]) expect((await renderPdf(v, 'shared')).equals(await renderPdf(v, 'plain'))).toBe(true);
    for (const n of sharedGlyphCounts().slice(0, 4)) expect(n).toBeLessThanOrEqual(roboto.numGlyphs);
    expect(sharedGlyphCounts()[0]).toBeGreaterThan(800);
    expect(sharedGlyphCounts()[1]).toBeGreaterThan(800);
  });

  it('keep at most 4,000 shaped words per font, and still give the plain bytes', async () => {
    const words = view('INV-5000', Array.from({ length: 500 }, (_, i) => Array.from({ length: 10 }, (_, j) => `w${i}x${j}`).join(' ')));
    const shared = await renderPdf(words, 'shared');
    expect(shapedWordCounts()[0]).toBe(4000);
    expect(shared.equals(await renderPdf(words, 'plain'))).toBe(true);
    expect((await renderPdf(twenty, 'shared')).equals(await renderPdf(twenty, 'plain'))).toBe(true);
  });

  // Liberation Sans draws '-' and the soft hyphen (U+00AD, which layout hides) with one glyph: a
  // word shaped in a document where the glyph is the soft hyphen must not be replayed in one
  // where it is already '-' (the real layout then shows it). Debian's fonts-liberation has it.
  const liberation = '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf';
  (fs.existsSync(liberation) ? it : it.skip)(`a PDF_FONT whose glyph serves a hidden and a shown character (${liberation}; skipped where not installed)`, async () => {
    configurePdfFonts(liberation);
    // (No '-' before the lines: not in the number, not in a phone number.)
    const company = { name: 'Acme', address: ['1 Main St'], phone: null, email: 'office@acme.example' };
    const soft = view('INV0173', ['co\u00adop cost', 'Re\u00adpair'], { company });
    const hard = view('INV0045', ['co-op first', 'co\u00adop cost', 'Re\u00adpair', 'x\u00ad y'], { company });
    const plain = [await renderPdf(soft, 'plain'), await renderPdf(hard, 'plain')];
    for (let i = 0; i < 2; i++) {
      expect((await renderPdf(soft, 'shared')).equals(plain[0])).toBe(true);
      expect((await renderPdf(hard, 'shared')).equals(plain[1])).toBe(true);
    }
    configurePdfFonts(null);
  });
});

it('a PDF_FONT file that is not a font is refused when the fonts are configured (the start), not at the first PDF', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fsc-font-'));
  const file = path.join(dir, 'Broken.ttf');
  fs.writeFileSync(file, 'not a font at all');
  try {
    expect(() => configurePdfFonts(file)).toThrow();
  } finally {
    configurePdfFonts(null);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  // Roboto alone still renders afterwards.
  expect((await renderPdf(twenty, 'shared')).subarray(0, 5).toString()).toBe('%PDF-');
});
