import type { RequestContext } from '../../data/context';
import { AppError } from '../../errors/app-error';
import { requireScope } from '../../auth/require-scope';
import type { Scope } from '../../domain/scopes';
import { EVENT_TYPES, narrowFilter, parseTypePatterns, readableEventResources, type TypeFilter } from './event.catalogue';
import type { EventFeedArgs } from './event.inputs';
import { eventRowId, renderEvent, type EventRow } from './event.render';
import { renderEventFast } from './event.render-fast';
import { ASSIGN_SQL, HEAD_SQL, ONE_SQL, PAGE_SQL } from './event.sql';
import { Event, EventFeed, EventsHead, EventTypeCatalogue, EventTypeInfo } from './event.types';

export const DEFAULT_EVENT_LIMIT = 100;
export const MAX_EVENT_LIMIT = 1000;

// A cursor is the position of the last event read, opaque to clients.
export const encodeCursor = (position: string | number | bigint) => Buffer.from(`p${BigInt(position)}`).toString('base64url');

export function decodeCursor(cursor: string): bigint {
  const text = /^[A-Za-z0-9_-]{1,40}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString() : '';
  const m = /^p(0|[1-9]\d{0,17})$/.exec(text);
  if (!m) throw AppError.field('after', 'is not a cursor of this feed');
  return BigInt(m[1]);
}

type Sql = <T>(ctx: RequestContext, sql: string, params?: unknown[]) => Promise<T[]>;
const sql: Sql = (ctx, text, params = []) => ctx.em.getConnection().execute(text, params, 'all', ctx.em.getTransactionContext());

/** Gives positions to the events of transactions finished by now (cheap when there are none). */
const assign = (ctx: RequestContext) => sql(ctx, ASSIGN_SQL);

type PageRow = Partial<EventRow> & { top: string; pruned: string; position: string | null };

/** A page of the feed: its events with their positions, and the position to read after next. */
export interface FeedPage {
  items: Array<{ event: Event; position: bigint }>;
  next: bigint;
  hasMore: boolean;
}

/** The company's events after a position (the feed's read, shared with live subscriptions). */
export async function readFeed(ctx: RequestContext, after: bigint, filter: TypeFilter | null, limit: number, checkExpiry: boolean): Promise<FeedPage> {
  await assign(ctx);
  const params: unknown[] = [ctx.companyId, after.toString()];
  // Arrays as Postgres array literals (the driver expands a JS array into a list of values); the names are [a-z_.].
  params.push(filter ? `{${filter.exact.join(',')}}` : null, filter ? `{${filter.resources.join(',')}}` : null, limit + 1);
  const rows = await sql<PageRow>(ctx, PAGE_SQL, params);
  const { top, pruned } = rows[0];
  if (checkExpiry && after < BigInt(pruned)) throw new AppError('CURSOR_EXPIRED', 'This cursor is older than the events kept (EVENT_RETENTION_DAYS): copy the lists again from events/head');
  const found = rows.filter((r) => r.position !== null);
  const hasMore = found.length > limit;
  const page = found.slice(0, limit);
  // Past the last event of the page; at the end, past every position given so far (all later
  // events get larger ones), so that a filtered reader does not walk the same rows again.
  const last = page.length ? BigInt(page[page.length - 1].position!) : after;
  const next = hasMore ? last : [last, BigInt(top)].reduce((a, b) => (a > b ? a : b));
  const items = page.map((r) => ({ event: renderEventFast(ctx.em, r as EventRow), position: BigInt(r.position!) }));
  return { items, next, hasMore };
}

/** The scope of the feed on every surface. */
export const FEED_SCOPE = 'events:read' satisfies Scope;

/**
 * Who reads the feed, and what of it (docs/people-and-access.md): a key with `events:read` (no
 * technician holds it: 403 PERMISSION_DENIED), narrowed to the events of the resources it may
 * read. The one rule of GET /events, the GraphQL feed, SSE and subscriptions alike.
 */
export function feedFilter(ctx: RequestContext, types: string | null | undefined): TypeFilter | null {
  requireScope(ctx, FEED_SCOPE);
  return narrowFilter(parseTypePatterns(types ?? null), readableEventResources(ctx.access.rights));
}

export const eventService = {
  async feed(ctx: RequestContext, args: EventFeedArgs): Promise<EventFeed> {
    const after = args.after === undefined || args.after === null ? 0n : decodeCursor(args.after);
    const filter = feedFilter(ctx, args.types);
    const limit = Math.min(args.limit ?? DEFAULT_EVENT_LIMIT, MAX_EVENT_LIMIT);
    if (limit < 1) throw AppError.field('limit', 'must be at least 1');
    const page = await readFeed(ctx, after, filter, limit, args.after != null);
    const items = page.items.map((i) => i.event);
    return Object.assign(new EventFeed(), { items, nextCursor: encodeCursor(page.next), hasMore: page.hasMore });
  },

  async get(ctx: RequestContext, id: string): Promise<Event> {
    const rowId = eventRowId(id);
    const [row] = rowId ? await sql<EventRow>(ctx, ONE_SQL, [ctx.companyId, rowId]) : [];
    const readable = readableEventResources(ctx.access.rights);
    // An event of a resource the key may not read is not there for it.
    if (!row || (readable && !readable.includes(row.resource as (typeof readable)[number]))) throw AppError.notFound('Event');
    return renderEvent(ctx.em, row);
  },

  async head(ctx: RequestContext): Promise<EventsHead> {
    await assign(ctx);
    const [{ top }] = await sql<{ top: string }>(ctx, HEAD_SQL);
    return Object.assign(new EventsHead(), { cursor: encodeCursor(top) });
  },

  types(): EventTypeCatalogue {
    return Object.assign(new EventTypeCatalogue(), { eventTypes: EVENT_TYPES.map((t) => Object.assign(new EventTypeInfo(), t)) });
  },
};
