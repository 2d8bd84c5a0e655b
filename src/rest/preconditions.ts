import { createHash } from 'node:crypto';
import type { Response } from 'express';
import type { RequestContext } from '../data/context';
import { isUuid } from '../domain/values';
import { AppError } from '../errors/app-error';
import type { RouteDef } from './route';
import { reachWhere } from '../data/reach';

// ETag and If-Match (docs/conventions.md "Conditional requests"). The ETag of a record is a strong
// tag over its REST representation (`data` as GET shows it), the same whatever the content
// coding. If-Match is compared strongly (RFC 9110 §13.1.1): `*` matches any existing record, a
// weak tag (`W/"…"`) never matches.

export function etagOf(data: unknown): string {
  return tagOfJson(JSON.stringify(data));
}

const tagOfJson = (json: string) => `"${createHash('sha256').update(json).digest('base64url').slice(0, 32)}"`;

/** True when the If-Match header holds for a record whose current tag is `current`. */
export function ifMatchHolds(header: string, current: string): boolean {
  const value = header.trim();
  if (value === '*') return true;
  // Entity tags: optional W/, a quoted opaque string without quotes or spaces; comma-separated.
  const tags = value.match(/(W\/)?"[^"]*"/g) ?? [];
  return tags.some((t) => !t.startsWith('W/') && t === current);
}

/**
 * Sends a single record's envelope with its ETag, the record serialised once for both: the body is
 * what `res.json({ success: true, data })` sends (the app sets no JSON replacer, spaces or escape),
 * and the tag is etagOf(data). test/http/etag-send.spec.ts compares the two ways.
 */
export function sendTagged(res: Response, data: unknown): void {
  const json = JSON.stringify(data);
  res.setHeader('ETag', tagOfJson(json));
  if (!res.get('Content-Type')) res.set('Content-Type', 'application/json');
  res.send(`{"success":true,"data":${json}}`);
}

/**
 * Runs a PUT or DELETE under its If-Match precondition, atomically: in one transaction, the
 * record's row is locked (FOR UPDATE, as the services' own updates take it), its current
 * representation is read and compared, and only then is the route called; a concurrent update
 * waits for the lock, so no stale write can slip in between the check and the write.
 */
export async function underIfMatch<T>(ctx: RequestContext, header: string, params: Record<string, string>, route: RouteDef, getTwin: RouteDef, current: () => Promise<unknown>, run: () => Promise<T>): Promise<T> {
  return ctx.em.transactional(async () => {
    await lockRecord(ctx, route, getTwin, params);
    const tag = etagOf(await current());
    if (!ifMatchHolds(header, tag)) throw new AppError('PRECONDITION_FAILED', 'If-Match does not match the current ETag of the record: read it again');
    return run();
  });
}

async function lockRecord(ctx: RequestContext, route: RouteDef, getTwin: RouteDef, params: Record<string, string>): Promise<void> {
  if (route.lock) return route.lock(ctx, params);
  // By default: the row of the GET twin's entity named by the last path parameter.
  const meta = ctx.em.getMetadata().find(getTwin.output.name);
  const id = Object.values(params).pop();
  if (!meta || !id || !isUuid(id)) return;
  const pk = meta.properties[meta.primaryKeys[0]].fieldNames[0];
  const company = meta.properties.company?.fieldNames[0];
  const where = company ? ` and "${company}" = ?` : '';
  // A technician locks only a row in their reach (src/data/reach.ts).
  const reach = reachWhere(ctx, meta.tableName, null);
  await ctx.em.getConnection().execute(
    `select 1 from "${meta.tableName}" where "${pk}" = ?${where}${reach ? ` and ${reach.sql}` : ''} for update`,
    [...(company ? [id.toLowerCase(), ctx.companyId] : [id.toLowerCase()]), ...(reach?.params ?? [])],
    'all',
    ctx.em.getTransactionContext(),
  );
}

/** The single-record GET of a route's path, if any. */
export function singleGetOf(route: RouteDef, table: RouteDef[]): RouteDef | undefined {
  return table.find((r) => r.method === 'GET' && r.path === route.path && !r.plural);
}

/** Responses that show the record as its GET does carry its ETag: single GETs, and PUTs returning the same. */
export function carriesEtag(route: RouteDef, table: RouteDef[]): boolean {
  if (route.plural || route.page || route.stream) return false;
  if (route.method === 'GET') return true;
  const single = singleGetOf(route, table);
  return route.method === 'PUT' && single?.output === route.output && single?.embed === route.embed;
}

/** PUT and DELETE of a path with a single-record GET honour If-Match. */
export function takesIfMatch(route: RouteDef, table: RouteDef[]): RouteDef | undefined {
  return route.method === 'PUT' || route.method === 'DELETE' ? singleGetOf(route, table) : undefined;
}
