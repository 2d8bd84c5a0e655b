import type { FieldOptions } from '../../schema/field-types';
import type { RequestContext } from '../../data/context';
import { leanColumnMapper, leanFind } from '../../data/record';
import { runStatement } from '../../data/prepared';
import { CustomFieldDefinition, CustomFieldResource } from './custom-field.entity';
import { mergeValues } from './custom-field.values';

// What a record of a resource with custom data carries beside its own fields (docs/custom-fields.md):
// custom_fields (the company's typed fields), external_ids (an integrator's keys) and, on customers
// and jobs, tags. The declarations below go on each entity and input class; the services call
// applyCustomData where they apply the rest of an input.

export const SOURCE = /^[a-z][a-z0-9_]{0,31}$/;
export const MAX_TAGS = 20;

export const customFieldsOut = (): FieldOptions => ({ description: "Object of the company's custom fields of this resource, by key (GET /custom_fields lists them with their types)" });
export const customFieldsIn = (): FieldOptions => ({
  nullable: true,
  description: "Object of the company's custom fields by key, each value of its field's type; merged into the record's (null clears a key)",
});
export const externalIdsOut = (): FieldOptions => ({ description: 'Ids of this record in other systems: {"<source>": "<id>"}' });
export const externalIdsIn = (): FieldOptions => ({
  nullable: true,
  description: 'Ids of this record in other systems, {"<source>": "<id>"}: source ^[a-z][a-z0-9_]{0,31}$, id 1–255 characters; merged (null clears a source)',
  check: (v) => checkExternalIds(v),
});
export const tagsOut = (): FieldOptions => ({ list: true, description: 'Up to 20 tags' });
export const tagsIn = (): FieldOptions => ({ list: true, nullable: true, description: 'Up to 20 tags of 1–40 characters, trimmed, kept once whatever their case; replaces the list', check: (v) => checkTags(v) });

function checkExternalIds(v: Record<string, unknown>): string | null {
  for (const [source, id] of Object.entries(v)) {
    if (!SOURCE.test(source)) return `has a source ${JSON.stringify(source)}: sources match ^[a-z][a-z0-9_]{0,31}$`;
    if (id === null) continue;
    if (typeof id !== 'string' || id.trim() === '' || id.trim().length > 255) return `.${source} must be an id of 1–255 characters`;
  }
  return null;
}

function checkTags(v: string[]): string | null {
  const tags = normaliseTags(v);
  if (v.some((t) => t.trim() === '' || t.trim().length > 40)) return 'must be tags of 1–40 characters';
  if (tags.length > MAX_TAGS) return `must be at most ${MAX_TAGS} tags`;
  return null;
}

/** Trimmed, each kept once whatever its case (its first spelling). */
export function normaliseTags(v: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of v) {
    const t = raw.trim();
    if (seen.has(t.toLowerCase())) continue;
    seen.add(t.toLowerCase());
    out.push(t);
  }
  return out;
}


export interface CustomDataRecord {
  customFields?: Record<string, unknown>;
  externalIds: Record<string, string>;
  tags?: string[];
}

export interface CustomDataInput {
  customFields?: Record<string, unknown> | null;
  externalIds?: Record<string, string | null> | null;
  tags?: string[] | null;
}

const perRequest = new WeakMap<object, Map<string, Promise<CustomFieldDefinition[]>>>();

/** The live definitions of a resource, in order (position, then key): read once per request. */
export function liveDefinitions(ctx: RequestContext, resource: CustomFieldResource): Promise<CustomFieldDefinition[]> {
  return definitionsOf(ctx, [resource])[0];
}

/**
 * The live definitions of each of `resources`, in order, as liveDefinitions gives them: those the
 * request has not read yet are read in one statement (a document prints the fields of four resources).
 */
export function liveDefinitionsOf(ctx: RequestContext, resources: readonly CustomFieldResource[]): Promise<CustomFieldDefinition[][]> {
  return Promise.all(definitionsOf(ctx, resources));
}

/** A company's live definitions of one resource, in their order (leanFind's statement, planned once). */
export const DEFINITIONS_SQL = `select * from custom_field_definitions where company_uuid = ? and resource = ? and deleted_at is null order by position asc, key asc`;

function definitionsOf(ctx: RequestContext, resources: readonly CustomFieldResource[]): Array<Promise<CustomFieldDefinition[]>> {
  const request = requestKey(ctx);
  let memo = perRequest.get(request);
  if (!memo) perRequest.set(request, (memo = new Map()));
  const missing = resources.filter((r) => !memo.has(r));
  if (missing.length) {
    // Lean read-only records (src/data/record.ts): nothing for the request's unit of work to track.
    // One resource (every create and update) by a prepared statement, the rows mapped as leanFind
    // maps them; several (a document) by leanFind (test/modules/custom-field/definitions-read.spec.ts
    // compares the two).
    const read =
      missing.length === 1
        ? runStatement<Record<string, unknown>[]>(ctx.em, DEFINITIONS_SQL, [ctx.companyId, missing[0]]).then((rows) => rows.map(leanColumnMapper(ctx.em, CustomFieldDefinition)))
        : leanFind(ctx.em, CustomFieldDefinition, { company: ctx.companyId, resource: { $in: missing }, deletedAt: null }, { orderBy: { position: 'asc', key: 'asc' } });
    for (const r of missing) memo.set(r, missing.length === 1 ? read : read.then((defs) => defs.filter((d) => d.resource === r)));
  }
  return resources.map((r) => memo.get(r)!);
}

/** Forgets the request's definitions (after a change of them). */
export function forgetDefinitions(ctx: RequestContext): void {
  perRequest.delete(requestKey(ctx));
}

/** What one request shares: its readOnce (an import batch), its loaders, or the context itself where there are none (a customer page's system context). */
const requestKey = (ctx: RequestContext): object => ctx.readOnce ?? (ctx.loaders as object | undefined) ?? ctx;

/**
 * Applies an input's custom_fields, external_ids and tags to a record (a create when `creating`:
 * defaults and required fields apply). `resource` null: a resource without custom fields (external
 * ids only).
 */
export async function applyCustomData(ctx: RequestContext, resource: CustomFieldResource | null, target: CustomDataRecord, input: CustomDataInput, creating: boolean): Promise<void> {
  if (resource && (creating || input.customFields !== undefined)) {
    const defs = await liveDefinitions(ctx, resource);
    if (defs.length || input.customFields) target.customFields = await mergeValues(defs, target.customFields ?? {}, input.customFields, creating);
  }
  if (input.externalIds !== undefined && input.externalIds !== null) {
    const next: Record<string, string> = { ...target.externalIds };
    for (const [source, id] of Object.entries(input.externalIds)) {
      if (id === null) delete next[source];
      else next[source] = id.trim();
    }
    target.externalIds = next;
  }
  if (input.tags !== undefined && 'tags' in target) target.tags = normaliseTags(input.tags ?? []);
}

