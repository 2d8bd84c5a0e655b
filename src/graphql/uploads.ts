import type { NextFunction, Request, RequestHandler, Response } from 'express';
import processRequest from 'graphql-upload/processRequest.mjs';
import { AppError } from '../errors/app-error';
import { MAX_FILES } from '../storage/staging';

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
      next();
    } catch (err) {
      const status = (err as { status?: number }).status;
      if (status && status < 500) return next(AppError.field('files', `could not be received: ${(err as Error).message}`));
      next(err);
    }
  };
}
