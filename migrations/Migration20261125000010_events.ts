import { Migration } from '@mikro-orm/migrations';

// The event log (docs/events.md). Statement-level triggers over transition tables append one row
// per event to `events`, in the transaction that made the change, whatever made it (REST, GraphQL,
// the admin CLI, hand-written SQL, a change derived from another): a rolled-back change leaves
// none, and no code path can forget. Each row keeps the record's row image (`row`, the columns as
// the table holds them at that statement) and, for updates, the old values of the columns that
// changed (`previous`); the feed renders both with the REST field declarations.
//
// Positions (the feed's order) are given after commit, by events_assign(): a transaction notes
// itself once in event_transactions, and a deferred trigger stamps its commit sequence at commit.
// events_assign(), serialized by an advisory lock, numbers the events of committed transactions in
// commit-sequence order, stopping at the first one that began writing after a transaction of this
// database that is still running (its xid above the oldest running one). Numbers only ever grow, so a reader paging by position
// never skips an event of a transaction that was still open when it read.

const K_ASSIGN = 7_246_015; // pg_advisory_xact_lock key of events_assign
const K_PRUNE = 7_246_016; // and of events_prune (one pruner at a time; the others skip)

export interface Tracked {
  table: string;
  resource: string;
  /** Types beside `.updated`, with the condition on the old row `o` and the new row `n`. */
  changed: Array<[string, string]>;
  /** Types beside `.created`, with the condition on the new row `n`. */
  created: Array<[string, string]>;
  /** Columns added to the row image: @Formula values of the entity, as its SQL computes them. */
  extra?: string;
  /** Columns left out of the row images (stored generated columns that no field renders; migration 0025). */
  omit?: string[];
}

const became = (col: string, v: string) => `n.${col} = '${v}' and o.${col} is distinct from '${v}'`;

export const TRACKED: Tracked[] = [
  { table: 'customers', resource: 'customer', changed: [], created: [] },
  { table: 'locations', resource: 'location', changed: [], created: [] },
  { table: 'templates', resource: 'template', changed: [], created: [] },
  {
    table: 'estimates',
    resource: 'estimate',
    changed: [
      ['estimate.accepted', became('status', 'Accepted')],
      ['estimate.declined', became('status', 'Declined')],
      ['estimate.converted', 'o.job_uuid is null and n.job_uuid is not null'],
    ],
    created: [['estimate.converted', 'n.job_uuid is not null']],
  },
  { table: 'jobs', resource: 'job', changed: [['job.status_changed', 'n.status is distinct from o.status']], created: [] },
  { table: 'job_photos', resource: 'job_photo', changed: [], created: [] },
  {
    table: 'invoices',
    resource: 'invoice',
    changed: [
      ['invoice.sent', `o.status = 'Draft' and n.status <> 'Draft'`],
      ['invoice.paid', became('status', 'Paid')],
    ],
    created: [['invoice.paid', `n.status = 'Paid'`]],
    // Invoice.companyToday (src/modules/invoice/invoice.entity.ts): the company's "today" at the
    // change, so that `status` (Overdue) reads as GET read it then.
    extra: `jsonb_build_object('company_today', ((now() at time zone coalesce((select l.timezone from locations l where l.company_uuid = n.company_uuid
      and l.is_primary and l.deleted_at is null limit 1), 'America/New_York'))::date)::text)`,
  },
  {
    table: 'payments',
    resource: 'payment',
    changed: [
      ['payment.completed', became('status', 'Completed')],
      ['payment.refunded', became('status', 'Refunded')],
    ],
    created: [
      ['payment.completed', `n.status = 'Completed'`],
      ['payment.refunded', `n.status = 'Refunded'`],
    ],
  },
];

const ACTOR = `nullif(current_setting('fsc.actor', true), '')::jsonb`;
const NOTE_TX = `if found then insert into event_transactions (xid) values (pg_current_xact_id()) on conflict do nothing; end if;`;

/**
 * The trigger functions of a tracked table (later migrations track their new tables with it).
 * `imagesOnce` (migration 0046, for every table tracked from then on): the update's function
 * makes each row's two images once; without it, as this migration made them, the planner folds
 * them into the comparison that finds `previous` and makes the new image again for every column.
 */
export function triggerFunctions(t: Tracked, o: { imagesOnce?: boolean } = {}): string[] {
  const r = t.resource;
  const minus = (t.omit ?? []).map((c) => ` - '${c}'`).join('');
  const image = t.extra ? `to_jsonb(n)${minus} || ${t.extra}` : `to_jsonb(n)${minus}`;
  const updatedImage = o.imagesOnce ? (t.extra ? `j.new_image || ${t.extra}` : 'j.new_image') : image;
  const types = (pairs: Array<[string, string]>, first: string) =>
    `(select x.type from (values ${[[first, 'true'], ...pairs].map(([ty, cond]) => `('${ty}', ${cond})`).join(', ')}) as x(type, ok) where x.ok)`;
  // A soft delete or a restore is that event alone; any other change of a column is `.updated`
  // and the types beside it.
  const updateTypes = `(case when o.deleted_at is null and n.deleted_at is not null then array['${r}.deleted']
      when o.deleted_at is not null and n.deleted_at is null then array['${r}.restored']
      else array${types(t.changed, `${r}.updated`)} end)`;
  return [
    `create function events_${t.table}_inserted() returns trigger language plpgsql as $$ begin
      insert into events (company_uuid, type, resource, record_uuid, actor, row)
      select n.company_uuid, ty, '${r}', n.uuid, ${ACTOR}, ${image}
      from new_rows n cross join lateral ${types(t.created, `${r}.created`)} as ty(ty);
      ${NOTE_TX} return null; end $$`,
    `create function events_${t.table}_updated() returns trigger language plpgsql as $$ begin
      insert into events (company_uuid, type, resource, record_uuid, actor, row, previous)
      select n.company_uuid, ty, '${r}', n.uuid, ${ACTOR}, ${updatedImage}, d.previous
      from new_rows n join old_rows o on o.uuid = n.uuid
      cross join lateral (select to_jsonb(o)${minus} as old_image, to_jsonb(n)${minus} as new_image${o.imagesOnce ? ' offset 0' : ''}) as j
      cross join lateral (select jsonb_object_agg(k.key, k.value) as previous from jsonb_each(j.old_image) as k where j.new_image -> k.key is distinct from k.value) as d
      cross join lateral unnest(${updateTypes}) as ty(ty)
      where d.previous is not null;
      ${NOTE_TX} return null; end $$`,
    // No route deletes these rows; hand-written SQL that does is a deletion all the same.
    `create function events_${t.table}_deleted() returns trigger language plpgsql as $$ begin
      insert into events (company_uuid, type, resource, record_uuid, actor, row)
      select n.company_uuid, '${r}.deleted', '${r}', n.uuid, ${ACTOR}, ${image}
      from old_rows n where n.deleted_at is null;
      ${NOTE_TX} return null; end $$`,
  ];
}

export class Migration20261125000010_events extends Migration {
  async up(): Promise<void> {
    this.addSql(`create table events (
      id bigint generated always as identity primary key,
      company_uuid uuid not null,
      type text not null,
      resource text not null,
      record_uuid uuid not null,
      actor jsonb,
      row jsonb not null,
      previous jsonb,
      created_at timestamptz(3) not null default now(),
      xid xid8 not null default pg_current_xact_id(),
      position bigint
    )`);
    this.addSql(`create unique index events_company_position_idx on events (company_uuid, position)`);
    this.addSql(`create index events_unassigned_idx on events (xid) where position is null`);
    this.addSql(`create table event_transactions (xid xid8 primary key, commit_seq bigint)`);
    this.addSql(`create sequence event_commit_seq`);
    // The newest position given, and the newest pruned (cursors below it expired); no row: 0 and 0.
    this.addSql(`create table event_feed_state (id int primary key check (id = 1), position bigint not null, pruned_through bigint not null)`);
    this.addSql(`create function events_commit() returns trigger language plpgsql as $$ begin
      update event_transactions set commit_seq = nextval('event_commit_seq') where xid = new.xid; return null; end $$`);
    this.addSql(`create constraint trigger event_transactions_commit after insert on event_transactions
      deferrable initially deferred for each row execute function events_commit()`);
    this.addSql(`create function events_assign(max_transactions int default 10000) returns bigint language plpgsql as $$
      declare top bigint; n bigint; horizon xid8; stop_seq bigint;
      begin
        if not exists (select 1 from event_transactions where commit_seq is not null) then return 0; end if;
        perform pg_advisory_xact_lock(${K_ASSIGN});
        -- Each statement below reads a snapshot taken after the lock: every earlier assignment is in it.
        -- The oldest transaction of this database still running: the snapshot's running xids
        -- (xid8) of this database's backends (xids are cluster-wide; a transaction in another
        -- database of the cluster changes no event and must not hold the feed back).
        select min(x) into horizon from pg_snapshot_xip(pg_current_snapshot()) as x
          where (x::text::numeric % 4294967296)::bigint in (
            select backend_xid::text::bigint from pg_stat_activity where datname = current_database() and backend_xid is not null);
        select min(commit_seq) into stop_seq from event_transactions where xid > horizon and commit_seq is not null;
        top := coalesce((select position from event_feed_state where id = 1), 0);
        with tx as (
          delete from event_transactions where xid in (
            select xid from event_transactions where commit_seq is not null and (stop_seq is null or commit_seq < stop_seq)
            order by commit_seq limit max_transactions)
          returning xid, commit_seq
        ), numbered as (
          select e.id, top + row_number() over (order by t.commit_seq, e.id) as pos
          from events e join tx t on e.xid = t.xid where e.position is null
        )
        update events e set position = numbered.pos from numbered where e.id = numbered.id;
        get diagnostics n = row_count;
        if n > 0 then
          insert into event_feed_state values (1, top + n, 0) on conflict (id) do update set position = excluded.position;
        end if;
        return n;
      end $$`);
    // Retention: the oldest rows by id (insertion order) that are positioned and older than the
    // cutoff, one batch per call; pruned_through is the newest position pruned (older cursors: 410).
    this.addSql(`create function events_prune(cutoff timestamptz, batch int default 5000) returns bigint language plpgsql as $$
      declare n bigint; hi bigint;
      begin
        if not pg_try_advisory_xact_lock(${K_PRUNE}) then return 0; end if;
        with gone as (
          delete from events where id in (select id from events order by id limit batch) and created_at < cutoff and position is not null
          returning position
        ) select count(*), max(position) into n, hi from gone;
        if n > 0 then
          insert into event_feed_state values (1, 0, hi)
          on conflict (id) do update set pruned_through = greatest(event_feed_state.pruned_through, excluded.pruned_through);
        end if;
        return n;
      end $$`);
    for (const t of TRACKED) {
      for (const sql of triggerFunctions(t)) this.addSql(sql);
      this.addSql(`create trigger ${t.table}_events_insert after insert on ${t.table} referencing new table as new_rows for each statement execute function events_${t.table}_inserted()`);
      this.addSql(`create trigger ${t.table}_events_update after update on ${t.table} referencing old table as old_rows new table as new_rows for each statement execute function events_${t.table}_updated()`);
      this.addSql(`create trigger ${t.table}_events_delete after delete on ${t.table} referencing old table as old_rows for each statement execute function events_${t.table}_deleted()`);
    }
  }

  async down(): Promise<void> {
    for (const t of TRACKED) {
      for (const e of ['insert', 'update', 'delete']) this.addSql(`drop trigger if exists ${t.table}_events_${e} on ${t.table}`);
      for (const e of ['inserted', 'updated', 'deleted']) this.addSql(`drop function if exists events_${t.table}_${e}()`);
    }
    this.addSql(`drop function if exists events_assign(int)`);
    this.addSql(`drop function if exists events_prune(timestamptz, int)`);
    this.addSql(`drop table if exists event_transactions`);
    this.addSql(`drop function if exists events_commit()`);
    this.addSql(`drop sequence if exists event_commit_seq`);
    this.addSql(`drop table if exists event_feed_state`);
    this.addSql(`drop table if exists events`);
  }
}
