import { ObjectType } from 'type-graphql';
import { ShowsResource } from '../../schema/access';
import { ApiField } from '../../schema/fields';

// What the feed returns, declared once for both surfaces (docs/events.md).

@ObjectType()
export class EventActor {
  @ApiField('type', 'string', { description: 'api_key, admin, public_link, stripe (online payments) or system' }) type!: string;
  @ApiField('key_id', 'string', { nullable: true }) keyId!: string | null;
  @ApiField('user_id', 'string', { nullable: true }) userId!: string | null;
  @ApiField('request_id', 'string', { nullable: true }) requestId!: string | null;
}

@ObjectType()
@ShowsResource('events')
export class Event {
  @ApiField('id', 'string', { description: 'evt_…' }) id!: string;
  @ApiField('type', 'string') type!: string;
  @ApiField('created_at', 'datetime') createdAt!: Date;
  @ApiField('resource', 'string') resource!: string;
  @ApiField('record_uuid', 'uuid') recordUuid!: string;
  @ApiField('actor', 'object', { type: () => EventActor }) actor!: EventActor;
  @ApiField('data', 'json', { description: '{object, previous}: the record as REST GET shows it, and the old values of changed fields (updates)' })
  data!: Record<string, unknown>;
}

@ObjectType()
export class EventFeed {
  @ApiField('events', 'object', { type: () => Event, list: true }) items!: Event[];
  @ApiField('next_cursor', 'string') nextCursor!: string;
  @ApiField('has_more', 'boolean') hasMore!: boolean;
}

@ObjectType()
export class EventsHead {
  @ApiField('cursor', 'string') cursor!: string;
}

@ObjectType()
export class EventTypeInfo {
  @ApiField('type', 'string') type!: string;
  @ApiField('description', 'string') description!: string;
}

@ObjectType()
export class EventTypeCatalogue {
  @ApiField('event_types', 'object', { type: () => EventTypeInfo, list: true }) eventTypes!: EventTypeInfo[];
}
