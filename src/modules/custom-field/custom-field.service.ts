import type { RequestContext } from '../../data/context';
import { inTransaction } from '../../data/context';
import { applyInput, findActive, ListInclude, listPage, restoreRecord } from '../../data/crud';
import { AppError } from '../../errors/app-error';
import { forgetDefinitions } from './custom-data';
import { CustomFieldDefinition, CustomFieldResource, CustomFieldType } from './custom-field.entity';
import { CustomFieldCreateInput, CustomFieldListArgs, CustomFieldUpdateInput } from './custom-field.inputs';
import { normaliseValue } from './custom-field.values';

// Definitions of custom fields (docs/custom-fields.md): typed, at most 50 live per resource, a key
// and a type that never change. Deleting one moves its values out of sight (custom_fields_hidden)
// on every record of the resource; restoring it moves them back.

export const MAX_PER_RESOURCE = 50;

/** The table of each resource with custom fields. */
export const TABLE_OF: Record<CustomFieldResource, string> = {
  customer: 'customers',
  location: 'locations',
  job: 'jobs',
  visit: 'visits',
  estimate: 'estimates',
  invoice: 'invoices',
};

const SELECTS = [CustomFieldType.SELECT, CustomFieldType.MULTI_SELECT];

/** options only on selects (required there); the default of the field's type. */
async function checkShape(def: CustomFieldDefinition): Promise<void> {
  if (SELECTS.includes(def.type)) {
    if (!def.options?.length) throw AppError.field('options', `is required for a ${def.type} field`);
    def.options = def.options.map((o) => o.trim());
  } else if (def.options !== null) throw AppError.field('options', `is only for select and multi_select fields, not ${def.type}`);
  if (def.defaultValue !== null && def.defaultValue !== undefined) {
    const out = await normaliseValue(def, def.defaultValue);
    if ('error' in out) throw AppError.field('defaultValue', out.error);
    def.defaultValue = out.value;
  } else def.defaultValue = null;
}

async function checkRoom(ctx: RequestContext, resource: CustomFieldResource): Promise<void> {
  const live = await ctx.em.count(CustomFieldDefinition, { company: ctx.companyId, resource, deletedAt: null });
  if (live >= MAX_PER_RESOURCE) throw AppError.field('resource', `has ${MAX_PER_RESOURCE} custom fields already (the most a resource has)`);
}

/** Moves a key's values between shown and hidden on every record of the company's resource. */
async function moveValues(tx: RequestContext, def: CustomFieldDefinition, show: boolean): Promise<void> {
  const [from, to] = show ? ['custom_fields_hidden', 'custom_fields'] : ['custom_fields', 'custom_fields_hidden'];
  await tx.em.getConnection().execute(
    `update "${TABLE_OF[def.resource]}" set ${to} = ${to} || jsonb_build_object(?::text, ${from} -> ?::text), ${from} = ${from} - ?::text, updated_at = now()
     where company_uuid = ? and (${from} -> ?::text) is not null`,
    [def.key, def.key, def.key, tx.companyId, def.key],
    'run',
    tx.em.getTransactionContext(),
  );
}

export const customFieldService = {
  list(ctx: RequestContext, args: CustomFieldListArgs, include?: ListInclude) {
    return listPage(ctx, CustomFieldDefinition, args, (w) => {
      if (args.resource?.length) w.oneOf('resource', args.resource);
    }, include);
  },

  get(ctx: RequestContext, uuid: string) {
    return findActive(ctx, CustomFieldDefinition, uuid, 'Custom field');
  },

  async create(ctx: RequestContext, input: CustomFieldCreateInput) {
    return inTransaction(ctx, async (tx, em) => {
      const def = new CustomFieldDefinition();
      def.company = ctx.company;
      await applyInput(tx, def, input);
      await checkShape(def);
      await checkRoom(tx, def.resource);
      const taken = await em.findOne(CustomFieldDefinition, { company: ctx.companyId, resource: def.resource, key: def.key }, { filters: false });
      if (taken) throw AppError.field('key', `is already a custom field of ${def.resource}${taken.deletedAt ? ` (deleted: restore ${taken.uuid})` : ''}`);
      em.persist(def);
      await em.flush();
      forgetDefinitions(ctx);
      return def;
    });
  },

  async update(ctx: RequestContext, uuid: string, input: CustomFieldUpdateInput) {
    return inTransaction(ctx, async (tx, em) => {
      const def = await findActive(tx, CustomFieldDefinition, uuid, 'Custom field');
      for (const fixed of ['resource', 'key', 'type'] as const) {
        if (input[fixed] !== undefined && input[fixed] !== def[fixed]) throw AppError.field(fixed, 'cannot change: make a new field');
      }
      await applyInput(tx, def, input);
      await checkShape(def);
      await em.flush();
      forgetDefinitions(ctx);
      return def;
    });
  },

  async remove(ctx: RequestContext, uuid: string) {
    return inTransaction(ctx, async (tx, em) => {
      const def = await findActive(tx, CustomFieldDefinition, uuid, 'Custom field');
      def.deletedAt = new Date();
      await em.flush();
      await moveValues(tx, def, false);
      forgetDefinitions(ctx);
      return { message: 'Custom field deleted' };
    });
  },

  restore(ctx: RequestContext, uuid: string) {
    forgetDefinitions(ctx);
    return restoreRecord(ctx, CustomFieldDefinition, uuid, 'Custom field', {
      apply: async (tx, def) => {
        await checkRoom(tx, def.resource);
        await moveValues(tx, def, true);
      },
    });
  },
};
