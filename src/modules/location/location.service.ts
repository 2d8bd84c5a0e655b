import type { RequestContext } from '../../core/context';
import { applyInput, findActive, listPage, softDelete } from '../../core/crud';
import { ListArgs } from '../../core/pagination';
import { AppError } from '../../errors/app-error';
import { Location } from './location.entity';
import { LocationCreateInput, LocationUpdateInput } from './location.inputs';

// A company has at most one primary location: making one primary clears the flag on the others.
async function clearOtherPrimaries(ctx: RequestContext, keep: Location): Promise<void> {
  await ctx.em.nativeUpdate(
    Location,
    { company: ctx.company, isPrimary: true, uuid: { $ne: keep.uuid } },
    { isPrimary: false, updatedAt: new Date() },
  );
}

export const locationService = {
  list(ctx: RequestContext, args: ListArgs) {
    return listPage(ctx, Location, args);
  },

  get(ctx: RequestContext, uuid: string) {
    return findActive(ctx, Location, uuid, 'Location');
  },

  async create(ctx: RequestContext, input: LocationCreateInput) {
    return ctx.em.transactional(async () => {
      const location = new Location();
      location.company = ctx.company;
      await applyInput(ctx, location, input);
      if (location.isPrimary) await clearOtherPrimaries(ctx, location);
      ctx.em.persist(location);
      await ctx.em.flush();
      return location;
    });
  },

  async update(ctx: RequestContext, uuid: string, input: LocationUpdateInput) {
    return ctx.em.transactional(async () => {
      const location = await this.get(ctx, uuid);
      await applyInput(ctx, location, input);
      if (location.isPrimary) await clearOtherPrimaries(ctx, location);
      await ctx.em.flush();
      return location;
    });
  },

  async remove(ctx: RequestContext, uuid: string) {
    const location = await this.get(ctx, uuid);
    if (location.isPrimary) throw AppError.field('isPrimary', 'is true: a primary location cannot be deleted');
    return softDelete(ctx, location, 'Location');
  },
};
