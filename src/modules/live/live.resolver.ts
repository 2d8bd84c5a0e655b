import { Arg, Resolver, Root, Subscription } from 'type-graphql';
import type { SubscribeResolverData } from 'type-graphql';
import type { RequestContext } from '../../data/context';
import type { FeedHub } from './live.hub';
import { liveEvent, openSubscription } from './live.service';
import type { EndReason } from './live.subscriber';
import { LiveEvent, type LiveItem } from './live.types';

/** The context of an operation over WebSocket (src/graphql/ws.ts): the request context and its connection. */
export interface LiveContext extends RequestContext {
  live: { hub: FeedHub; credential: string; ended(reason: EndReason): void };
}

interface EventsArgs {
  types?: string[] | null;
  after?: string | null;
}

async function subscribe({ args, context }: SubscribeResolverData<unknown, EventsArgs, LiveContext>): Promise<AsyncIterable<LiveItem>> {
  const { hub, credential, ended } = context.live;
  return openSubscription(hub, context, credential, args, ended);
}

@Resolver()
export class LiveResolver {
  @Subscription(() => LiveEvent, {
    subscribe,
    description:
      'The company\'s events as they commit, in feed order (WebSocket, graphql-transport-ws; docs/live-updates.md). With `after` (a cursor), every later event first: reconnect with the last cursor and miss nothing. Needs events:read, as the feed does (the events of the resources the key may read; no technician holds it).',
  })
  events(
    @Root() item: LiveItem,
    @Arg('types', () => [String], { nullable: true, description: 'Event types or <resource>.* patterns (default: all)' }) _types?: string[],
    @Arg('after', () => String, { nullable: true, description: 'Resume after this cursor (default: from now)' }) _after?: string,
  ): LiveEvent {
    return liveEvent(item);
  }
}
