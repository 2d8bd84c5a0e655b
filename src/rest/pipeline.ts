import type { Request } from 'express';
import { isDeepStrictEqual } from 'node:util';
import type { RequestContext } from '../data/context';
import { referencedInclude } from '../data/crud';
import { FieldMeta, restFieldsOf } from '../schema/fields';
import type { Page } from '../schema/pagination';
import { validateInput } from '../schema/validation';
import { AppError, ErrorDetail } from '../errors/app-error';
import { asAppError } from '../errors/db-error';
import type { FileResult } from '../modules/document/document.service';
import { bodyToInput, queryToInput, restWriter, restWriterOf, toRest } from './case-map';
import { withholdsMoney } from '../schema/withheld';
import { singleGetOf, takesIfMatch, underIfMatch } from './preconditions';
import type { Embed, RouteDef, StreamAnswer } from './route';

// One route row's pipeline, the same for every caller: the REST router (src/rest/router.ts) and
// the MCP tools (src/rest/mcp-tools.ts) call it in-process.

/** What a call of a route carries, whoever makes it. */
export interface RouteInput {
  params: Record<string, string>;
  /** Query parameters as a query string gives them (strings, or arrays of strings). */
  query: Record<string, unknown>;
  /** The JSON body as sent (REST names). */
  body: unknown;
  /** The If-Match precondition (PUT and DELETE of a record with a GET). */
  ifMatch?: string;
  /** The HTTP request, for the routes that read it themselves (multipart uploads). */
  req?: Request;
}

export type RouteOutput = { data: unknown; status?: number } | { file: FileResult } | { stream: StreamAnswer };

/**
 * A route's pipeline: unknown query parameters refused, body and query mapped from their REST
 * names and validated like the GraphQL input, the service called (under If-Match when given),
 * the result shaped with its embedded summaries; errors name fields by their REST names.
 */
export function routeRunner(route: RouteDef, table: RouteDef[]): (ctx: RequestContext, input: RouteInput) => Promise<RouteOutput> {
  const getTwin = route.method === 'PUT' ? table.find((r) => r.method === 'GET' && r.path === route.path) : undefined;
  // Errors of a PUT or DELETE may name fields of the record the path names, as its GET shows them.
  const record = route.method === 'GET' ? undefined : singleGetOf(route, table)?.output;
  // If-Match (docs/conventions.md "Conditional requests").
  const conditional = takesIfMatch(route, table);
  return async (ctx, input) => {
    try {
      if (!route.query && Object.keys(input.query).length) {
        const [name] = Object.keys(input.query);
        throw AppError.field(name, 'is not a known query parameter');
      }
      let query: any;
      if (route.query) {
        query = queryToInput(route.query, input.query);
        await validateInput(query, 'rest');
      }
      let body: any;
      if (route.body) {
        let raw = input.body;
        if (getTwin) raw = await dropUnchangedReadOnly(route, getTwin, ctx, input, raw, query);
        body = bodyToInput(route.body, raw);
        await validateInput(body, 'rest');
      }
      // A list's embedded summaries come with its page: the list route passes them on (RouteArgs.include).
      const include = route.plural && route.embed?.length ? referencedInclude(ctx, route.output, route.embed.map((e) => e.entity)) : undefined;
      const args = { params: input.params, body, query, req: input.req, include };
      const run = () => route.call(ctx, args);
      // The GET twin reads the record the PUT names: by its path, or its query (an upsert's source and id).
      const current = async () => shape(conditional!, ctx, await conditional!.call(ctx, { ...args, body: undefined, query: conditional!.query ? query : undefined }));
      const result = conditional && input.ifMatch !== undefined ? await underIfMatch(ctx, input.ifMatch, { ...input.params, ...(query ?? {}) }, route, conditional, current, run) : await run();
      if (route.file) return { file: result as FileResult };
      if (route.stream) return { stream: result as StreamAnswer };
      if (route.upsert) {
        const { record, created } = result as { record: unknown; created: boolean };
        return { data: await shape(route, ctx, record), status: created ? 201 : 200 };
      }
      return { data: await shape(route, ctx, result) };
    } catch (err) {
      // A constraint's refusal (an external id taken) names a property too.
      throw renameFields(asAppError(err) ?? err, route, record);
    }
  };
}

/** REST data for a route's result: the record, or `{<plural>: [...], pagination}` for lists. */
export async function shape(route: RouteDef, ctx: RequestContext, result: unknown): Promise<unknown> {
  // Money never reaches a technician (src/schema/withheld.ts).
  const withhold = withholdsMoney(ctx.access);
  if (route.plural) {
    const page = result as Page<unknown>;
    const items = page.items.map(restWriterOf(route.output, withhold));
    await embed(route.embed, ctx, page.items, items);
    return { [route.plural]: items, pagination: toRest(page.pagination.constructor, page.pagination) };
  }
  const data = toRest(route.output, result, withhold);
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
    // A summary of a resource the caller may not read is null, as a missing one (docs/people-and-access.md).
    if (!ctx.access.rights.allows(spec.scope)) {
      for (const item of out) item[spec.key] = null;
      continue;
    }
    const cache = withholdsMoney(ctx.access) ? moneylessSummaries : summaries;
    let summary = cache.get(spec);
    if (!summary) cache.set(spec, (summary = restWriter(spec.entity, spec.fields, cache === moneylessSummaries)));
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
const moneylessSummaries = new WeakMap<Embed, (obj: any) => Record<string, unknown>>();

/**
 * GET → edit → PUT works: a field the update cannot change (read-only, or an embedded summary)
 * is ignored when it equals what GET shows, and refused, by name, when it differs.
 */
async function dropUnchangedReadOnly(route: RouteDef, getTwin: RouteDef, ctx: RequestContext, input: RouteInput, raw: unknown, query: unknown): Promise<unknown> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  const writable = new Set(restFieldsOf(route.body!).filter((f) => f.io === 'in').map((f) => f.restName));
  const extra = Object.keys(raw).filter((k) => !writable.has(k));
  if (!extra.length) return raw;
  const current = (await shape(getTwin, ctx, await getTwin.call(ctx, { params: input.params, body: undefined, query: getTwin.query ? query : undefined, req: input.req }))) as Record<string, unknown>;
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
  // A list's errors name its query first (`cf.<key>`, not the record's `custom_fields.<key>`).
  const classes = (route.plural ? [route.query, route.output] : [route.output, route.query, route.body, record]).filter((c): c is NonNullable<typeof c> => !!c);
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
    const segments = path.split('.');
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i];
      const m = /^([^[\]]+)((?:\[\d+\])*)$/.exec(segment);
      const meta: FieldMeta | undefined = m && current ? restFieldsOf(current).find((f) => f.prop === m[1]) : undefined;
      if (!m || !meta) {
        out.length = 0;
        break;
      }
      out.push(meta.restName + m[2]);
      // Keys inside a JSON field (custom_fields.gate_code, external_ids.crm) or a filter (cf.gate_code) are the client's own.
      if (meta.kind === 'json' || meta.prefixed) {
        out.push(...segments.slice(i + 1));
        break;
      }
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
