import { rest, Tenant, TestApp } from './app';

/** Every event of the tenant after `after` (a cursor; none: from the oldest), paging until has_more is false. */
export async function readAll(t: TestApp, tenant: Tenant, after?: string, query = '') {
  const events: any[] = [];
  let cursor = after;
  for (;;) {
    const q = new URLSearchParams(query);
    if (cursor) q.set('after', cursor);
    q.set('limit', q.get('limit') ?? '1000');
    const res = await rest(t, tenant).get(`/events?${q}`);
    if (res.status !== 200) throw new Error(`events: ${JSON.stringify(res.body)}`);
    events.push(...res.body.data.events);
    cursor = res.body.data.next_cursor;
    if (!res.body.data.has_more) return { events, cursor: cursor! };
  }
}

/** The REST GET of a record without its embedded summaries (keys that are objects named after other resources). */
export function withoutSummaries(record: Record<string, unknown>, summaries: string[]): Record<string, unknown> {
  const out = { ...record };
  for (const k of summaries) delete out[k];
  return out;
}
