import express, { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import { requireAddon } from '../auth/addons';
import { requireScope } from '../auth/require-scope';
import type { Addon } from '../modules/company/company.entity';
import type { RequestContext } from '../data/context';
import { AppError } from '../errors/app-error';
import { idempotentRoute } from './idempotency';
import { carriesEtag, sendTagged } from './preconditions';
import { routeRunner } from './pipeline';
import { readOnReplica } from '../db/replicas';
import type { RouteDef, StreamAnswer } from './route';
import { sendFile } from '../modules/document/document-files.route';
import { checkJsonBody, keepUndecodableParams } from './raw-input';

export const JSON_LIMIT = '1mb';

declare module 'express-serve-static-core' {
  interface Request {
    ctx?: RequestContext;
    requestId: string;
  }
}

type Handler = (req: Request, res: Response, next: NextFunction) => Promise<void>;

/** Builds the /api/v1 router from the route table: one generic pipeline for every row. */
export function buildRestRouter(table: RouteDef[]): RequestHandler {
  const router = Router({ strict: false, caseSensitive: true });
  for (const route of table) {
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    const parsers = route.body ? [requireJson, express.json({ limit: JSON_LIMIT, strict: true, type: () => true }), checkJsonBody] : [];
    // Creating JSON routes honour Idempotency-Key (docs/invoices-and-payments.md), after the body is parsed.
    const idempotency = route.creates && route.body ? [idempotentRoute(route)] : [];
    // An add-on the company lacks is refused before anything of the request is read.
    const gate: RequestHandler[] = [scopeGate(route), ...(route.addon ? [addonGate(route.addon)] : [])];
    router[method](route.path, ...gate, ...parsers, ...idempotency, handler(route, table));
  }
  return keepUndecodableParams(router);
}

/** The route's declared scope, checked once here for every row (403 PERMISSION_DENIED), before the add-on. */
function scopeGate(route: RouteDef): RequestHandler {
  return (req, _res, next) => {
    try {
      requireScope(req.ctx!, route.scope);
      next();
    } catch (err) {
      next(err);
    }
  };
}

function addonGate(addon: Addon): RequestHandler {
  return (req, _res, next) => {
    try {
      requireAddon(req.ctx!, addon);
      next();
    } catch (err) {
      next(err);
    }
  };
}

/** JSON routes refuse other content types; an empty body counts as `{}`. */
function requireJson(req: Request, _res: Response, next: NextFunction): void {
  const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (!hasBody) {
    req.body = {};
    return next();
  }
  if (!req.is('application/json')) return next(AppError.field('body', 'must be sent as Content-Type: application/json'));
  next();
}

/** A streamed attachment (an export): headers, then the file as it is read; a failure past the headers cuts the response short. */
async function sendStream(res: Response, stream: StreamAnswer): Promise<void> {
  res.setHeader('Content-Type', stream.contentType);
  res.setHeader('Content-Disposition', `attachment; filename="${stream.filename.replace(/["\\\r\n]/g, '_')}"`);
  res.setHeader('Cache-Control', 'no-store');
  try {
    await stream.write(res);
    res.end();
  } catch (err) {
    if (!res.headersSent) throw err;
    res.destroy(err as Error);
  }
}

function handler(route: RouteDef, table: RouteDef[]): Handler {
  const run = routeRunner(route, table);
  const tagged = carriesEtag(route, table);
  // Lag-tolerant: a GET of records or a list, not the event feed's pages (their head stays on the
  // primary) nor files (docs/scaling.md); it may go to a replica that has the company's writes.
  const lagTolerant = route.method === 'GET' && !route.page && !route.file;
  return async (req, res, next) => {
    try {
      const input = { params: req.params as Record<string, string>, query: req.query as Record<string, unknown>, body: req.body, ifMatch: req.header('if-match'), req };
      const ctx = req.ctx!;
      const out = lagTolerant ? await readOnReplica(ctx, () => run(ctx, input)) : await run(ctx, input);
      if ('file' in out) return await sendFile(req, res, out.file);
      if ('stream' in out) return await sendStream(res, out.stream);
      res.status(out.status ?? route.status ?? 200);
      if (tagged) sendTagged(res, out.data);
      else res.json({ success: true, data: out.data });
    } catch (err) {
      next(err);
    }
  };
}
