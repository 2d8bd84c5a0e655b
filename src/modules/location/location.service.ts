import { inTransaction, RequestContext } from '../../data/context';
import { applyInput, findActive, ListInclude, listPage, restoreRecord, softDelete } from '../../data/crud';
import { AppError } from '../../errors/app-error';
import { Location } from './location.entity';
import { applyCustomData } from '../custom-field/custom-data';
import { CustomFieldResource } from '../custom-field/custom-field.entity';
import { customFieldList } from '../custom-field/custom-field.list';
import { LocationCreateInput, LocationListArgs, LocationUpdateInput } from './location.inputs';

// A company has at most one primary location: making one primary clears the flag on the others,
// and the primary one cannot be deleted. Requests that make a location primary or delete one
// queue on a per-company advisory lock taken in the transaction, so the last one wins cleanly
// (never a unique-index error) and a delete judges is_primary as committed (never a deleted primary).
async function lockPrimary(tx: RequestContext): Promise<void> {
  await tx.em.getConnection().execute(`select pg_advisory_xact_lock(hashtext('primary-location:' || ?))`, [tx.companyId], 'all', tx.em.getTransactionContext());
}

async function clearOtherPrimaries(tx: RequestContext, keep: Location): Promise<void> {
  await lockPrimary(tx);
  await tx.em.nativeUpdate(
    Location,
    { company: tx.companyId, isPrimary: true, uuid: { $ne: keep.uuid } },
    { isPrimary: false, updatedAt: new Date() },
  );
}

export const locationService = {
  async list(ctx: RequestContext, args: LocationListArgs, include?: ListInclude) {
    const cf = await customFieldList(ctx, CustomFieldResource.LOCATION, args);
    return listPage(ctx, Location, args, cf.where, include, cf.sort);
  },

  get(ctx: RequestContext, uuid: string) {
    return findActive(ctx, Location, uuid, 'Location');
  },

  async create(ctx: RequestContext, input: LocationCreateInput) {
    return inTransaction(ctx, async (tx, em) => {
      const location = new Location();
      location.company = ctx.company;
      await applyInput(tx, location, input);
      await applyCustomData(tx, CustomFieldResource.LOCATION, location, input, true);
      if (location.isPrimary) await clearOtherPrimaries(tx, location);
      em.persist(location);
      await em.flush();
      return location;
    });
  },

  async update(ctx: RequestContext, uuid: string, input: LocationUpdateInput) {
    return inTransaction(ctx, async (tx, em) => {
      // Locked before the read: a location deleted meanwhile is not found rather than made primary.
      if (input.isPrimary) await lockPrimary(tx);
      const location = await this.get(tx, uuid);
      await applyInput(tx, location, input);
      await applyCustomData(tx, CustomFieldResource.LOCATION, location, input, false);
      if (location.isPrimary) await clearOtherPrimaries(tx, location);
      await em.flush();
      return location;
    });
  },

  async remove(ctx: RequestContext, uuid: string) {
    return inTransaction(ctx, async (tx, em) => {
      await lockPrimary(tx);
      const location = await this.get(tx, uuid);
      if (location.isPrimary) throw AppError.field('isPrimary', 'is true: a primary location cannot be deleted');
      return softDelete(tx, location, 'Location');
    });
  },

  // A restored location is never primary (the company's primary stays as it is).
  restore(ctx: RequestContext, uuid: string) {
    return restoreRecord(ctx, Location, uuid, 'Location', { apply: (_, l) => void (l.isPrimary = false) });
  },
};
