import { raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Conditions, TenantScope } from './tenant';

// A technician's reach (docs/people-and-access.md, "What a technician sees"): the records a
// technician's request may read, as one condition per table, written once here in both forms the
// data layer needs, side by side (test/data/reach.spec.ts evaluates both over the same records):
// SQL for the hand-written statements (lists, counts, searches, relations, loaders, prefetch) and
// the MikroORM filter every em.find* of a technician's request runs under (src/auth/authenticate.ts).
//
// - jobs: assigned to them (`assigned_to_user_id`), or with a live visit whose crew holds them (a
//   deleted visit no longer brings its job into reach);
// - visits: those whose crew (`assigned_user_ids`) holds them, not every visit of their jobs;
// - customers and locations: those of the jobs in their reach;
// - job photos: those of the jobs in their reach.
// Otherwise liveness is not part of reach (deleted rows are left out by the usual condition, and
// shown with include_deleted when in reach), so a job's customer and location and a photo's job
// are in reach whenever the record is.
//
// Index-friendly: each condition is the row's key against a set computed once per statement (an
// InitPlan: `= any(array(select …))`) from the indexes on job_reach (company_uuid, user_id, …) and
// visit_assignments (company_uuid, user_id, …), never a subquery per row. The jobs' rule is kept
// as rows of job_reach by triggers (JOBS); jobReachRule below is the same rule read from the base
// tables, and test/data/job-reach.spec.ts holds the kept rows to it after any sequence of writes.
// A technician's job list in the default order is read from job_reach in page order
// (reachDrivesList, src/data/list.ts).

/** The filter a technician's EntityManager carries (src/auth/authenticate.ts). */
export const REACH_FILTER = 'reach';

export const REACH_TABLES = ['jobs', 'visits', 'customers', 'locations', 'job_photos'] as const;
export type ReachTable = (typeof REACH_TABLES)[number];

export const isReachTable = (table: string): table is ReachTable => (REACH_TABLES as readonly string[]).includes(table);

/** Whose reach a scope's reads are held to: the technician's user id, or null (any other role: the whole company). */
export function technicianOf(scope: TenantScope): string | null {
  const access = scope.access;
  return access?.role === 'technician' ? access.userId : null;
}

/** The params of a reach condition: `[company, user]` pairs, one per pair of `?` in its text. */
export interface Reach {
  companyId: string;
  userId: string;
}

/**
 * The keys of the jobs in reach, from the kept reach (job_reach: one row per job and user the rule
 * above holds, kept by triggers, migrations/Migration20261129000037_job_reach.ts); its `?`: company, user.
 */
const JOBS = `select "rj"."job_uuid" from "job_reach" as "rj" where "rj"."company_uuid" = ?::uuid and "rj"."user_id" = ?::uuid`;

/** The keys of the visits whose crew holds the user; its `?`: company, user. */
function visitsOf(a: string): string {
  return `select "${a}"."visit_uuid" from "visit_assignments" as "${a}" where "${a}"."company_uuid" = ?::uuid and "${a}"."user_id" = ?::uuid`;
}

/**
 * The jobs' rule read from the base tables, as it stood before it was kept (the job's assignee, or
 * the crew of one of its live visits); its `?`: company, user, company, user. For the tests that
 * hold job_reach to it.
 */
export const jobReachRule =
  `select "rj"."uuid" from "jobs" as "rj" where "rj"."company_uuid" = ?::uuid and "rj"."assigned_to_user_id" = ?::uuid` +
  ` union select "rv"."job_uuid" from "visits" as "rv" where "rv"."uuid" = any(array(${visitsOf('rva')})) and "rv"."deleted_at" is null`;

/** The alias of job_reach in a list read from it (reachDrivesList). */
export const REACH_ROWS = 'r';

/**
 * Whether a technician's list of `table` in `order` (null: newest first) reads its page from
 * job_reach, in page order by its index, instead of testing the table's rows against the set:
 * the jobs, in the default order. Its reach condition is then `reachRowsSql` on the joined row.
 */
export function reachDrivesList(table: string, order: string | null): boolean {
  return table === 'jobs' && order === null;
}

/** The reach condition of a list read from job_reach (alias REACH_ROWS); its `?`: company, user; `live`: the live jobs only. */
export function reachRowsSql(live: boolean): string {
  return `"${REACH_ROWS}"."company_uuid" = ?::uuid and "${REACH_ROWS}"."user_id" = ?::uuid${live ? ` and "${REACH_ROWS}"."live"` : ''}`;
}

/**
 * Whether the `target` records related to a row of `table` in reach through `column` (the row's
 * many-to-one column, or the related records' column naming the row) are in reach by the rule
 * itself: a job's customer (`customer_uuid`) and location (`location_uuid`), and its photos
 * (`job_uuid`), since those tables' sets are the records of the jobs in reach. A list whose rows
 * are held to reach reads them without a condition of their own (src/data/list.ts): the set of the
 * customers of a technician's 500 jobs, compared with each of a page's customers, cost 4× the page.
 */
export function reachFollows(table: string, target: string, column: string): boolean {
  if (table !== 'jobs') return false;
  return (target === 'customers' && column === 'customer_uuid') || (target === 'locations' && column === 'location_uuid') || (target === 'job_photos' && column === 'job_uuid');
}

/** Per table: the column of the row compared, the set it must be in, and how many (company, user) pairs that set takes. */
const SETS: Record<ReachTable, { column: string; set: string; pairs: number }> = {
  jobs: { column: 'uuid', set: JOBS, pairs: 1 },
  visits: { column: 'uuid', set: visitsOf('rva'), pairs: 1 },
  customers: { column: 'uuid', set: `select "rc"."customer_uuid" from "jobs" as "rc" where "rc"."uuid" = any(array(${JOBS}))`, pairs: 1 },
  locations: { column: 'uuid', set: `select "rl"."location_uuid" from "jobs" as "rl" where "rl"."uuid" = any(array(${JOBS})) and "rl"."location_uuid" is not null`, pairs: 1 },
  job_photos: { column: 'job_uuid', set: JOBS, pairs: 1 },
};

/** The reach condition of `table` on the row aliased `alias` (null: unqualified), its `?` taking reachParams. */
export function reachSql(table: ReachTable, alias: string | null): string {
  const { column, set } = SETS[table];
  return `${alias ? `${alias}.` : ''}"${column}" = any(array(${set}))`;
}

/** The parameters of reachSql's text, in order. */
export function reachParams(table: ReachTable, reach: Reach): unknown[] {
  return Array.from({ length: SETS[table].pairs }, () => [reach.companyId, reach.userId]).flat();
}

/** The reach of a scope: its company and technician, or null (not a technician). */
export function reachOf(scope: TenantScope): Reach | null {
  const userId = technicianOf(scope);
  return userId ? { companyId: scope.companyId, userId } : null;
}

/** The reach condition of a hand-written statement on `table` for `scope`, or null (not a technician, or not a table reach holds). */
export function reachWhere(scope: TenantScope, table: string, alias: string | null): Conditions | null {
  const reach = reachOf(scope);
  if (!reach || !isReachTable(table)) return null;
  return { sql: reachSql(table, alias), params: reachParams(table, reach) };
}

type Em = { getMetadata(): { find(name: string): { tableName: string } | undefined } };

/**
 * The ORM's form: the condition of `table` as a where of em.find, on the alias MikroORM gives
 * the row. A key with nothing to compare (`[]`): MikroORM writes the raw fragment alone.
 */
export function reachCondition(table: ReachTable, reach: Reach): Record<string, unknown> {
  return { [raw((alias: string) => reachSql(table, alias), reachParams(table, reach))]: [] };
}

/** The reach filter's condition (holdToReach): per entity, by its table. */
export function reachFilter(args: Reach, _type: string, em: Em, _options: unknown, entityName?: unknown): Record<string, unknown> {
  const meta = em.getMetadata().find(typeof entityName === 'function' ? entityName.name : String(entityName));
  return meta && isReachTable(meta.tableName) ? reachCondition(meta.tableName, args) : {};
}

/**
 * The ORM's form for `scope` as part of a `where`, for the reads that turn the filters off (row
 * locks, restores): `{}` when the scope is not a technician's or the table is not one reach holds.
 */
export function inReach(scope: TenantScope, table: string): Record<string, unknown> {
  const reach = reachOf(scope);
  return reach && isReachTable(table) ? reachCondition(table, reach) : {};
}

/**
 * Holds an EntityManager's reads to `scope`'s reach when it is a technician's (authentication does
 * it for every request's EntityManager): the reach filter, on every em.find* of it and of its
 * transactions (forks copy it), beside the tenant filter. Nothing for any other role.
 */
export function holdToReach(em: EntityManager, scope: TenantScope): void {
  const reach = reachOf(scope);
  if (!reach) return;
  em.addFilter(REACH_FILTER, reachFilter as never, undefined, true);
  em.setFilterParams(REACH_FILTER, reach);
}
