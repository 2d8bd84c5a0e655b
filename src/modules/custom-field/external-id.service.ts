import type { RequestContext } from '../../data/context';
import { AppError } from '../../errors/app-error';
import { reachWhere } from '../../data/reach';
import { validateInput } from '../../schema/validation';
import { SOURCE } from './custom-data';

// Records by an integrator's own id (docs/custom-fields.md, "External ids"): each pair
// (company, resource, source, id) names at most one record, held by migration 0033's
// external_ids table; its claim trigger makes concurrent writers of one id wait for the first and
// refuses the others, so an upsert is "create; if another writer took the id, update theirs".
// The import (CSV `match_on: external_id`) uses findByExternalId and upsertByExternalId.

/** What the upsert needs of a resource: its services and its create input class. */
export interface ExternalIdResource<T, C, U> {
  /** The resource as external_ids names it: customer, location, job, visit, estimate, invoice, payment, template. */
  resource: string;
  table: string;
  label: string;
  create: new () => C;
  /** The body of a PUT by external id (the record's own update input). */
  update: new () => U;
  get(ctx: RequestContext, uuid: string): Promise<T>;
  /** Absent: records made under a parent (a job's visits) or needing a field the update lacks (a payment's invoice): PUT of an unknown id is 404. */
  createRecord?(ctx: RequestContext, input: C): Promise<T>;
  updateRecord(ctx: RequestContext, uuid: string, input: U): Promise<T>;
}

export interface Upserted<T> {
  record: T;
  created: boolean;
}

function checkPair(source: string, id: string): void {
  if (!SOURCE.test(source)) throw AppError.field('source', 'must match ^[a-z][a-z0-9_]{0,31}$');
  if (id.length < 1 || id.length > 255 || id.trim() !== id) throw AppError.field('id', 'must be 1–255 characters without surrounding spaces');
}

/** The uuid of the company's record of `resource` holding (source, id), deleted or not; null when none. */
export async function findByExternalId(ctx: RequestContext, resource: string, source: string, id: string): Promise<string | null> {
  const rows = await ctx.em.getConnection().execute<{ record_uuid: string }[]>(
    'select record_uuid from external_ids where company_uuid = ? and resource = ? and source = ? and external_id = ?',
    [ctx.companyId, resource, source, id],
    'all',
    ctx.em.getTransactionContext(),
  );
  return rows[0]?.record_uuid ?? null;
}

/** The live record holding (source, id), else 404 (none, deleted, another company's). */
export async function getByExternalId<T>(ctx: RequestContext, spec: ExternalIdResource<T, unknown, unknown>, source: string, id: string): Promise<T> {
  checkPair(source, id);
  const uuid = await findByExternalId(ctx, spec.resource, source, id);
  if (!uuid) throw AppError.notFound(spec.label);
  return spec.get(ctx, uuid);
}

/** Locks the live record holding (source, id), if any (If-Match on the upsert: src/rest/preconditions.ts). */
export async function lockByExternalId(ctx: RequestContext, spec: ExternalIdResource<unknown, unknown, unknown>, source: string, id: string): Promise<void> {
  const reach = reachWhere(ctx, spec.table, 'e');
  await ctx.em.getConnection().execute(
    `select 1 from "${spec.table}" as e where e.company_uuid = ? and e.uuid = (select x.record_uuid from external_ids as x where x.company_uuid = ? and x.resource = ? and x.source = ? and x.external_id = ?)${reach ? ` and ${reach.sql}` : ''} for update`,
    [ctx.companyId, ctx.companyId, spec.resource, source, id, ...(reach?.params ?? [])],
    'all',
    ctx.em.getTransactionContext(),
  );
}

/** Whether an error is the claim trigger refusing (source, id) because another record holds it. */
function takenBy(err: unknown, source: string): boolean {
  for (let e: any = err; e; e = e.cause) if (e.code === '23505' && e.constraint === 'external_id_taken' && e.column === source) return true;
  return false;
}

/**
 * Creates the record holding (source, id) from `input` (validated as a create: required fields
 * apply), or updates the one that holds it (a partial update). Concurrent upserts of one id make
 * one record: a create that loses the claim to another writer becomes an update of theirs. A
 * deleted record keeps its ids: 409, restore it first.
 */
export async function upsertByExternalId<T, C, U>(ctx: RequestContext, spec: ExternalIdResource<T, C, U>, source: string, id: string, input: U): Promise<Upserted<T>> {
  checkPair(source, id);
  const sent = (input as { externalIds?: Record<string, string | null> | null }).externalIds;
  if (sent && source in sent && sent[source] !== id) throw AppError.field(`externalIds.${source}`, 'must be the id of the path (or left out)');
  for (let attempt = 1; ; attempt++) {
    const uuid = await findByExternalId(ctx, spec.resource, source, id);
    if (uuid) return { record: await updateHolder(ctx, spec, uuid, input), created: false };
    if (!spec.createRecord) throw new AppError('NOT_FOUND', `${spec.label} not found: create it with its own route, sending external_ids`);
    const create = Object.assign(new spec.create() as object, input, { externalIds: { ...sent, [source]: id } }) as C;
    // The body was read as an update (all optional): a create needs what a create needs.
    await validateInput(create, 'graphql');
    try {
      return { record: await spec.createRecord(ctx, create), created: true };
    } catch (err) {
      // Another writer claimed the id between the lookup and the insert: update theirs.
      if (!takenBy(err, source) || attempt === 3) throw err;
    }
  }
}

async function updateHolder<T, C, U>(ctx: RequestContext, spec: ExternalIdResource<T, C, U>, uuid: string, input: U): Promise<T> {
  // A technician's request: a record outside their reach is not theirs to find (src/data/reach.ts).
  const reach = reachWhere(ctx, spec.table, 'e');
  const rows = await ctx.em.getConnection().execute<{ deleted_at: Date | null }[]>(
    `select e.deleted_at from "${spec.table}" as e where e.uuid = ? and e.company_uuid = ?${reach ? ` and ${reach.sql}` : ''}`,
    [uuid, ctx.companyId, ...(reach?.params ?? [])],
    'all',
    ctx.em.getTransactionContext(),
  );
  if (rows[0]?.deleted_at) throw new AppError('CONFLICT', `This external id belongs to deleted ${spec.label.toLowerCase()} ${uuid}: restore it first`);
  return spec.updateRecord(ctx, uuid, input);
}
