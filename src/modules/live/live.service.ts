import type { Request } from 'express';
import type { Orm } from '../../db/orm';
import type { RequestContext } from '../../data/context';
import { authenticate } from '../../auth/authenticate';
import { AppError } from '../../errors/app-error';
import { encodeCursor, feedFilter } from '../event/event.service';
import type { FeedHub } from './live.hub';
import { Subscriber, type EndReason } from './live.subscriber';
import { LiveEvent, type LiveItem } from './live.types';

export interface SubscribeArgs {
  types?: string | string[] | null;
  after?: string | null;
}

/**
 * A live subscription of the context's key (SSE and GraphQL subscriptions alike): validated, then
 * started (its catch-up's first page read) before it is returned. `credential` is the
 * Authorization header, checked again when keys change (a revoked key's subscription ends).
 */
export async function openSubscription(hub: FeedHub, ctx: RequestContext, credential: string, args: SubscribeArgs, onEnd?: (reason: EndReason) => void): Promise<Subscriber> {
  const types = Array.isArray(args.types) ? args.types.join(',') : args.types;
  const s = new Subscriber(ctx, hub, feedFilter(ctx, types || null), credential, onEnd);
  await s.start(args.after || null);
  return s;
}

/** Whether the key may follow the feed at all: the feed's rule (feedFilter); a WebSocket checks it at connection_init (4403). */
export function liveAccess(ctx: RequestContext): void {
  feedFilter(ctx, null);
}

/** Whether the credential still opens a context (the same rules as a request's). */
export async function credentialWorks(orm: Orm, credential: string): Promise<boolean> {
  try {
    await authenticate(orm, { headers: { authorization: credential } } as Request, 'live', null);
    return true;
  } catch (err) {
    if (err instanceof AppError && err.code === 'UNAUTHORIZED') return false;
    throw err;
  }
}

/** The GraphQL shape of a delivered event. */
export function liveEvent(item: LiveItem): LiveEvent {
  const e = item.event;
  const data = e.data as { object: Record<string, unknown>; previous?: Record<string, unknown> | null };
  return Object.assign(new LiveEvent(), {
    id: e.id,
    type: e.type,
    resource: e.resource,
    recordUuid: e.recordUuid,
    createdAt: e.createdAt,
    object: data.object,
    previous: data.previous ?? null,
    cursor: encodeCursor(item.position),
  });
}
