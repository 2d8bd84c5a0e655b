import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { closeRenderWorkers, configurePdfFonts, renderPdf, renderWorkerCount, RENDER_CONCURRENCY } from '../../../src/modules/document/pdf.render';
import { RenderPool } from '../../../src/modules/document/pdf.pool';
import type { DocumentView } from '../../../src/modules/document/document.view';
import { pdfText } from '../../helpers/pdf';
import { empty, estimate, greek, long, mixed, mixedBack, symbols, twenty, view } from '../../helpers/pdf-views';

// Renders in worker threads (src/modules/document/pdf.pool.ts) must give the very bytes of the
// plain path in this thread (fonts parsed per document, as pdfmake does by itself): one at a time,
// at the same time, with PDF_FONT, and after a worker has failed.

beforeAll(() => configurePdfFonts(null));
afterAll(() => closeRenderWorkers());

describe('PDF renders in worker threads', () => {
  it('give the bytes of the plain path, one at a time and at the same time', async () => {
    const all = [twenty, long, greek, symbols, mixed, mixedBack, estimate, empty];
    const plain = new Map<DocumentView, Buffer>();
    for (const v of all) plain.set(v, await renderPdf(v, 'plain'));
    for (const v of all) expect((await renderPdf(v)).equals(plain.get(v)!)).toBe(true);
    // Within the cap (2 at once, 16 waiting): every one its own bytes, on at most 2 workers.
    const burst = [...all, ...[...all].reverse()];
    const got = await Promise.all(burst.map((v) => renderPdf(v)));
    got.forEach((b, i) => expect(b.equals(plain.get(burst[i])!)).toBe(true));
    expect(renderWorkerCount()).toBe(RENDER_CONCURRENCY);
  });

  it('text stays extractable: Łukasz, Ζωή, Иван, and the header on every page of 500 lines', async () => {
    const { pages } = await pdfText(await renderPdf(long));
    expect(pages.length).toBeGreaterThan(5);
    for (const page of pages.slice(0, -1)) expect(page).toContain('Unit price');
    const all = pages.join('\n');
    for (const name of ['Łukasz', 'Ζωή', 'Иван', 'Спасибо']) expect(all).toContain(name);
    for (let i = 1; i <= 500; i++) expect(all).toContain(`Part ${i} `);
  });

  it('render with PDF_FONT as configured, and with Roboto again after', async () => {
    // PDF_FONT naming Roboto Italic: another font than the default's regular, so other bytes.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fsc-font-'));
    const file = path.join(dir, 'Italic.ttf');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    fs.writeFileSync(file, Buffer.from((require('pdfmake/build/vfs_fonts') as Record<string, string>)['Roboto-Italic.ttf'], 'base64'));
    const roboto = await renderPdf(greek, 'plain');
    try {
      configurePdfFonts(file);
      const plain = await renderPdf(greek, 'plain');
      expect(plain.equals(roboto)).toBe(false);
      expect((await renderPdf(greek)).equals(plain)).toBe(true);
    } finally {
      configurePdfFonts(null);
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect((await renderPdf(greek)).equals(roboto)).toBe(true);
  });

  it('a worker over its heap cap fails its render, and the next render gets a new worker', async () => {
    const pool = new RenderPool(1, 16);
    try {
      const small = view('INV-0001', ['Valve']);
      const plain = await renderPdf(small, 'plain');
      expect((await pool.render(small, null)).equals(plain)).toBe(true);
      const huge = view('INV-9999', Array.from({ length: 20000 }, (_, i) => `Part ${i + 1}: copper fitting ¾″`));
      await expect(pool.render(huge, null)).rejects.toThrow(/worker/i);
      expect(pool.workers).toBe(0);
      expect((await pool.render(small, null)).equals(plain)).toBe(true);
      expect(pool.workers).toBe(1);
    } finally {
      await pool.close();
    }
  });
});
