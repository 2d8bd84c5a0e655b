import { Arg, Args, Ctx, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../data/context';
import { EventFeedArgs } from './event.inputs';
import { eventService } from './event.service';
import { Event, EventFeed, EventsHead, EventTypeInfo } from './event.types';

@Resolver(() => Event)
export class EventResolver {
  @Query(() => EventFeed, { description: 'The change feed, oldest first, by commit (docs/events.md)' })
  events(@Ctx() ctx: RequestContext, @Args(() => EventFeedArgs) args: EventFeedArgs): Promise<EventFeed> {
    return eventService.feed(ctx, args);
  }

  @Query(() => Event)
  event(@Ctx() ctx: RequestContext, @Arg('id', () => String) id: string): Promise<Event> {
    return eventService.get(ctx, id);
  }

  @Query(() => String, { description: 'The cursor after the newest event: follow the feed from now' })
  async eventsHead(@Ctx() ctx: RequestContext): Promise<string> {
    return (await eventService.head(ctx)).cursor;
  }

  @Query(() => [EventTypeInfo])
  eventTypes(): EventTypeInfo[] {
    return eventService.types().eventTypes;
  }
}
