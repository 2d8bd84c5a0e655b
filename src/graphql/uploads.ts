import type { NextFunction, Request, RequestHandler, Response } from 'express';
import processRequest from 'graphql-upload/processRequest.mjs';
import { AppError } from '../errors/app-error';
import { MAX_FILES } from '../storage/staging';

/**
 * GraphQL multipart requests (graphql-upload): turns the multipart body into operations whose
 * Upload variables resolve to file streams. Its refusals (too many files, a malformed request)
 * become VALIDATION_ERRORs; other requests pass untouched.
 */
export function graphqlUploads(maxFileSize: number): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (!req.is('multipart/form-data')) return next();
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
