import { Arg, Args, Ctx, Query, Resolver } from 'type-graphql';
import { Needs } from '../../schema/access';
import type { RequestContext } from '../../data/context';
import { EventFeedArgs } from './event.inputs';
import { eventService, FEED_SCOPE } from './event.service';
import { Event, EventFeed, EventsHead, EventTypeInfo } from './event.types';

@Resolver(() => Event)
export class EventResolver {
  @Needs(FEED_SCOPE)
  @Query(() => EventFeed, { description: 'The change feed, oldest first, by commit (docs/events.md)' })
  events(@Ctx() ctx: RequestContext, @Args(() => EventFeedArgs) args: EventFeedArgs): Promise<EventFeed> {
    return eventService.feed(ctx, args);
  }

  @Needs(FEED_SCOPE)
  @Query(() => Event)
  event(@Ctx() ctx: RequestContext, @Arg('id', () => String) id: string): Promise<Event> {
    return eventService.get(ctx, id);
  }

  @Needs(FEED_SCOPE)
  @Query(() => String, { description: 'The cursor after the newest event: follow the feed from now' })
  async eventsHead(@Ctx() ctx: RequestContext): Promise<string> {
    return (await eventService.head(ctx)).cursor;
  }

  @Needs(FEED_SCOPE)
  @Query(() => [EventTypeInfo])
  eventTypes(): EventTypeInfo[] {
    return eventService.types().eventTypes;
  }
}
