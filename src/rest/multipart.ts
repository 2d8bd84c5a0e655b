import busboy from 'busboy';
import type { Request } from 'express';
import { AppError, ErrorDetail } from '../errors/app-error';
import { discardStaged, MAX_FILES, StagedFile, stageFile } from '../storage/staging';

export interface MultipartOptions {
  /** Names of the fields that carry files. */
  fileFields: string[];
  /** Names of the text fields accepted beside them. */
  textFields: string[];
  maxBytes: number;
  dir: string;
}

export interface MultipartBody {
  fields: Record<string, string>;
  files: StagedFile[];
}

/**
 * Parses a multipart/form-data request, streaming each file to the staging area. The whole body is
 * read before answering; on any failure every file staged so far is removed and a 400 names the
 * fields at fault.
 */
export function parseMultipart(req: Request, o: MultipartOptions): Promise<MultipartBody> {
  if (!req.is('multipart/form-data')) return Promise.reject(new AppError('UNSUPPORTED_MEDIA_TYPE', 'body must be sent as Content-Type: multipart/form-data'));
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    const details: ErrorDetail[] = [];
    const staging: Promise<StagedFile | null>[] = [];
    const fail = (field: string, message: string) => details.push({ field, message: `${field} ${message}` });
    let bb: busboy.Busboy;
    try {
      // One byte over the limit is enough to know a file is too large.
      bb = busboy({ headers: req.headers, limits: { files: MAX_FILES, fileSize: o.maxBytes + 1, fields: 20, fieldSize: 1024, parts: MAX_FILES + 20 } });
    } catch {
      reject(AppError.field('body', 'is not a valid multipart/form-data body'));
      return;
    }
    bb.on('file', (name, stream, info) => {
      if (!o.fileFields.includes(name) || details.length) {
        if (!o.fileFields.includes(name)) fail(name, `is not a known field (files go in ${o.fileFields.join(', ')})`);
        stream.resume();
        return;
      }
      const staged = stageFile(stream, { dir: o.dir, field: name, fileName: info.filename, maxBytes: o.maxBytes }).catch((err) => {
        stream.resume();
        if (err instanceof AppError && err.details) details.push(...err.details);
        else details.push({ field: name, message: `${name} could not be received` });
        return null;
      });
      staging.push(staged);
    });
    bb.on('field', (name, value, info) => {
      if (!o.textFields.includes(name)) fail(name, 'is not a known field');
      else if (name in fields) fail(name, 'is given more than once');
      else if (info.valueTruncated) fail(name, 'is too long');
      else fields[name] = value;
    });
    bb.on('filesLimit', () => fail(o.fileFields[0], `must hold at most ${MAX_FILES} files`));
    bb.on('fieldsLimit', () => fail('body', 'has too many fields'));
    bb.on('partsLimit', () => fail('body', 'has too many parts'));
    let finished = false;
    const finish = async (parseError: boolean) => {
      if (finished) return;
      finished = true;
      const files = (await Promise.all(staging)).filter((f): f is StagedFile => f !== null);
      if (parseError) fail('body', 'is not a valid multipart/form-data body');
      if (details.length) {
        await discardStaged(files);
        reject(AppError.validation(details));
      } else resolve({ fields, files });
    };
    bb.on('close', () => void finish(false));
    bb.on('error', () => {
      req.unpipe(bb);
      req.resume();
      void finish(true);
    });
    req.pipe(bb);
  });
}
