import { Migration } from '@mikro-orm/migrations';

// The feed's page statement as a function with a fixed plan (docs/events.md "Reading fast"): the
// company's events after a position, in position order, always by an index scan of
// events_company_position_idx. Planned freely, the statement's plan depends on the table's
// statistics: on a table that had not been analysed since a burst of writes (autovacuum lags, or
// is off) PostgreSQL estimated a few hundred rows and read every later event of the company
// through a bitmap scan and a sort: 96 ms for a page of 1,000 instead of 1 ms, on every page.
// The SET clauses apply while the function runs (they also keep it from being inlined).
export class Migration20261125000017_feed_page extends Migration {
  async up(): Promise<void> {
    this.addSql(`create function events_page(p_company uuid, p_after bigint, p_exact text[], p_resources text[], p_limit int)
returns setof events language sql stable
set enable_seqscan = off set enable_bitmapscan = off set enable_sort = off
as $$
  select * from events e
  where e.company_uuid = p_company and e.position > p_after
    and (p_exact is null or e.type = any(p_exact) or e.resource = any(p_resources))
  order by e.position limit p_limit
$$`);
  }

  async down(): Promise<void> {
    this.addSql(`drop function if exists events_page(uuid, bigint, text[], text[], int)`);
  }
}
