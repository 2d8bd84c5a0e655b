import { cap } from './openapi-operations';
import type { RouteDef } from './route';

// The OpenAPI document's tags: one per resource, each with what a reader needs before its routes.

/**
 * The resource a route belongs to. A resource nested under a parent names the parent's id after
 * it (`/jobs/:job_uuid/photos`, `/jobs/:job_uuid/photos/:photo_uuid/restore`): the segment after
 * that id is the resource (`Photos`). Anything else under a path (`/invoices/:uuid/pdf`,
 * `/companies/me/settings`, `/events/head`) belongs to its first segment's resource.
 */
export function tagOf(r: RouteDef): string {
  const parts = r.path.split('/').filter(Boolean);
  const parent = parts.findIndex((p) => /^:\w+_uuid$/.test(p));
  const nested = parent >= 0 ? parts[parent + 1] : undefined;
  return cap(nested && !nested.startsWith(':') ? nested : parts[0]);
}

/** What each tag is; a tag missing here is a lint finding (test/http/openapi-lint.spec.ts). */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  Companies: "The API key's company: its fields and its settings (prevent_double_booking).",
  Users: 'The people of the company, each with a role (owner, admin, office, technician); jobs and visits are assigned to them. Deactivating a user stops their keys at once.',
  ApiKeys: 'The API keys of the company: each belongs to a user and carries scopes that narrow, never widen, its user\'s role; the secret is shown once, at creation.',
  Customers: 'Residential and commercial customers, with physical and billing addresses. Searchable, soft-deleted and restorable.',
  Locations: "The company's locations; the primary one's time zone is the company's (what \"today\" means for dates).",
  Invoices:
    'Invoices of jobs: line items, tax and discount computed on the server, a balance that payments reduce, numbers from the numbering settings. Also their PDFs, share links and emails.',
  Payments: 'Payments recorded on invoices; the invoice balance and status follow, and Completed payments never take it above its total.',
  Jobs: 'Work for a customer at a location, assigned to a user, with its status dates; invoiced from its accepted estimate or its amount.',
  Photos: "A job's photos (needs the job_photos add-on): uploaded as multipart/form-data, each with a link to its file (photo_url).",
  Visits: 'The scheduled visits of jobs (the calendar), with their crew; with prevent_double_booking on, a user is never booked on two overlapping visits.',
  Templates: 'Estimate templates: a flat price or price tiers, with optional add-ons.',
  Estimates:
    'Estimates from templates: priced on the server, sent to the customer (PDF, share link, email), accepted or declined, converted to a job. Previews price without creating.',
  Schedules: 'A job\'s recurring visits: an RFC 5545 rule in the company\'s time zone, its visits generated to a horizon, exactly one per occurrence; and a preview of the occurrences.',
  RecurringInvoices: 'Service agreements: one invoice per occurrence of a rule, created by the background task, exactly once per date; missed dates caught up (at most 12), pause and resume.',
  Imports: 'CSV or NDJSON files of customers, locations, jobs, invoices or payments written in the background, row by row by the rules of the API: progress, a file of the failed rows to fix, dry runs, all or nothing, cancel. Every list also has an export (GET /<plural>/export).',
  CustomFields: "The company's own typed fields of customers, locations, jobs, visits, estimates and invoices: their values are each record's custom_fields. Owners and admins define them; deleting one hides its values, restoring it shows them again.",
  Events: 'The change feed: every change of a record as an event, oldest first, read with a cursor to keep a copy in sync.',
  EventTypes: 'The catalogue of event types, each with a description.',
  WebhookEndpoints: 'Endpoints that receive events as signed HTTP POSTs (Standard Webhooks), with their secrets, tests, replays and deliveries.',
  WebhookDeliveries: 'One event sent to one endpoint: its status and attempt log, and a retry now.',
  Agents: "The Model Context Protocol server at /mcp: every REST operation with a JSON answer as a tool for an AI agent, under the key's role and scopes (docs/agents.md).",
  Numbering: 'How invoice and estimate numbers are made (prefix, padding, next number); changes need the custom_numbering add-on.',
};

/** The document's tags, in the order their first route appears. */
export function tagsOf(routes: RouteDef[]): { name: string; description?: string }[] {
  return [...new Set(routes.map(tagOf))].map((name) => ({ name, ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}) }));
}
