import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError } from '../errors/app-error';
import { JsonPath, jsonInputProblems } from '../schema/json-input';

// What the REST router does to a request before any route reads it: path parameters that do not
// decode, bodies too deep or holding text PostgreSQL refuses (docs/conventions.md, "Requests").

/**
 * A path segment that is not valid percent-encoding (`%ff`, `%`, `%C0%AF`) is taken as its text:
 * express's decoding of path parameters would fail the request with a URIError (a 500). Its `%`
 * are escaped before the routes match, so the parameter holds the text as sent and the route
 * answers as for any other id that names nothing: 404, as a path id that is not a UUID does.
 */
export function keepUndecodableParams(router: RequestHandler): RequestHandler {
  return (req, res, next) => {
    const url = req.url;
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    if (path.includes('%')) {
      const kept = path
        .split('/')
        .map((segment) => (segment.includes('%') && !decodable(segment) ? segment.replace(/%/g, '%25') : segment))
        .join('/');
      if (kept !== path) req.url = kept + url.slice(path.length);
    }
    router(req, res, next);
  };
}

function decodable(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

/** The REST name of a path in a body: `internal_flags.x`, `line_items[0].description`; `body` for the body itself. */
function restBodyPath(path: JsonPath): string {
  return path.length ? path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i ? `.${p}` : p)).join('') : 'body';
}

/**
 * A parsed body nested too deep, or holding text PostgreSQL refuses: 400 naming the field, before
 * the idempotency hash, the validation or the database see it (src/schema/json-input.ts).
 */
export function checkJsonBody(req: Request, _res: Response, next: NextFunction): void {
  const details = jsonInputProblems(req.body, restBodyPath);
  next(details.length ? AppError.validation(details) : undefined);
}
