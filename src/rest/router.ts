import express, { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import { requireAddon } from '../auth/addons';
import type { Addon } from '../modules/company/company.entity';
import { isDeepStrictEqual } from 'node:util';
import type { RequestContext } from '../data/context';
import { FieldMeta, restFieldsOf } from '../schema/fields';
import type { Page } from '../schema/pagination';
import { validateInput } from '../schema/validation';
import { AppError, ErrorDetail } from '../errors/app-error';
import { bodyToInput, queryToInput, restWriter, restWriterOf, toRest } from './case-map';
import { idempotentRoute } from './idempotency';
import { carriesEtag, sendTagged, singleGetOf, takesIfMatch, underIfMatch } from './preconditions';
import type { Embed, RouteDef } from './route';
import { FileResult } from '../modules/document/document.service';
import { sendFile } from '../modules/document/document-files.route';
import { referencedInclude } from '../data/crud';

export const JSON_LIMIT = '1mb';

declare module 'express-serve-static-core' {
  interface Request {
    ctx?: RequestContext;
    requestId: string;
  }
}

type Handler = (req: Request, res: Response, next: NextFunction) => Promise<void>;

/** Builds the /api/v1 router from the route table: one generic pipeline for every row. */
export function buildRestRouter(table: RouteDef[]): Router {
  const router = Router({ strict: false, caseSensitive: true });
  for (const route of table) {
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    const parsers = route.body ? [requireJson, express.json({ limit: JSON_LIMIT, strict: true, type: () => true })] : [];
    // Creating JSON routes honour Idempotency-Key (docs/invoices-and-payments.md), after the body is parsed.
    const idempotency = route.creates && route.body ? [idempotentRoute(route)] : [];
    // An add-on the company lacks is refused before anything of the request is read.
    const gate: RequestHandler[] = route.addon ? [addonGate(route.addon)] : [];
    router[method](route.path, ...gate, ...parsers, ...idempotency, handler(route, table));
  }
  return router;
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

function handler(route: RouteDef, table: RouteDef[]): Handler {
  const getTwin = route.method === 'PUT' ? table.find((r) => r.method === 'GET' && r.path === route.path) : undefined;
  // Errors of a PUT or DELETE may name fields of the record the path names, as its GET shows them.
  const record = route.method === 'GET' ? undefined : singleGetOf(route, table)?.output;
  // ETag and If-Match (docs/conventions.md "Conditional requests").
  const tagged = carriesEtag(route, table);
  const conditional = takesIfMatch(route, table);
  return async (req, res, next) => {
    try {
      const ctx = req.ctx!;
      if (!route.query && Object.keys(req.query).length) {
        const [name] = Object.keys(req.query);
        throw AppError.field(name, 'is not a known query parameter');
      }
      let body: any;
      if (route.body) {
        let raw = req.body;
        if (getTwin) raw = await dropUnchangedReadOnly(route, getTwin, ctx, req, raw);
        body = bodyToInput(route.body, raw);
        await validateInput(body, 'rest');
      }
      let query: any;
      if (route.query) {
        query = queryToInput(route.query, req.query as Record<string, unknown>);
        await validateInput(query, 'rest');
      }
      // A list's embedded summaries come with its page: the list route passes them on (RouteArgs.include).
      const include = route.plural && route.embed?.length ? referencedInclude(ctx, route.output, route.embed.map((e) => e.entity)) : undefined;
      const args = { params: req.params as Record<string, string>, body, query, req, include };
      const run = () => route.call(ctx, args);
      const current = async () => shape(conditional!, ctx, await conditional!.call(ctx, { ...args, body: undefined, query: undefined }));
      const result = conditional && req.header('if-match') !== undefined ? await underIfMatch(ctx, req, route, conditional, current, run) : await run();
      if (route.file) return await sendFile(req, res, result as FileResult);
      const data = await shape(route, ctx, result);
      if (tagged) sendTagged(res, data);
      else res.json({ success: true, data });
    } catch (err) {
      next(renameFields(err, route, record));
    }
  };
}

/** REST data for a route's result: the record, or `{<plural>: [...], pagination}` for lists. */
export async function shape(route: RouteDef, ctx: RequestContext, result: unknown): Promise<unknown> {
  if (route.plural) {
    const page = result as Page<unknown>;
    const items = page.items.map(restWriterOf(route.output));
    await embed(route.embed, ctx, page.items, items);
    return { [route.plural]: items, pagination: toRest(page.pagination.constructor, page.pagination) };
  }
  const data = toRest(route.output, result);
  if (route.embedIn) {
    // The records are a list inside the result (an upload's photos): each gets the summaries.
    const meta = restFieldsOf(route.output).find((f) => f.prop === route.embedIn)!;
    await embed(route.embed, ctx, (result as Record<string, unknown[]>)[meta.prop], data[meta.restName] as Record<string, unknown>[]);
    return data;
  }
  await embed(route.embed, ctx, [result], [data]);
  return data;
}

async function embed(specs: Embed[] | undefined, ctx: RequestContext, records: unknown[], out: Record<string, unknown>[]): Promise<void> {
  if (!specs?.length) return;
  const waiting: Promise<void>[] = [];
  for (const spec of specs) {
    let summary = summaries.get(spec);
    if (!summary) summaries.set(spec, (summary = restWriter(spec.entity, spec.fields)));
    const write = summary;
    records.forEach((record, i) => {
      // Records a list brought with its page are answered at once (Loaders.prime).
      const related = ctx.loaders.one(spec.entity, spec.id(record));
      if (related instanceof Promise) waiting.push(related.then((r) => void (out[i][spec.key] = r ? write(r) : null)));
      else out[i][spec.key] = related ? write(related) : null;
    });
  }
  await Promise.all(waiting);
}

/** Each embed's summary writer (the summary's fields of the related record, as toRest writes them). */
const summaries = new WeakMap<Embed, (obj: any) => Record<string, unknown>>();

/**
 * GET → edit → PUT works: a field the update cannot change (read-only, or an embedded summary)
 * is ignored when it equals what GET shows, and refused, by name, when it differs.
 */
async function dropUnchangedReadOnly(route: RouteDef, getTwin: RouteDef, ctx: RequestContext, req: Request, raw: unknown): Promise<unknown> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  const writable = new Set(restFieldsOf(route.body!).filter((f) => f.io === 'in').map((f) => f.restName));
  const extra = Object.keys(raw).filter((k) => !writable.has(k));
  if (!extra.length) return raw;
  const current = (await shape(getTwin, ctx, await getTwin.call(ctx, { params: req.params as Record<string, string>, body: undefined, query: undefined, req }))) as Record<string, unknown>;
  const kept: Record<string, unknown> = {};
  const details: ErrorDetail[] = [];
  for (const [k, v] of Object.entries(raw)) {
    if (writable.has(k)) kept[k] = v;
    else if (!(k in current)) details.push({ field: k, message: `${k} is not a known field` });
    else if (!isDeepStrictEqual(current[k], v)) details.push({ field: k, message: `${k} cannot be changed` });
  }
  if (details.length) throw AppError.validation(details);
  return kept;
}

/** Services name fields by their property (GraphQL) names; REST shows the declared REST names. */
function renameFields(err: unknown, route: RouteDef, record?: Function): unknown {
  if (!(err instanceof AppError) || !err.details?.length) return err;
  const classes = [route.output, route.query, route.body, record].filter((c): c is NonNullable<typeof c> => !!c);
  const details = err.details.map((d) => {
    const rest = restPath(d.field, classes);
    if (!rest || rest === d.field) return d;
    return { field: rest, message: d.message.startsWith(d.field) ? rest + d.message.slice(d.field.length) : d.message };
  });
  return new AppError(err.code, details.length === 1 ? details[0].message : err.message, details);
}

/**
 * The REST name of a property path, through nested objects and lists at any depth:
 * 'lineItems[0].lineTotal' → 'line_items[0].line_total', 'invoice.overrideNumber' →
 * 'invoice.override_number'; else a field of one of their nested objects ('totalAmount' of a
 * preview → 'total_amount'). Null when none has it.
 */
export function restPath(path: string, classes: Function[], nested = true): string | null {
  for (const cls of classes) {
    let current: Function | undefined = cls;
    const out: string[] = [];
    for (const segment of path.split('.')) {
      const m = /^([^[\]]+)((?:\[\d+\])*)$/.exec(segment);
      const meta: FieldMeta | undefined = m && current ? restFieldsOf(current).find((f) => f.prop === m[1]) : undefined;
      if (!m || !meta) {
        out.length = 0;
        break;
      }
      out.push(meta.restName + m[2]);
      current = meta.kind === 'object' && meta.type ? meta.type() : undefined;
    }
    if (out.length) return out.join('.');
  }
  // A computed amount of a nested result (a preview's total_amount under data.preview).
  if (!nested) return null;
  for (const cls of classes) {
    for (const f of restFieldsOf(cls)) {
      if (f.kind !== 'object' || !f.type) continue;
      const found = restPath(path, [f.type()], false);
      if (found) return found;
    }
  }
  return null;
}
