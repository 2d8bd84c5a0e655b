import type { RequestContext } from '../../data/context';
import { listPage } from '../../data/crud';
import { ListArgs } from '../../schema/pagination';
import { isUuid } from '../../domain/values';
import { AppError } from '../../errors/app-error';
import { User } from './user.entity';

// Users are read-only over the API; the admin CLI creates them.
export const userService = {
  // The house list (sort, updated_since); users have no deleted_at, so include_deleted changes nothing.
  list(ctx: RequestContext, args: ListArgs) {
    return listPage(ctx, User, args);
  },

  async get(ctx: RequestContext, id: string) {
    const user = isUuid(id) ? await ctx.em.findOne(User, { id: id.toLowerCase(), company: ctx.company }) : null;
    if (!user) throw AppError.notFound('User');
    return user;
  },
};
