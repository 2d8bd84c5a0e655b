import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Needs } from '../../schema/access';
import type { RequestContext } from '../../data/context';
import { DeleteResult, Page, PageType } from '../../schema/pagination';
import { UUIDScalar } from '../../schema/scalars';
import { WebhookDeliveryListArgs, WebhookPageArgs, WebhookEndpointCreateInput, WebhookEndpointUpdateInput, WebhookReplayInput } from './webhook.inputs';
import { webhookService } from './webhook.service';
import { WebhookDelivery, WebhookDeliveryDetail, WebhookEndpoint, WebhookEndpointSecret, WebhookReplayResult } from './webhook.types';

const EndpointPage = PageType(WebhookEndpoint);
const DeliveryPage = PageType(WebhookDelivery);

// GraphQL of webhooks (docs/webhooks.md): the same service as the REST rows.
@Resolver(() => WebhookEndpoint)
export class WebhookResolver {
  @Needs('webhooks:read')
  @Query(() => EndpointPage)
  webhookEndpoints(@Ctx() ctx: RequestContext, @Args(() => WebhookPageArgs) args: WebhookPageArgs): Promise<Page<WebhookEndpoint>> {
    return webhookService.list(ctx, args);
  }

  @Needs('webhooks:read')
  @Query(() => WebhookEndpoint)
  webhookEndpoint(@Ctx() ctx: RequestContext, @Arg('uuid', () => UUIDScalar) uuid: string): Promise<WebhookEndpoint> {
    return webhookService.get(ctx, uuid);
  }

  @Needs('webhooks:write')
  @Mutation(() => WebhookEndpointSecret, { description: 'The secret is shown only in this answer' })
  createWebhookEndpoint(@Ctx() ctx: RequestContext, @Arg('input', () => WebhookEndpointCreateInput) input: WebhookEndpointCreateInput): Promise<WebhookEndpointSecret> {
    return webhookService.create(ctx, input);
  }

  @Needs('webhooks:write')
  @Mutation(() => WebhookEndpoint)
  updateWebhookEndpoint(@Ctx() ctx: RequestContext, @Arg('uuid', () => UUIDScalar) uuid: string, @Arg('input', () => WebhookEndpointUpdateInput) input: WebhookEndpointUpdateInput): Promise<WebhookEndpoint> {
    return webhookService.update(ctx, uuid, input);
  }

  @Needs('webhooks:write')
  @Mutation(() => DeleteResult)
  deleteWebhookEndpoint(@Ctx() ctx: RequestContext, @Arg('uuid', () => UUIDScalar) uuid: string): Promise<{ message: string }> {
    return webhookService.remove(ctx, uuid);
  }

  @Needs('webhooks:write')
  @Mutation(() => WebhookEndpointSecret, { description: 'A new secret; the old one keeps signing for 24 hours' })
  rotateWebhookEndpointSecret(@Ctx() ctx: RequestContext, @Arg('uuid', () => UUIDScalar) uuid: string): Promise<WebhookEndpointSecret> {
    return webhookService.rotateSecret(ctx, uuid);
  }

  @Needs('webhooks:read')
  @Query(() => DeliveryPage)
  webhookDeliveries(@Ctx() ctx: RequestContext, @Arg('endpointUuid', () => UUIDScalar) endpointUuid: string, @Args(() => WebhookDeliveryListArgs) args: WebhookDeliveryListArgs): Promise<Page<WebhookDelivery>> {
    return webhookService.deliveries(ctx, endpointUuid, args);
  }

  @Needs('webhooks:read')
  @Query(() => WebhookDeliveryDetail)
  webhookDelivery(@Ctx() ctx: RequestContext, @Arg('uuid', () => UUIDScalar) uuid: string): Promise<WebhookDeliveryDetail> {
    return webhookService.delivery(ctx, uuid);
  }

  @Needs('webhooks:write')
  @Mutation(() => WebhookDeliveryDetail, { description: 'Attempts the delivery again now, whatever its status' })
  retryWebhookDelivery(@Ctx() ctx: RequestContext, @Arg('uuid', () => UUIDScalar) uuid: string): Promise<WebhookDeliveryDetail> {
    return webhookService.retry(ctx, uuid);
  }

  @Needs('webhooks:write')
  @Mutation(() => WebhookDeliveryDetail, { description: 'Sends a webhook.test event to the endpoint' })
  sendTestWebhook(@Ctx() ctx: RequestContext, @Arg('endpointUuid', () => UUIDScalar) endpointUuid: string): Promise<WebhookDeliveryDetail> {
    return webhookService.sendTest(ctx, endpointUuid);
  }

  @Needs('webhooks:write')
  @Mutation(() => WebhookReplayResult, { description: 'Queues again the deliveries created in [from, to), or the failed ones (status: failed)' })
  replayWebhookDeliveries(@Ctx() ctx: RequestContext, @Arg('endpointUuid', () => UUIDScalar) endpointUuid: string, @Arg('input', () => WebhookReplayInput) input: WebhookReplayInput): Promise<WebhookReplayResult> {
    return webhookService.replay(ctx, endpointUuid, input);
  }
}
