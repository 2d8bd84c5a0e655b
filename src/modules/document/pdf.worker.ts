import { parentPort } from 'node:worker_threads';
import { configurePdfFonts, fontSetting, renderHere } from './pdf.render';
import type { RenderAnswer, RenderRequest } from './pdf.pool';

// A render worker (pdf.pool.ts): renders each view it is sent on the shared fonts, with the font
// setting sent along (PDF_FONT, as the server configured it), and answers the bytes.

const port = parentPort;
if (!port) throw new Error('pdf.worker runs as a worker thread');

port.on('message', ({ id, view, pdfFont }: RenderRequest) => {
  const answer = (a: RenderAnswer, move: ArrayBuffer[] = []) => port.postMessage(a, move);
  try {
    if (fontSetting() !== pdfFont) configurePdfFonts(pdfFont);
  } catch (e) {
    return answer({ id, error: `PDF font: ${(e as Error).message}` });
  }
  renderHere(view, 'shared').then(
    (pdf) => {
      // A buffer of its own is moved to the main thread; a slice of a shared one is copied first.
      const own = pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength ? pdf : new Uint8Array(pdf);
      answer({ id, pdf: own }, [own.buffer as ArrayBuffer]);
    },
    (e: Error) => answer({ id, error: e.message }),
  );
});
