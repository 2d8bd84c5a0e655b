import type { NextFunction, Request, RequestHandler, Response } from 'express';
import processRequest from 'graphql-upload/processRequest.mjs';
import Upload from 'graphql-upload/Upload.mjs';
import { AppError, ErrorDetail } from '../errors/app-error';
import { MAX_JSON_DEPTH } from '../schema/json-input';
import { MAX_FILES } from '../storage/staging';
import { pathName } from './input-errors';

const MULTIPART = /multipart/i;

/**
 * GraphQL multipart requests (graphql-upload): turns the multipart body into operations whose
 * Upload variables resolve to file streams. Its refusals (too many files, a malformed request)
 * become VALIDATION_ERRORs; other requests pass untouched.
 */
export function graphqlUploads(maxFileSize: number): RequestHandler {
  const receive = receiveUploads(maxFileSize);
  return (req: Request, res: Response, next: NextFunction) => {
    // Most requests are JSON: a Content-Type without "multipart" cannot be multipart/form-data,
    // and is not parsed (type-is) to say so; no promise is made for them either.
    const type = req.headers['content-type'];
    if (!type || !MULTIPART.test(type) || !req.is('multipart/form-data')) return next();
    return receive(req, res, next);
  };
}

/** Receives a request already known to be multipart/form-data (graphqlUploads decides which). */
export function receiveUploads(maxFileSize: number) {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      req.body = await processRequest(req, res, { maxFileSize, maxFiles: MAX_FILES });
      const missing = await partsNotReceived(req.body);
      next(missing.length ? AppError.validation(missing) : undefined);
    } catch (err) {
      const status = (err as { status?: number }).status;
      if (status && status < 500) return next(AppError.field('files', `could not be received: ${(err as Error).message}`));
      // The multipart parser's own refusals (a malformed part header) carry no status: the client's.
      if (status === undefined) return next(AppError.field('body', 'is not a valid multipart/form-data body'));
      next(err);
    }
  };
}

/**
 * Waits until every file the map names has begun to arrive (its content still streams), and names
 * those that never will: a map naming a part the request does not hold, or a body the parser
 * refuses after the map (a file name with control characters is a malformed part header), as the
 * REST upload refuses it (src/rest/multipart.ts). 400 before the operation runs, instead of a
 * resolver failing on a rejected upload. Named as the variable's path: `files[1]`.
 */
async function partsNotReceived(body: unknown): Promise<ErrorDetail[]> {
  const uploads: Array<{ upload: Upload; field: string }> = [];
  const walk = (value: unknown, path: Array<string | number>, depth: number): void => {
    if (value instanceof Upload) {
      const inVariables = path.indexOf('variables');
      uploads.push({ upload: value, field: pathName(path.slice(inVariables + 1)) || 'files' });
    } else if (value && typeof value === 'object' && depth < MAX_JSON_DEPTH) {
      for (const [k, v] of Object.entries(value)) walk(v, [...path, Array.isArray(value) ? Number(k) : k], depth + 1);
    }
  };
  walk(body, [], 0);
  const refused = await Promise.all(
    uploads.map(({ upload, field }) =>
      upload.promise.then(
        (): ErrorDetail | null => null,
        (err: { status?: number; message?: string }): ErrorDetail => {
          if (err.status === undefined) return { field: 'body', message: 'body is not a valid multipart/form-data body' };
          if (err.status === 400) return { field, message: `${field} is not in the request (the map names a file part it does not send)` };
          return { field, message: `${field} could not be received: ${err.message}` };
        },
      ),
    ),
  );
  const details = refused.filter((d): d is ErrorDetail => d !== null);
  // One parser refusal fails every file not yet begun: named once.
  return details.filter((d, i) => d.field !== 'body' || details.findIndex((x) => x.field === 'body') === i);
}
