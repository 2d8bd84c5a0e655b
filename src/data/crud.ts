import { LockMode, ReferenceKind } from '@mikro-orm/core';
import { EntityName, raw } from '@mikro-orm/postgresql';
import { inTransaction, RequestContext } from './context';
import { AppError } from '../errors/app-error';
import { fieldsOf } from '../schema/fields';
import { ListArgs, Page, pageOf, pageWindow } from '../schema/pagination';
import { isUuid } from '../domain/values';
import { leanColumn, leanList, Related } from './list';
import { keptCountOf } from './kept-counts';
import { leanByKeys } from './keyed';
import { orderSql, parseSort } from '../schema/sorting';

// Shared service helpers: lookups scoped to the company, lists with the house pagination and
// order, references that must be the company's, and partial assignment of validated inputs.

type Scoped = { uuid: string; deletedAt: Date | null };

/** A record of the company that is not deleted, else NOT_FOUND (a non-UUID id is simply not found). */
export async function findActive<T extends Scoped>(ctx: RequestContext, entity: EntityName<T>, uuid: string, label: string): Promise<T> {
  if (!isUuid(uuid)) throw AppError.notFound(label);
  const found = await ctx.em.findOne(entity, { uuid: uuid.toLowerCase(), company: ctx.companyId, deletedAt: null } as any);
  if (!found) throw AppError.notFound(label);
  return found as T;
}

/**
 * findActive for a response only: the record as a lean read-only instance (src/data/record.ts),
 * read by one statement written once per entity (leanByKeys), without the EntityManager's identity
 * map, change tracking or query building. The same record, or the same NOT_FOUND
 * (test/data/read-active.test.ts); load with findActive to change it.
 */
export async function readActive<T extends Scoped>(ctx: RequestContext, entity: new (...args: any[]) => T, uuid: string, label: string): Promise<T> {
  if (!isUuid(uuid)) throw AppError.notFound(label);
  const [found] = await leanByKeys(ctx.em, ctx, entity, 'uuid', [uuid.toLowerCase()], true);
  if (!found) throw AppError.notFound(label);
  return found;
}

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

/**
 * What a list reads besides its page, given by its caller: the related records to load with the
 * page (which then wait in the request's loaders), and with `props` the only properties of the
 * records that will be read (null: all). GraphQL derives it from the selection
 * (src/graphql/prefetch.ts listPlan), a REST list route from its embedded summaries (referencedInclude).
 */
export interface ListInclude {
  related: readonly Related[];
  props: readonly string[] | null;
}

/** A list that reads its records whole and nothing else. */
export const NO_INCLUDE: ListInclude = { related: [], props: null };

/** The records of `targets` that `entity`'s records refer to (through its single many-to-one to each), such as the summaries REST embeds. */
export function referencedInclude(ctx: RequestContext, entity: Function, targets: readonly Function[]): ListInclude {
  const meta = ctx.em.getMetadata().find(entity.name);
  if (!meta) return NO_INCLUDE;
  const related = targets.flatMap((target): Related[] => {
    const to = meta.props.filter((p) => p.kind === ReferenceKind.MANY_TO_ONE && p.targetMeta?.class === target);
    return to.length === 1 ? [{ kind: 'one', prop: to[0].name }] : [];
  });
  return { related, props: null };
}

/**
 * Newest first (created_at desc, uuid desc), or in the order `sort` names (src/schema/sorting.ts), ties
 * by the key in the same direction; stable across pages; soft-deleted only on request;
 * `updatedSince` keeps the rows with updated_at at or after it.
 * One statement (leanList) brings the page, its count and the related records `include` names
 * (ListInclude), which then wait in the loaders. It is written from the
 * entity's metadata and the filters' conditions, without a query builder (building one cost more
 * CPU than the rest of a list request together). The items are lean read-only instances (src/data/record.ts):
 * for reading and serializing, not for changes (load the record with findActive to change it).
 */
export async function listPage<T extends object>(ctx: RequestContext, entity: EntityName<T>, args: ListArgs, where?: (w: ListWhere) => void, include: ListInclude = NO_INCLUDE): Promise<Page<T>> {
  const { page, limit, offset } = pageWindow(args);
  const column = (property: string) => `e.${leanColumn(ctx.em, entity, property)}`;
  const meta = ctx.em.getMetadata().find(entity as any)!;
  const sort = parseSort(meta.class, args.sort, column);
  const order = sort && orderSql(sort, column(meta.primaryKeys[0]));
  const conditions = [`${column('company')} = ?`];
  const params: unknown[] = [ctx.companyId];
  // Users have no deleted_at: every list of theirs is "live".
  const deletable = !!meta.properties['deletedAt' as never];
  if (!args.includeDeleted && deletable) conditions.push(`${column('deletedAt')} is null`);
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
  const unfiltered = conditions.length;
  // A filter like any other: the kept count no longer applies.
  if (args.updatedSince) w.and(`${column('updatedAt')} >= ?`, [args.updatedSince]);
  where?.(w);
  const sql = conditions.join(' and ');
  const kept = keptCountOf(deletable, !!args.includeDeleted, conditions.length !== unfiltered);
  // A filtered list of a table whose conditions read only the listed row reuses a total counted
  // under the same change count (src/data/remembered-totals.ts).
  const list = await leanList(ctx.em, entity, ctx.companyId, sql, params, limit, offset, { related: [...include.related], props: include.props, prepare, kept, order, remember: !kept });
  for (const r of list.related) ctx.loaders.prime(entity as never, list.items, r);
  return pageOf(list.items, list.total, page, limit);
}

/** ILIKE pattern for a case-insensitive substring match, with the wildcard characters escaped. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export { raw };

/**
 * A referenced record (customer, job, template, …) for a body field: it must exist, not be
 * deleted and belong to the company. All three failures give the same message, so no one can
 * probe another company's ids.
 */
export async function resolveRef<T extends object>(
  ctx: RequestContext,
  entity: EntityName<T>,
  id: string,
  field: string,
  label: string,
): Promise<T> {
  const meta = ctx.em.getMetadata().find(entity as any)!;
  const pk = meta.primaryKeys[0];
  const where: Record<string, unknown> = { [pk]: id, company: ctx.companyId };
  if (meta.properties.deletedAt) where.deletedAt = null;
  const found = isUuid(id) ? await ctx.em.findOne(entity, where as any) : null;
  if (!found) throw AppError.field(field, `does not match any ${label} of this company`);
  return found;
}

export interface RefSpec {
  /** Input property holding the id, e.g. `customerUuid`. */
  field: string;
  /** Entity relation it sets, e.g. `customer`. */
  relation: string;
  entity: EntityName<any>;
  label: string;
}

/**
 * Copies every field the input carries (undefined = absent) onto the entity; reference fields are
 * resolved to the company's records. Returns the names of the properties that changed.
 */
export async function applyInput(ctx: RequestContext, target: any, input: object, refs: RefSpec[] = [], skip: string[] = []): Promise<string[]> {
  const changed: string[] = [];
  const source = input as Record<string, unknown>;
  for (const meta of fieldsOf(input.constructor)) {
    if (meta.io !== 'in' || skip.includes(meta.prop)) continue;
    const value = source[meta.prop];
    if (value === undefined) continue;
    const ref = refs.find((r) => r.field === meta.prop);
    if (ref) {
      const prev = target[ref.relation];
      const prevId = prev ? (prev.uuid ?? prev.id) : null;
      // An unchanged reference stays valid even if its target was deleted since (GET → PUT works).
      if (value === prevId) continue;
      target[ref.relation] = value === null ? null : await resolveRef(ctx, ref.entity, value as string, ref.field, ref.label);
      changed.push(meta.prop);
      continue;
    }
    if (!sameValue(target[meta.prop], value)) changed.push(meta.prop);
    target[meta.prop] = value;
  }
  return changed;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (typeof a === 'object' || typeof b === 'object') return JSON.stringify(a) === JSON.stringify(b);
  return a === b;
}

export async function softDelete(ctx: RequestContext, record: Scoped, label: string): Promise<{ message: string }> {
  record.deletedAt = new Date();
  await ctx.em.flush();
  return { message: `${label} deleted` };
}

export interface RestoreOptions<T> {
  /** The record must also pass this (a photo must be the path's job's), else 404. */
  match?: (record: T) => boolean;
  /**
   * Relations to records the restored one belongs to: restoring under a deleted one is 400 naming
   * `field` (restore that one first), as creating under it would be.
   */
  parents?: Array<{ relation: string; field: string; label: string }>;
  /** More changes in the same transaction, after deleted_at is cleared (a location's is_primary). */
  apply?: (tx: RequestContext, record: T) => Promise<void> | void;
}

/**
 * Clears deleted_at of the company's soft-deleted record (docs/conventions.md, Restore), in a
 * transaction holding the record's row lock: unknown or another company's: 404; not deleted: 400.
 * Kept counts and updated_at follow as for any other change.
 */
export async function restoreRecord<T extends Scoped>(ctx: RequestContext, entity: EntityName<T>, uuid: string, label: string, options: RestoreOptions<T> = {}): Promise<T> {
  if (!isUuid(uuid)) throw AppError.notFound(label);
  return inTransaction(ctx, async (tx, em) => {
    // The row itself only (no tenant-filter joins, which would lock related rows too).
    const lock = { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true, filters: false } as const;
    const record = (await em.findOne(entity, { uuid: uuid.toLowerCase(), company: ctx.companyId } as any, lock)) as T | null;
    if (!record || (options.match && !options.match(record))) throw AppError.notFound(label);
    if (!record.deletedAt) throw AppError.field('uuid', `is not deleted: this ${label.toLowerCase()} is live`);
    await checkParentsLive(tx, entity, record, options.parents ?? []);
    record.deletedAt = null;
    await options.apply?.(tx, record);
    await em.flush();
    return record;
  });
}

/** Each parent of the record must not be deleted (a restore under a deleted parent is refused). */
async function checkParentsLive(tx: RequestContext, entity: EntityName<any>, record: object, parents: NonNullable<RestoreOptions<unknown>['parents']>): Promise<void> {
  const meta = tx.em.getMetadata().find(entity as any)!;
  for (const p of parents) {
    const ref = (record as Record<string, { uuid?: string } | null>)[p.relation];
    if (!ref?.uuid) continue;
    const target = (meta.properties[p.relation as never] as any).targetMeta.class;
    const parent = await tx.em.findOne(target, { uuid: ref.uuid, company: tx.companyId }, { filters: false, refresh: true });
    if ((parent as Scoped | null)?.deletedAt) throw AppError.field(p.field, `is a deleted ${p.label}: restore the ${p.label} first`);
  }
}

/** Next value of a per-company counter (job_number, payment_number): one atomic statement. */
export async function nextSequence(ctx: RequestContext, name: string): Promise<number> {
  const rows = await ctx.em.getConnection().execute(
    `insert into company_sequences (company_uuid, name, value) values (?, ?, 1)
     on conflict (company_uuid, name) do update set value = company_sequences.value + 1
     returning value`,
    [ctx.companyId, name],
    'all',
    ctx.em.getTransactionContext(),
  );
  return Number(rows[0].value);
}
