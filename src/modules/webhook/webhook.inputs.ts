import { ArgsType, InputType } from 'type-graphql';
import { InputField } from '../../schema/fields';
import { WebhookDeliveryStatus, WebhookEndpointStatus } from './webhook.types';

const typesCheck = (v: string[]) => (v.length >= 1 && v.length <= 100 ? null : 'must list 1 to 100 patterns');

@InputType('WebhookEndpointCreateInput')
export class WebhookEndpointCreateInput {
  @InputField('url', 'text', { required: true, description: 'https:// (http:// with WEBHOOK_ALLOW_HTTP)' }) url!: string;
  @InputField('description', 'text', { nullable: true }) description?: string | null;
  @InputField('event_types', 'string', { list: true, default: ['*'], check: typesCheck, description: 'Types, <resource>.* or *' }) eventTypes?: string[];
}

@InputType('WebhookEndpointUpdateInput')
export class WebhookEndpointUpdateInput {
  @InputField('url', 'text') url?: string;
  @InputField('description', 'text', { nullable: true }) description?: string | null;
  @InputField('event_types', 'string', { list: true, check: typesCheck }) eventTypes?: string[];
  @InputField('status', 'enum', { enum: WebhookEndpointStatus, description: 'active enables a disabled endpoint again' }) status?: WebhookEndpointStatus;
}

/** page and limit, as every list (webhooks have no soft delete, so no include_deleted). */
@ArgsType()
export class WebhookPageArgs {
  @InputField('page', 'int', { check: (v) => (v >= 1 ? null : 'must be at least 1') }) page?: number;
  @InputField('limit', 'int', { check: (v) => (v >= 1 ? null : 'must be at least 1') }) limit?: number;
}

@ArgsType()
export class WebhookDeliveryListArgs extends WebhookPageArgs {
  @InputField('status', 'enum', { enum: WebhookDeliveryStatus }) status?: WebhookDeliveryStatus;
}

@InputType('WebhookReplayInput')
export class WebhookReplayInput {
  @InputField('from', 'datetime', { description: 'With to: deliveries created in [from, to)' }) from?: Date;
  @InputField('to', 'datetime') to?: Date;
  @InputField('status', 'enum', { enum: WebhookDeliveryStatus, description: 'failed: every failed delivery' }) status?: WebhookDeliveryStatus;
}
