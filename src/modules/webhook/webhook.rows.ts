import type { RequestContext } from '../../data/context';
import { WebhookAttempt, WebhookDelivery, WebhookDeliveryDetail, WebhookEndpoint } from './webhook.types';

// Rows of the webhook tables (migrations/Migration20261125000015_webhooks.ts) and the objects the
// routes return.

export interface EndpointRow {
  uuid: string;
  company_uuid: string;
  url: string;
  description: string | null;
  event_types: string[];
  status: string;
  disabled_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface DeliveryRow {
  uuid: string;
  event_id: string;
  event_type: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: Date | null;
  delivered_at: Date | null;
  created_at: Date;
  attempt_log?: Array<{ at: string; status_code: number | null; duration_ms: number; error: string | null; response_excerpt: string | null }>;
}

export const ENDPOINT_COLUMNS = 'uuid, company_uuid, url, description, event_types, status, disabled_reason, created_at, updated_at';
export const DELIVERY_COLUMNS = 'uuid, event_id, event_type, status, attempts, last_status_code, last_error, next_attempt_at, delivered_at, created_at';

/** Runs SQL in the request's transaction (if any); `?` placeholders. */
export const sql = <T>(ctx: RequestContext, text: string, params: unknown[] = []): Promise<T[]> =>
  ctx.em.getConnection().execute(text, params, 'all', ctx.em.getTransactionContext());

export function endpointOf(r: EndpointRow): WebhookEndpoint {
  return Object.assign(new WebhookEndpoint(), {
    uuid: r.uuid,
    url: r.url,
    description: r.description,
    eventTypes: r.event_types,
    status: r.status,
    disabledReason: r.disabled_reason,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  });
}

const date = (v: Date | string | null) => (v === null ? null : new Date(v));

export function deliveryOf(r: DeliveryRow): WebhookDelivery {
  return Object.assign(new WebhookDelivery(), {
    uuid: r.uuid,
    eventId: r.event_id,
    eventType: r.event_type,
    status: r.status,
    attempts: r.attempts,
    lastStatusCode: r.last_status_code,
    lastError: r.last_error,
    nextAttemptAt: r.status === 'pending' ? date(r.next_attempt_at) : null,
    deliveredAt: date(r.delivered_at),
    createdAt: new Date(r.created_at),
  });
}

export function deliveryDetailOf(r: DeliveryRow): WebhookDeliveryDetail {
  const attemptLog = (r.attempt_log ?? []).map((a) =>
    Object.assign(new WebhookAttempt(), { at: new Date(a.at), statusCode: a.status_code, durationMs: a.duration_ms, error: a.error, responseExcerpt: a.response_excerpt }),
  );
  return Object.assign(new WebhookDeliveryDetail(), deliveryOf(r), { attemptLog });
}
