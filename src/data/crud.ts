import { LockMode, ReferenceKind } from '@mikro-orm/core';
import { EntityName, raw } from '@mikro-orm/postgresql';
import { inTransaction, RequestContext } from './context';
import { AppError } from '../errors/app-error';
import { fieldsOf } from '../schema/fields';
import { ListArgs, Page, pageOf, pageWindow } from '../schema/pagination';
import type { ParsedSort } from '../schema/sorting';
import { isUuid } from '../domain/values';
import { leanList, Related } from './list';
import { listConditions, ListWhere } from './list-where';
import { keptCountOf } from './kept-counts';
import { leanByKeys } from './keyed';
import { inReach, reachOf } from './reach';
import type { TenantScope } from './tenant';

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
 * (test/data/read-active.spec.ts); load with findActive to change it.
 */
export async function readActive<T extends Scoped>(ctx: RequestContext, entity: new (...args: any[]) => T, uuid: string, label: string): Promise<T> {
  if (!isUuid(uuid)) throw AppError.notFound(label);
  const [found] = await leanByKeys(ctx.em, ctx, entity, 'uuid', [uuid.toLowerCase()], true);
  if (!found) throw AppError.notFound(label);
  return found;
}

export type { ListWhere } from './list-where';

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
 * Newest first (created_at desc, uuid desc) unless the entity declares another default order
 * (DefaultOrder: the visits by start), or in the order `sort` names (src/schema/sorting.ts), ties
 * by the key in the same direction; stable across pages; soft-deleted only on request;
 * `updatedSince` keeps the rows with updated_at at or after it (conditions: src/data/list-where.ts).
 * `sort`: an order the caller resolved itself (a custom field's, docs/custom-fields.md) instead of `args.sort`.
 * One statement (leanList) brings the page, its count and the related records `include` names
 * (ListInclude), which then wait in the loaders. It is written from the
 * entity's metadata and the filters' conditions, without a query builder (building one cost more
 * CPU than the rest of a list request together). The items are lean read-only instances (src/data/record.ts):
 * for reading and serializing, not for changes (load the record with findActive to change it).
 */
export async function listPage<T extends object>(ctx: RequestContext, entity: EntityName<T>, args: ListArgs, where?: (w: ListWhere) => void, include: ListInclude = NO_INCLUDE, sort?: ParsedSort | null): Promise<Page<T>> {
  const { page, limit, offset } = pageWindow(args);
  const c = listConditions(ctx.em, entity, ctx, args, where, sort);
  if (ctx.exportList) {
    // An export of the list (docs/import-export.md): its conditions, not a page.
    ctx.exportList(ctx.em.getMetadata().find(entity as any)!.class, c);
    return pageOf([], 0, page, limit);
  }
  const kept = keptCountOf(c.deletable, !!args.includeDeleted, c.filtered);
  // A filtered list of a table whose conditions read only the listed row reuses a total counted
  // under the same change count (src/data/remembered-totals.ts).
  const list = await leanList(ctx.em, entity, ctx.companyId, c.sql, c.params, limit, offset, { related: [...include.related], props: include.props, prepare: c.prepare, kept, order: c.order, remember: !kept && !c.reached, reach: reachOf(ctx) });
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

// Merged into the record by the custom-field module's applyCustomData (docs/custom-fields.md), not copied.
const MERGED = new Set(['customFields', 'externalIds', 'tags']);

/**
 * Copies every field the input carries (undefined = absent) onto the entity; reference fields are
 * resolved to the company's records. Returns the names of the properties that changed.
 */
export async function applyInput(ctx: RequestContext, target: any, input: object, refs: RefSpec[] = [], skip: string[] = []): Promise<string[]> {
  const changed: string[] = [];
  const source = input as Record<string, unknown>;
  for (const meta of fieldsOf(input.constructor)) {
    if (meta.io !== 'in' || skip.includes(meta.prop) || MERGED.has(meta.prop)) continue;
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
    const table = em.getMetadata().find(entity as any)!.tableName;
    const record = (await em.findOne(entity, { uuid: uuid.toLowerCase(), company: ctx.companyId, ...inReach(ctx, table) } as any, lock)) as T | null;
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
    const parent = await tx.em.findOne(target, { uuid: ref.uuid, company: tx.companyId, ...inReach(tx, tx.em.getMetadata().find(target)!.tableName) }, { filters: false, refresh: true });
    if ((parent as Scoped | null)?.deletedAt) throw AppError.field(p.field, `is a deleted ${p.label}: restore the ${p.label} first`);
  }
}

// The counter's row stays locked until the transaction ends: numbers are given in commit order, without gaps.
const NEXT_SEQUENCE_SQL = `insert into company_sequences (company_uuid, name, value) values (?, ?, 1)
     on conflict (company_uuid, name) do update set value = company_sequences.value + 1
     returning value`;

/** Next value of a per-company counter (job_number, payment_number): one atomic statement. */
export async function nextSequence(ctx: RequestContext, name: string): Promise<number> {
  const rows = await ctx.em.getConnection().execute(NEXT_SEQUENCE_SQL, [ctx.companyId, name], 'all', ctx.em.getTransactionContext());
  return Number(rows[0].value);
}

/**
 * nextSequence as the CTE `"sequence"` (its column `value`), for the statement that inserts the
 * numbered record itself: the counter's row is then locked from that statement on, not before.
 */
export function nextSequenceCte(scope: TenantScope, name: string): { sql: string; params: unknown[] } {
  return { sql: `"sequence" as (${NEXT_SEQUENCE_SQL})`, params: [scope.companyId, name] };
}
