import type { EntityManager, EntityName } from '@mikro-orm/postgresql';
import type { ListArgs } from '../schema/pagination';
import { defaultOrderOf, orderSql, ParsedSort, parseSort } from '../schema/sorting';
import { leanColumn } from './list';
import type { TenantScope } from './tenant';
import { reachDrivesList, reachOf, reachRowsSql, reachWhere } from './reach';

// The conditions and order of a list (src/data/crud.ts listPage), written once for the statement
// a request runs and for the statements committed under src/data/queries/ (src/data/queries.ts).

/**
 * The filters of a list, as SQL conditions on its rows (alias `e`): each `?` takes the next
 * parameter; an array parameter becomes a list (`e.status in (?)`). Columns are named through
 * `col(property)`, from the entity's metadata.
 */
export interface ListWhere {
  and(condition: string, params?: unknown[]): void;
  col(property: string): string;
  /** `property = value` (a relation compares its key). */
  equals(property: string, value: unknown): void;
  /** `property in (values)`. */
  oneOf(property: string, values: readonly unknown[]): void;
}

export interface ListConditions {
  /** The conditions on `e`, joined by `and`: the company, liveness, then each filter in parentheses. */
  sql: string;
  params: unknown[];
  /** False when a condition carries values whose best plan depends on them (planned per request). */
  prepare: boolean;
  /** Any condition beyond the company and deleted_at (the kept count no longer applies). */
  filtered: boolean;
  /**
   * Held to a technician's reach (src/data/reach.ts): a condition that reads other tables, so its
   * total is counted, never kept nor remembered under the listed table's change count.
   */
  reached: boolean;
  /**
   * A technician's list read from job_reach in page order (reachDrivesList): its reach condition is
   * on the joined row (alias `r`), and with no other filter its total is the count of their rows there.
   */
  driven: boolean;
  /** Whether the entity is soft-deleted (has deleted_at). */
  deletable: boolean;
  /** ORDER BY on `e`: `sort`'s, else the entity's declared default (DefaultOrder), else null (newest first). */
  order: string | null;
}

/**
 * The conditions of a list of `scope`'s rows: the company, the live rows unless `include_deleted`,
 * `updated_since` (a filter), then `where`'s filters; and its order (`resolved`, else `args.sort`'s).
 */
export function listConditions(em: EntityManager, entity: EntityName<any>, scope: TenantScope, args: ListArgs, where?: (w: ListWhere) => void, resolved?: ParsedSort | null): ListConditions {
  const column = (property: string) => `e.${leanColumn(em, entity, property)}`;
  const meta = em.getMetadata().find(entity as any)!;
  const sort = resolved ?? parseSort(meta.class, args.sort, column);
  const order = sort ? orderSql(sort, column(meta.primaryKeys[0])) : defaultOrderOf(meta.class, column);
  const conditions = [`${column('company')} = ?`];
  const params: unknown[] = [scope.companyId];
  // Users have no deleted_at: every list of theirs is "live".
  const deletable = !!meta.properties['deletedAt' as never];
  if (!args.includeDeleted && deletable) conditions.push(`${column('deletedAt')} is null`);
  // A technician's list: the records in their reach only (src/data/reach.ts); the jobs in the
  // default order, read from their kept rows (the condition on the joined row of job_reach).
  const technician = reachOf(scope);
  const driven = !!technician && reachDrivesList(meta.tableName, order);
  const reach = driven ? { sql: reachRowsSql(!args.includeDeleted), params: [technician!.companyId, technician!.userId] } : reachWhere(scope, meta.tableName, 'e');
  if (reach) {
    conditions.push(reach.sql);
    params.push(...reach.params);
  }
  // A condition whose best plan depends on its values (a search pattern, a date) is planned for
  // them on every request; equality to a key plans the same whatever the key (src/data/prepared.ts).
  let prepare = true;
  const add = (condition: string, p: unknown[]) => {
    conditions.push(`(${condition})`);
    params.push(...p);
  };
  const w: ListWhere = {
    and(condition, p = []) {
      if (p.length) prepare = false;
      add(condition, p);
    },
    col: column,
    equals: (property, value) => add(`${w.col(property)} = ?`, [value]),
    oneOf: (property, values) => add(`${w.col(property)} in (?)`, [values]),
  };
  // A reach condition on another table is a filter (its total is counted), not the kept rows'.
  const unfiltered = reach && !driven ? -1 : conditions.length;
  // A filter like any other: the kept count no longer applies.
  if (args.updatedSince) w.and(`${column('updatedAt')} >= ?`, [args.updatedSince]);
  where?.(w);
  return { sql: conditions.join(' and '), params, prepare, filtered: conditions.length !== unfiltered, reached: !!reach, driven, deletable, order };
}

/** A filtered list whose statement is committed under src/data/queries/ (npm run sql): its name, arguments and filters. */
export interface CommittedFilter {
  name: string;
  args: ListArgs;
  where: (w: ListWhere, scope: TenantScope) => void;
}

const committed = new Map<Function, CommittedFilter[]>();

/**
 * Declares a filtered list of an entity that a request runs often (the visits' calendar): its
 * statement is committed with the entity's other statements (src/data/queries.ts), so that a
 * change of it shows in review.
 */
export function CommittedListFilter(filter: CommittedFilter): ClassDecorator {
  return (target) => {
    committed.set(target, [...(committed.get(target) ?? []), filter]);
  };
}

/** The committed filtered lists of an entity (CommittedListFilter). */
export function committedFiltersOf(entity: Function): readonly CommittedFilter[] {
  return committed.get(entity) ?? [];
}
