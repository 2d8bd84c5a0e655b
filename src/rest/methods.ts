import type { RequestHandler } from 'express';
import { match } from 'path-to-regexp';
import { AppError } from '../errors/app-error';
import type { RouteDef } from './route';

/** The methods a path of the route table answers (HEAD with GET), in the order of the Allow header. */
export function allowedMethods(table: RouteDef[], path: string): string[] {
  const methods = new Set<string>();
  for (const r of table) if (matcher(r.path)(path)) methods.add(r.method);
  if (methods.has('GET')) methods.add('HEAD');
  return ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'].filter((m) => methods.has(m));
}

const matchers = new Map<string, ReturnType<typeof match>>();
function matcher(path: string): ReturnType<typeof match> {
  let m = matchers.get(path);
  if (!m) matchers.set(path, (m = match(path, { sensitive: true, trailing: true })));
  return m;
}

/**
 * After the REST router: a request no route took is the 404 envelope, as the contract says of an
 * unknown route or method; when its path is a route's with another method, the answer also
 * carries `Allow` with the methods that path takes (docs/conventions.md).
 */
export function methodNotAllowed(table: RouteDef[]): RequestHandler {
  return (req, res, next) => {
    const allow = allowedMethods(table, req.path);
    if (allow.length) res.setHeader('Allow', allow.join(', '));
    next(new AppError('NOT_FOUND', 'Route not found'));
  };
}
