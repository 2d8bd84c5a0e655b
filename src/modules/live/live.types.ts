import { ObjectType } from 'type-graphql';
import { ApiField } from '../../schema/fields';
import type { Event } from '../event/event.types';

/** An event as a subscription delivers it: the feed's event with its cursor. */
export interface LiveItem {
  position: bigint;
  companyId: string;
  event: Event;
}

@ObjectType({ description: 'An event of the feed as a subscription delivers it (docs/live-updates.md)' })
export class LiveEvent {
  @ApiField('id', 'string', { description: 'evt_…' }) id!: string;
  @ApiField('type', 'string') type!: string;
  @ApiField('resource', 'string') resource!: string;
  @ApiField('record_uuid', 'uuid') recordUuid!: string;
  @ApiField('created_at', 'datetime') createdAt!: Date;
  @ApiField('object', 'json', { description: 'The record as REST GET showed it at the commit' }) object!: Record<string, unknown>;
  @ApiField('previous', 'json', { nullable: true, description: 'The old values of the fields that changed (updates)' }) previous!: Record<string, unknown> | null;
  @ApiField('cursor', 'string', { description: 'The feed position after this event: resume with it as `after`' }) cursor!: string;
}
