import { parse } from 'csv-parse';
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../../errors/app-error';

// An import's file (docs/import-export.md): received to a staging file within the size limit,
// read for its format, delimiter, header and number of rows, and read again record by record.

export const IMPORT_MAX_BYTES = 50 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 500_000;

export interface FileLayout {
  format: 'csv' | 'ndjson';
  /** CSV: `,`, `;` or a tab, detected from the header line. */
  delimiter: string | null;
  /** CSV: the header's columns; NDJSON: none (each line names its fields). */
  columns: string[];
  rows: number;
}

/** One record of the file: its row (CSV: 1 is the header; NDJSON: the line) and its values by column, or why it cannot be read. */
export interface FileRecord {
  row: number;
  values: Record<string, unknown> | null;
  /** The record as sent: CSV cells, or the NDJSON line's value (the error file writes it back). */
  raw: string[] | unknown;
  error: string | null;
}

/** Streams an upload to a staging file; 400 naming `field` when it is empty or larger than the limit. */
export async function stageImportFile(source: Readable, field: string, maxBytes = IMPORT_MAX_BYTES): Promise<{ path: string; size: number }> {
  const target = path.join(os.tmpdir(), `fsc-import-${randomUUID()}`);
  let size = 0;
  let tooBig = false;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      // Past the limit: keep reading (so the request drains), write nothing more.
      if (size > maxBytes) tooBig = true;
      done(null, tooBig ? undefined : chunk);
    },
  });
  try {
    await pipeline(source, counter, createWriteStream(target, { flags: 'wx' }));
  } catch (err) {
    await fs.rm(target, { force: true });
    if ((err as { status?: number }).status === 413) throw AppError.field(field, `is larger than the limit of ${maxBytes} bytes`);
    throw AppError.field(field, 'was not received completely');
  }
  if (tooBig || size === 0) {
    await fs.rm(target, { force: true });
    throw AppError.field(field, tooBig ? `is larger than the limit of ${maxBytes} bytes` : 'is empty');
  }
  return { path: target, size };
}

/** The delimiter of a CSV header line: the most frequent of `,` `;` and tab outside quotes (`,` on a tie). */
export function detectDelimiter(headerLine: string): string {
  const counts: Record<string, number> = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const ch of headerLine) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch in counts) counts[ch]++;
  }
  return [';', '\t'].reduce((best, d) => (counts[d] > counts[best] ? d : best), ',');
}

/** The file's format, delimiter, header and number of records; 400 naming `field` for a file that cannot be read as CSV. */
export async function readLayout(file: string, field: string): Promise<FileLayout> {
  const head = await readHead(file, 64 * 1024);
  const text = head.replace(/^\uFEFF/, '');
  if (text.trimStart().startsWith('{')) {
    let rows = 0;
    for await (const _r of records(createReadStream(file), { format: 'ndjson', delimiter: null, columns: [], rows: 0 })) rows++;
    if (rows > IMPORT_MAX_ROWS) throw AppError.field(field, `holds more than ${IMPORT_MAX_ROWS} rows`);
    return { format: 'ndjson', delimiter: null, columns: [], rows };
  }
  const delimiter = detectDelimiter(text.split(/\r?\n/, 1)[0]);
  const layout: FileLayout = { format: 'csv', delimiter, columns: [], rows: 0 };
  try {
    for await (const r of records(createReadStream(file), layout, (columns) => (layout.columns = columns))) {
      layout.rows++;
      if (layout.rows > IMPORT_MAX_ROWS) throw AppError.field(field, `holds more than ${IMPORT_MAX_ROWS} rows`);
      void r;
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw AppError.field(field, `is not a CSV file that can be read: ${(err as Error).message}`);
  }
  if (!layout.columns.length) throw AppError.field(field, 'has no header');
  const seen = new Set<string>();
  for (const c of layout.columns) {
    if (seen.has(c)) throw AppError.field(field, `has the column "${c}" twice`);
    seen.add(c);
  }
  return layout;
}

async function readHead(file: string, bytes: number): Promise<string> {
  const handle = await fs.open(file, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * The records of a file in `layout`, in order. CSV: the header is read first (`onHeader`); a
 * record with another number of values than the header is an error of its row. NDJSON: each
 * non-empty line a JSON object, else an error of its row.
 */
export async function* records(source: Readable, layout: FileLayout, onHeader?: (columns: string[]) => void): AsyncGenerator<FileRecord> {
  if (layout.format === 'ndjson') {
    let line = 0;
    let rest = '';
    const one = (text: string): FileRecord | null => {
      line++;
      const t = text.replace(/^\uFEFF/, '').trim();
      if (!t) return null;
      try {
        const v = JSON.parse(t) as unknown;
        if (v && typeof v === 'object' && !Array.isArray(v)) return { row: line, values: v as Record<string, unknown>, raw: v, error: null };
        return { row: line, values: null, raw: t, error: 'is not a JSON object' };
      } catch {
        return { row: line, values: null, raw: t, error: 'is not valid JSON' };
      }
    };
    // The file arrives in pieces (of the upload, of the stored file): a character whose bytes
    // fall on both sides of a piece is decoded whole, with the next piece.
    const decoder = new StringDecoder('utf8');
    for await (const chunk of source) {
      const lines = (rest + (typeof chunk === 'string' ? chunk : decoder.write(chunk as Buffer))).split('\n');
      rest = lines.pop()!;
      for (const l of lines) {
        const r = one(l);
        if (r) yield r;
      }
    }
    const r = one(rest + decoder.end());
    if (r) yield r;
    return;
  }
  const parser = source.pipe(parse({ bom: true, delimiter: layout.delimiter ?? ',', relax_column_count: true, skip_empty_lines: true }));
  let columns: string[] | null = null;
  let row = 1;
  for await (const cells of parser as AsyncIterable<string[]>) {
    if (!columns) {
      columns = cells.map((c) => c.trim());
      onHeader?.(columns);
      continue;
    }
    row++;
    if (cells.length !== columns.length) {
      yield { row, values: null, raw: cells, error: `has ${cells.length} values where the header has ${columns.length} columns` };
      continue;
    }
    const values: Record<string, unknown> = {};
    columns.forEach((c, i) => (values[c] = cells[i]));
    yield { row, values, raw: cells, error: null };
  }
}
