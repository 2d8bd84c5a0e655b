import { EntityName, raw } from '@mikro-orm/postgresql';
import type { RequestContext } from './context';
import { AppError } from '../errors/app-error';
import { fieldsOf } from './fields';
import { ListArgs, Page, pageOf, pageWindow } from './pagination';
import { isUuid } from './values';
import { leanColumn, leanCount, leanList, leanPage } from './lean';

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
 * Newest first (created_at desc, uuid desc), stable across pages; soft-deleted only on request.
 * One statement (leanList) brings the page, its count and the related records the request said it
 * will ask for (`ctx.loaders.expect`), which then wait in the loaders. It is written from the
 * entity's metadata and the filters' conditions, without a query builder (building one cost more
 * CPU than the rest of a list request together). The items are lean read-only instances (src/core/lean.ts):
 * for reading and serializing, not for changes (load the record with findActive to change it).
 */
export async function listPage<T extends object>(ctx: RequestContext, entity: EntityName<T>, args: ListArgs, where?: (w: ListWhere) => void): Promise<Page<T>> {
  const { page, limit, offset } = pageWindow(args);
  const conditions = [`e.${leanColumn(ctx.em, entity, 'company')} = ?`];
  const params: unknown[] = [ctx.companyId];
  if (!args.includeDeleted) conditions.push(`e.${leanColumn(ctx.em, entity, 'deletedAt')} is null`);
  // A condition whose best plan depends on its values (a search pattern, a date) is planned for
  // them on every request; equality to a key plans the same whatever the key (src/core/prepared.ts).
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
    col: (property) => `e.${leanColumn(ctx.em, entity, property)}`,
    equals: (property, value) => add(`${w.col(property)} = ?`, [value]),
    oneOf: (property, values) => add(`${w.col(property)} in (?)`, [values]),
  };
  const unfiltered = conditions.length;
  where?.(w);
  const sql = conditions.join(' and ');
  const live = !args.includeDeleted && conditions.length === unfiltered;
  const expected = ctx.loaders.expectedOf(entity as never);
  const list = await leanList(ctx.em, entity, ctx.companyId, sql, params, limit, offset, { related: expected.related, props: expected.props, prepare, live });
  if (list) {
    for (const r of list.related) ctx.loaders.prime(entity as never, list.items, r);
    return pageOf(list.items, list.total, page, limit);
  }
  const [items, total] = await Promise.all([leanPage(ctx.em, entity, sql, params, limit, offset), leanCount(ctx.em, entity, sql, params)]);
  return pageOf(items, total, page, limit);
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
  const where: Record<string, unknown> = { [pk]: id, company: ctx.company };
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

/** Next value of a per-company counter (job_number, payment_number): one atomic statement. */
export async function nextSequence(ctx: RequestContext, name: string): Promise<number> {
  const rows = await ctx.em.getConnection().execute(
    `insert into company_sequences (company_uuid, name, value) values (?, ?, 1)
     on conflict (company_uuid, name) do update set value = company_sequences.value + 1
     returning value`,
    [ctx.company.uuid, name],
    'all',
    ctx.em.getTransactionContext(),
  );
  return Number(rows[0].value);
}
