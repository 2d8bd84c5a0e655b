import { AppError } from '../../errors/app-error';
import type { Resource, Rights } from '../../domain/scopes';

// Every event type, with a one-line description (GET /api/v1/event_types, GraphQL eventTypes).
// The database triggers that emit them: migrations/Migration20261125000010_events.ts.

export const EVENT_RESOURCES = ['customer', 'location', 'template', 'estimate', 'job', 'job_photo', 'invoice', 'payment', 'visit', 'recurring_invoice'] as const;
export type EventResource = (typeof EVENT_RESOURCES)[number];

const NOUNS: Record<EventResource, string> = {
  customer: 'A customer',
  location: 'A service location',
  template: 'An estimate template',
  estimate: 'An estimate',
  job: 'A job',
  job_photo: 'A job photo',
  invoice: 'An invoice',
  payment: 'A payment',
  visit: 'A visit',
  recurring_invoice: 'A recurring invoice (service agreement)',
};

const SPECIAL: Array<[string, string]> = [
  ['job.schedule_changed', "A job's schedule was set, changed or deleted (data.object is the job)"],
  ['job.status_changed', "A job's status changed (beside job.updated; previous.status holds the old one)"],
  ['estimate.accepted', "An estimate's status became Accepted (beside estimate.updated)"],
  ['estimate.declined', "An estimate's status became Declined (beside estimate.updated)"],
  ['estimate.converted', 'An estimate was linked to a job (its job_uuid was set)'],
  ['invoice.sent', 'An invoice left Draft (its status became Pending, or Paid), beside invoice.updated'],
  ['invoice.paid', "An invoice's status became Paid (beside invoice.updated or invoice.created)"],
  ['payment.completed', "A payment's status became Completed, or it was recorded as Completed"],
  ['payment.refunded', "A payment's status became Refunded, or it was recorded as Refunded"],
];

export const EVENT_TYPES: ReadonlyArray<{ type: string; description: string }> = [
  ...EVENT_RESOURCES.flatMap((r) => [
    { type: `${r}.created`, description: `${NOUNS[r]} was created` },
    { type: `${r}.updated`, description: `${NOUNS[r]} changed; data.previous holds the old values of the fields that changed` },
    { type: `${r}.deleted`, description: `${NOUNS[r]} was deleted (deleted_at set)` },
    { type: `${r}.restored`, description: `${NOUNS[r]} was restored (deleted_at cleared)` },
  ]),
  ...SPECIAL.map(([type, description]) => ({ type, description })),
];

const KNOWN = new Set(EVENT_TYPES.map((t) => t.type));
const RESOURCES = new Set<string>(EVENT_RESOURCES);

/** A `types` filter: exact types and whole resources (`invoice.*`); null for every type. */
export interface TypeFilter {
  exact: string[];
  resources: string[];
}

/**
 * Parses `types` (`invoice.*,payment.created`, `*`): each pattern is `*`, `<resource>.*` or a
 * type of the catalogue; anything else is 400 naming `field`.
 */
export function parseTypePatterns(raw: string | null | undefined, field = 'types'): TypeFilter | null {
  if (raw === undefined || raw === null) return null;
  const patterns = raw.split(',').map((s) => s.trim());
  const filter: TypeFilter = { exact: [], resources: [] };
  for (const p of patterns) {
    if (p === '*') return null;
    const m = /^([a-z_]+)\.\*$/.exec(p);
    if (m && RESOURCES.has(m[1])) filter.resources.push(m[1]);
    else if (KNOWN.has(p)) filter.exact.push(p);
    else throw AppError.field(field, `has an unknown event type or pattern "${p}" (use a type of GET /api/v1/event_types, <resource>.* or *)`);
  }
  return filter;
}

/** Whether a type matches a filter (the same rule as the feed's SQL; webhooks select with it). */
export function typeMatches(filter: TypeFilter | null, type: string): boolean {
  if (!filter) return true;
  return filter.exact.includes(type) || filter.resources.includes(type.slice(0, type.indexOf('.')));
}

/** The resource whose read lets a key see an event of each kind (docs/people-and-access.md). */
export const EVENT_SCOPE: Record<EventResource, Resource> = {
  customer: 'customers',
  location: 'locations',
  template: 'templates',
  estimate: 'estimates',
  job: 'jobs',
  job_photo: 'photos',
  recurring_invoice: 'recurring_invoices',
  invoice: 'invoices',
  payment: 'payments',
  visit: 'visits',
};

/** The event resources these rights may read; null when all (a filter need not change). */
export function readableEventResources(rights: Rights): EventResource[] | null {
  const readable = EVENT_RESOURCES.filter((r) => rights.allows(`${EVENT_SCOPE[r]}:read`));
  return readable.length === EVENT_RESOURCES.length ? null : readable;
}

/**
 * A type filter narrowed to the event resources a key may read (null: every one): the feed's and a
 * webhook endpoint's selection, intersected with what the reader may see. The feed's SQL takes it
 * as it takes any filter, a condition on the events' types.
 */
export function narrowFilter(filter: TypeFilter | null, readable: readonly string[] | null): TypeFilter | null {
  if (!readable) return filter;
  if (!filter) return { exact: [], resources: [...readable] };
  return { exact: filter.exact.filter((t) => readable.includes(t.slice(0, t.indexOf('.')))), resources: filter.resources.filter((r) => readable.includes(r)) };
}
