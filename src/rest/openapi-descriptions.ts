import type { ErrorCode } from '../errors/app-error';
import { restFieldsOf } from '../schema/fields';
import { DeleteResult } from '../schema/pagination';
import type { RouteDef } from './route';

// An operation's description, from what its row declares: what it answers, and the rules of the
// row that a client must know (paging, summaries, soft delete, idempotency, ETags, add-ons). The
// summary says what the operation does; this says how to call it, so a new row gets one too.

/** `WebhookDeliveryDetail` → `webhook delivery detail`. */
const words = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

const list = (items: string[]) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`);

/** What `data` holds. */
function answer(r: RouteDef, table: RouteDef[]): string {
  if (r.file) return `Answers the file (${r.file}).`;
  if (r.stream) return `Answers a file, streamed as it is read (\`format\`: ${Object.entries(r.stream).map(([f, t]) => `${f}, ${t.split(';')[0]}`).join('; ')}), as an attachment; no ETag.`;
  if (r.plural) return `Answers a page: \`data.${r.plural}\` and \`data.pagination\` (page, limit, total, total_pages; the total is exact).`;
  if (r.output === DeleteResult) {
    const restore = table.find((x) => x.method === 'POST' && x.path === `${r.path}/restore`);
    return restore
      ? `Answers \`data.message\`. A soft delete: the record leaves lists (but \`include_deleted=true\`) and its GET is 404 until \`POST /api/v1${restore.path.replace(/:(\w+)/g, '{$1}')}\` restores it.`
      : 'Answers `data.message`.';
  }
  const summaries = r.embed?.length ? ` with ${r.embed.length > 1 ? 'summaries' : 'a summary'} of its ${list(r.embed.map((e) => words(e.key.replace(/_/g, ' '))))} (null when there is none)` : '';
  if (r.embedIn) return `Answers \`data\`: the ${words(r.output.name)}; each record of its \`${r.embedIn}\`${summaries}.`;
  return `Answers \`data\`: the ${words(r.output.name)}${summaries}.`;
}

/** How a list's query parameters behave. */
function listRules(r: RouteDef): string[] {
  if (!r.query) return [];
  const names = new Set(restFieldsOf(r.query).filter((f) => f.io === 'in').map((f) => f.restName));
  const out: string[] = [];
  if (names.has('limit')) out.push('`limit` is 50 by default and at most 100.');
  if (names.has('sort')) out.push('`sort` orders by one of its values, descending with a leading `-`; pages stay stable.');
  if (names.has('include_deleted')) out.push('`include_deleted=true` adds soft-deleted records.');
  if (names.has('updated_since')) out.push('`updated_since` keeps the records changed at or after an instant (incremental sync).');
  return out;
}

export interface DescribedFacts {
  /** The 200 carries an ETag. */
  etag: boolean;
  /** The route honours If-Match. */
  conditional: boolean;
  /** The error codes it may answer. */
  codes: readonly ErrorCode[];
}

/** The description of a route's operation. */
export function operationDescription(r: RouteDef, table: RouteDef[], facts: DescribedFacts): string {
  const parts = [answer(r, table), ...listRules(r)];
  if (r.multipart) parts.push('The body is multipart/form-data.');
  if (r.addon) parts.push(`Needs the \`${r.addon}\` add-on (403 ADDON_REQUIRED otherwise).`);
  if (r.creates) parts.push('Send an `Idempotency-Key` to retry safely: for 24 hours the same key and body answer the first success again (`Idempotent-Replayed: true`) and create nothing; the same key with another body is 400.');
  if (facts.etag && r.method === 'GET') parts.push('The answer carries a strong `ETag`; `If-None-Match` with it answers 304 while it is current.');
  else if (facts.etag) parts.push('The answer carries the record\'s new `ETag`.');
  if (facts.conditional) parts.push('With `If-Match`, it changes the record only while its ETag is one of those sent: otherwise 412 PRECONDITION_FAILED and nothing changes.');
  if (facts.codes.includes('SCHEDULE_CONFLICT')) parts.push('409 SCHEDULE_CONFLICT when a user would be booked on two overlapping visits (with `prevent_double_booking` on).');
  if (facts.codes.includes('CONFLICT')) parts.push('409 CONFLICT when the record\'s state forbids it.');
  if (facts.codes.includes('CURSOR_EXPIRED')) parts.push('410 CURSOR_EXPIRED for a cursor older than the events kept.');
  return parts.join(' ');
}
