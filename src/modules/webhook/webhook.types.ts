import { ObjectType, registerEnumType } from 'type-graphql';
import { ShowsResource } from '../../schema/access';
import { ApiField } from '../../schema/fields';

// What the webhook routes return, declared once for both surfaces (docs/webhooks.md).

export enum WebhookEndpointStatus {
  ACTIVE = 'active',
  DISABLED = 'disabled',
}
registerEnumType(WebhookEndpointStatus, { name: 'WebhookEndpointStatus' });

export enum WebhookDeliveryStatus {
  PENDING = 'pending',
  SUCCEEDED = 'succeeded',
  FAILED = 'failed',
}
registerEnumType(WebhookDeliveryStatus, { name: 'WebhookDeliveryStatus' });

@ObjectType()
@ShowsResource('webhooks')
export class WebhookEndpoint {
  @ApiField('uuid', 'uuid') uuid!: string;
  @ApiField('url', 'string') url!: string;
  @ApiField('description', 'text', { nullable: true }) description!: string | null;
  @ApiField('event_types', 'string', { list: true, description: 'Patterns as the feed\'s types: a type, <resource>.* or *' }) eventTypes!: string[];
  @ApiField('status', 'enum', { enum: WebhookEndpointStatus }) status!: WebhookEndpointStatus;
  @ApiField('disabled_reason', 'text', { nullable: true }) disabledReason!: string | null;
  @ApiField('created_at', 'datetime') createdAt!: Date;
  @ApiField('updated_at', 'datetime') updatedAt!: Date;
}

/** REST: the endpoint with its secret (create and rotate_secret only). */
export class WebhookEndpointWithSecret extends WebhookEndpoint {
  @ApiField('secret', 'string', { graphql: false, description: 'whsec_…: shown only in this response' }) secret!: string;
}

/** GraphQL: createWebhookEndpoint and rotateWebhookEndpointSecret. */
@ObjectType()
export class WebhookEndpointSecret {
  @ApiField('endpoint', 'object', { type: () => WebhookEndpoint }) endpoint!: WebhookEndpoint;
  @ApiField('secret', 'string', { description: 'whsec_…: shown only in this response' }) secret!: string;
}

@ObjectType()
@ShowsResource('webhooks')
export class WebhookDelivery {
  @ApiField('uuid', 'uuid') uuid!: string;
  @ApiField('event_id', 'string', { description: 'Sent as webhook-id' }) eventId!: string;
  @ApiField('event_type', 'string') eventType!: string;
  @ApiField('status', 'enum', { enum: WebhookDeliveryStatus }) status!: WebhookDeliveryStatus;
  @ApiField('attempts', 'int') attempts!: number;
  @ApiField('last_status_code', 'int', { nullable: true }) lastStatusCode!: number | null;
  @ApiField('last_error', 'text', { nullable: true }) lastError!: string | null;
  @ApiField('next_attempt_at', 'datetime', { nullable: true, description: 'Pending deliveries only' }) nextAttemptAt!: Date | null;
  @ApiField('delivered_at', 'datetime', { nullable: true }) deliveredAt!: Date | null;
  @ApiField('created_at', 'datetime') createdAt!: Date;
}

@ObjectType()
export class WebhookAttempt {
  @ApiField('at', 'datetime') at!: Date;
  @ApiField('status_code', 'int', { nullable: true }) statusCode!: number | null;
  @ApiField('duration_ms', 'int') durationMs!: number;
  @ApiField('error', 'text', { nullable: true }) error!: string | null;
  @ApiField('response_excerpt', 'text', { nullable: true, description: 'The first 1 KiB of the answer' }) responseExcerpt!: string | null;
}

@ObjectType()
@ShowsResource('webhooks')
export class WebhookDeliveryDetail extends WebhookDelivery {
  @ApiField('attempt_log', 'object', { type: () => WebhookAttempt, list: true }) attemptLog!: WebhookAttempt[];
}

@ObjectType()
export class WebhookReplayResult {
  @ApiField('requeued', 'int', { description: 'Deliveries queued again' }) requeued!: number;
}
