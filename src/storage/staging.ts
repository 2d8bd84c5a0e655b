import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
// The core entry: buffer detection only, and resolvable by jest as well as by Node's require(esm).
import { fileTypeFromBuffer } from 'file-type/core';
import { AppError } from '../errors/app-error';

// Allowed photo types (docs/jobs-and-photos.md), judged by the bytes, with the extension used in storage.
const ALLOWED: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/heic': 'heic',
  'image/heic-sequence': 'heic',
  'image/heif': 'heif',
  'image/heif-sequence': 'heif',
};
const HEAD_BYTES = 4100; // what file-type needs to recognise these formats

export const ALLOWED_TYPES_TEXT = 'JPEG, PNG, WebP, HEIC/HEIF or GIF';
export const MAX_FILES = 20;

/** An uploaded file checked and parked in the staging area, not yet in storage. */
export interface StagedFile {
  /** Name of the request field, for error messages (`photos`, `files[1]`). */
  field: string;
  fileName: string | null;
  path: string;
  size: number;
  mime: string;
  ext: string;
}

/** The client's file name, kept only as data (file_name): no path, no control characters. */
export function cleanFileName(name: string | null | undefined): string | null {
  const base = (name ?? '').replace(/[\u0000-\u001f\u007f]/g, '').split(/[\\/]/).pop()!.trim();
  return base ? base.slice(0, 255) : null;
}

/**
 * Streams one upload to a staging file, counting bytes and keeping only the first few KiB to judge
 * the type. Refuses (400) oversized, empty and non-image files, leaving nothing behind.
 */
export async function stageFile(source: Readable | (() => Readable), o: { dir: string; field: string; fileName: string | null | undefined; maxBytes: number }): Promise<StagedFile> {
  // The upload's own failures (a body that ends inside the file, a client that disconnects) are
  // the client's: a 400. They are listened for at once, before anything is awaited: a stream
  // that fails with no listener takes the process down.
  let sourceFailed = false;
  const watch = (stream: Readable) => stream.on('error', () => void (sourceFailed = true));
  if (typeof source !== 'function') watch(source);
  const notReceived = () => AppError.field(o.field, 'was not received completely (the request ended inside the file)');
  await fs.mkdir(o.dir, { recursive: true });
  const target = path.join(o.dir, randomUUID());
  let size = 0;
  let tooBig = false;
  const head: Buffer[] = [];
  let headLength = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (headLength < HEAD_BYTES) {
        head.push(chunk.subarray(0, HEAD_BYTES - headLength));
        headLength += Math.min(chunk.length, HEAD_BYTES - headLength);
      }
      // Past the limit: keep reading (so the request drains) but write nothing more.
      if (size > o.maxBytes) tooBig = true;
      done(null, tooBig ? undefined : chunk);
    },
  });
  const tooLarge = () => AppError.field(o.field, `is larger than the limit of ${o.maxBytes} bytes`);
  try {
    try {
      // A function opens the stream here, where its errors (graphql-upload's 413) are handled.
      let stream: Readable;
      try {
        stream = typeof source === 'function' ? watch(source()) : source;
      } catch (err) {
        // graphql-upload refuses to open a file whose upload already failed.
        if ((err as { status?: number }).status === 413) throw tooLarge();
        throw notReceived();
      }
      await pipeline(stream, counter, createWriteStream(target, { flags: 'wx' }));
    } catch (err) {
      // graphql-upload ends an oversized file's stream with a 413 error.
      if ((err as { status?: number }).status === 413) throw tooLarge();
      if (err instanceof AppError) throw err;
      if (sourceFailed) throw notReceived();
      throw err;
    }
    if (tooBig) throw tooLarge();
    if (size === 0) throw AppError.field(o.field, 'is empty');
    const type = await fileTypeFromBuffer(Buffer.concat(head));
    const ext = type ? ALLOWED[type.mime] : undefined;
    if (!type || !ext) throw AppError.field(o.field, `is not a ${ALLOWED_TYPES_TEXT} image (judged by its content)`);
    return { field: o.field, fileName: cleanFileName(o.fileName), path: target, size, mime: type.mime, ext };
  } catch (err) {
    await fs.rm(target, { force: true });
    throw err;
  }
}

export async function discardStaged(files: StagedFile[]): Promise<void> {
  await Promise.allSettled(files.map((f) => fs.rm(f.path, { force: true })));
}
