import { randomBytes, randomUUID } from 'node:crypto';
import { inTransaction, RequestContext } from '../../data/context';
import { companyIs } from '../../data/tenant';
import { pageOf, pageWindow } from '../../schema/pagination';
import { isUuid } from '../../domain/values';
import { AppError } from '../../errors/app-error';
import { parseTypePatterns, readableEventResources } from '../event/event.catalogue';
import { WebhookDeliveryListArgs, WebhookPageArgs, WebhookEndpointCreateInput, WebhookEndpointUpdateInput, WebhookReplayInput } from './webhook.inputs';
import { DELIVERY_COLUMNS, DeliveryRow, deliveryDetailOf, deliveryOf, ENDPOINT_COLUMNS, EndpointRow, endpointOf, sql } from './webhook.rows';
import { webhookSettings } from './webhook.settings';
import { checkEndpointUrl } from './webhook.url';
import { WebhookEndpointSecret, WebhookReplayResult } from './webhook.types';

// Webhook endpoints and their delivery log (docs/webhooks.md). Deliveries are made by the worker
// (webhook.worker.ts) from the rows written here and by the dispatcher.

export const MAX_ENDPOINTS = 16;
/** For this long after a rotation the old secret signs too. */
export const ROTATION_WINDOW_HOURS = 24;

export const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** The patterns as sent, checked against the catalogue (400 naming event_types). */
function eventTypes(list: string[]): string[] {
  const patterns = list.map((p) => p.trim());
  parseTypePatterns(patterns.join(','), 'event_types');
  return patterns.includes('*') ? ['*'] : [...new Set(patterns)];
}

async function endpointRow(ctx: RequestContext, uuid: string): Promise<EndpointRow> {
  const [row] = isUuid(uuid) ? await sql<EndpointRow>(ctx, `select ${ENDPOINT_COLUMNS} from webhook_endpoints where ${companyIs(ctx).sql} and uuid = ?`, [...companyIs(ctx).params, uuid]) : [];
  if (!row) throw AppError.notFound('Webhook endpoint');
  return row;
}

async function deliveryRow(ctx: RequestContext, uuid: string): Promise<DeliveryRow> {
  const [row] = isUuid(uuid) ? await sql<DeliveryRow>(ctx, `select ${DELIVERY_COLUMNS}, attempt_log from webhook_deliveries where ${companyIs(ctx).sql} and uuid = ?`, [...companyIs(ctx).params, uuid]) : [];
  if (!row) throw AppError.notFound('Webhook delivery');
  return row;
}

/** The event resources the calling key may read, as a Postgres array (null: all): the endpoint gets only those (docs/people-and-access.md). */
const readableBy = (ctx: RequestContext) => {
  const readable = readableEventResources(ctx.access.rights);
  return readable ? `{${readable.join(',')}}` : null;
};

const withSecret = (endpoint: EndpointRow, secret: string) => Object.assign(new WebhookEndpointSecret(), { endpoint: endpointOf(endpoint), secret });

export const webhookService = {
  async list(ctx: RequestContext, args: WebhookPageArgs) {
    const { page, limit, offset } = pageWindow(args);
    const co = companyIs(ctx);
    const [{ n }] = await sql<{ n: string }>(ctx, `select count(*) as n from webhook_endpoints where ${co.sql}`, co.params);
    const rows = await sql<EndpointRow>(ctx, `select ${ENDPOINT_COLUMNS} from webhook_endpoints where ${co.sql} order by created_at, uuid limit ? offset ?`, [...co.params, limit, offset]);
    return pageOf(rows.map(endpointOf), Number(n), page, limit);
  },

  async get(ctx: RequestContext, uuid: string) {
    return endpointOf(await endpointRow(ctx, uuid));
  },

  async create(ctx: RequestContext, input: WebhookEndpointCreateInput): Promise<WebhookEndpointSecret> {
    const url = await checkEndpointUrl(input.url, webhookSettings());
    const types = eventTypes(input.eventTypes ?? ['*']);
    const secret = newSecret();
    const row = await inTransaction(ctx, async (tx, em) => {
      // The company row serializes concurrent creates, so the limit holds.
      await sql(tx, 'select 1 from companies where uuid = ? for update', [ctx.companyId]);
      const co = companyIs(tx);
      const [{ n }] = await sql<{ n: string }>(tx, `select count(*) as n from webhook_endpoints where ${co.sql}`, co.params);
      if (Number(n) >= MAX_ENDPOINTS) throw AppError.field('url', `a company has at most ${MAX_ENDPOINTS} webhook endpoints`);
      const [created] = await sql<EndpointRow>(
        tx,
        `insert into webhook_endpoints (uuid, company_uuid, url, description, event_types, secret, readable_resources) values (?, ?, ?, ?, ?::jsonb, ?, ?::text[]) returning ${ENDPOINT_COLUMNS}`,
        [randomUUID(), ctx.companyId, url, input.description ?? null, JSON.stringify(types), secret, readableBy(ctx)],
      );
      return created;
    });
    return withSecret(row, secret);
  },

  async update(ctx: RequestContext, uuid: string, input: WebhookEndpointUpdateInput) {
    const current = await endpointRow(ctx, uuid);
    const url = input.url !== undefined ? await checkEndpointUrl(input.url, webhookSettings()) : current.url;
    const types = input.eventTypes !== undefined ? eventTypes(input.eventTypes) : current.event_types;
    const description = input.description !== undefined ? input.description : current.description;
    const status = input.status ?? current.status;
    // Enabling again clears the reason and the failure clock.
    const enable = status === 'active' && current.status !== 'active';
    const [row] = await sql<EndpointRow>(
      ctx,
      `update webhook_endpoints set url = ?, event_types = ?::jsonb, description = ?, status = ?,
        disabled_reason = case when ? = 'active' then null when status = 'active' then 'disabled by request' else disabled_reason end,
        failing_since = case when ? then null else failing_since end, readable_resources = ?::text[], updated_at = now()
      where ${companyIs(ctx).sql} and uuid = ? returning ${ENDPOINT_COLUMNS}`,
      [url, JSON.stringify(types), description, status, status, enable, readableBy(ctx), ...companyIs(ctx).params, uuid],
    );
    if (!row) throw AppError.notFound('Webhook endpoint');
    return endpointOf(row);
  },

  async remove(ctx: RequestContext, uuid: string) {
    await endpointRow(ctx, uuid);
    await sql(ctx, `delete from webhook_endpoints where ${companyIs(ctx).sql} and uuid = ?`, [...companyIs(ctx).params, uuid]);
    return { message: 'Webhook endpoint deleted' };
  },

  async rotateSecret(ctx: RequestContext, uuid: string): Promise<WebhookEndpointSecret> {
    await endpointRow(ctx, uuid);
    const secret = newSecret();
    const [row] = await sql<EndpointRow>(
      ctx,
      `update webhook_endpoints set old_secret = secret, old_secret_until = now() + make_interval(hours => ?), secret = ?, updated_at = now()
      where ${companyIs(ctx).sql} and uuid = ? returning ${ENDPOINT_COLUMNS}`,
      [ROTATION_WINDOW_HOURS, secret, ...companyIs(ctx).params, uuid],
    );
    return withSecret(row, secret);
  },

  async deliveries(ctx: RequestContext, endpointUuid: string, args: WebhookDeliveryListArgs) {
    await endpointRow(ctx, endpointUuid);
    const { page, limit, offset } = pageWindow(args);
    const status = args.status ?? null;
    const co = companyIs(ctx);
    const where = `${co.sql} and endpoint_uuid = ? and (?::text is null or status = ?)`;
    const params = [...co.params, endpointUuid, status, status];
    const [{ n }] = await sql<{ n: string }>(ctx, `select count(*) as n from webhook_deliveries where ${where}`, params);
    const rows = await sql<DeliveryRow>(ctx, `select ${DELIVERY_COLUMNS} from webhook_deliveries where ${where} order by created_at desc, uuid limit ? offset ?`, [...params, limit, offset]);
    return pageOf(rows.map(deliveryOf), Number(n), page, limit);
  },

  async delivery(ctx: RequestContext, uuid: string) {
    return deliveryDetailOf(await deliveryRow(ctx, uuid));
  },

  /** Attempts the delivery again now, whatever its status (an attempt in flight finishes first). */
  async retry(ctx: RequestContext, uuid: string) {
    await deliveryRow(ctx, uuid);
    await sql(ctx, `update webhook_deliveries set status = 'pending', next_attempt_at = now() where ${companyIs(ctx).sql} and uuid = ?`, [...companyIs(ctx).params, uuid]);
    return deliveryDetailOf(await deliveryRow(ctx, uuid));
  },

  /** Queues a `webhook.test` event for the endpoint. */
  async sendTest(ctx: RequestContext, endpointUuid: string) {
    const endpoint = await endpointRow(ctx, endpointUuid);
    const id = `evt_test_${randomBytes(8).toString('hex')}`;
    const body = JSON.stringify({ id, type: 'webhook.test', created_at: new Date().toISOString(), data: { endpoint_uuid: endpoint.uuid } });
    const [row] = await sql<DeliveryRow>(
      ctx,
      `insert into webhook_deliveries (uuid, endpoint_uuid, company_uuid, event_id, event_type, body) values (?, ?, ?, ?, 'webhook.test', ?) returning ${DELIVERY_COLUMNS}, attempt_log`,
      [randomUUID(), endpoint.uuid, ctx.companyId, id, body],
    );
    return deliveryDetailOf(row);
  },

  /** Queues again the endpoint's deliveries created in [from, to), or its failed ones. */
  async replay(ctx: RequestContext, endpointUuid: string, input: WebhookReplayInput) {
    await endpointRow(ctx, endpointUuid);
    const range = input.from !== undefined || input.to !== undefined;
    if (range && (!input.from || !input.to)) throw AppError.field(input.from ? 'to' : 'from', 'is required with from/to');
    if (range && input.status) throw AppError.field('status', 'goes without from and to');
    if (!range && input.status !== 'failed') throw AppError.field('status', 'must be failed, or send from and to');
    if (range && input.from! >= input.to!) throw AppError.field('to', 'must be after from');
    const cond = range ? 'created_at >= ? and created_at < ?' : `status = 'failed'`;
    const rows = await sql<{ uuid: string }>(
      ctx,
      `update webhook_deliveries set status = 'pending', next_attempt_at = now() where ${companyIs(ctx).sql} and endpoint_uuid = ? and ${cond} returning uuid`,
      [...companyIs(ctx).params, endpointUuid, ...(range ? [input.from!.toISOString(), input.to!.toISOString()] : [])],
    );
    return Object.assign(new WebhookReplayResult(), { requeued: rows.length });
  },
};
