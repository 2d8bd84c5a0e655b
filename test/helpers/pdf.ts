import { execFile } from 'node:child_process';
import path from 'node:path';

/** Text of each page of a PDF, extracted by pdfjs-dist in a child process (it ships ESM only). */
export function pdfText(pdf: Buffer): Promise<{ pages: string[]; info: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, [path.join(__dirname, 'pdf-text.mjs')], { maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`${err.message}\n${stderr}`));
      resolve(JSON.parse(stdout));
    });
    child.stdin!.end(pdf);
  });
}
