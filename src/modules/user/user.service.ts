import type { RequestContext } from '../../core/context';
import { ListArgs, pageOf, pageWindow } from '../../core/pagination';
import { isUuid } from '../../core/values';
import { AppError } from '../../errors/app-error';
import { User } from './user.entity';

// Users are read-only over the API; the admin CLI creates them.
export const userService = {
  async list(ctx: RequestContext, args: ListArgs) {
    const { page, limit, offset } = pageWindow(args);
    const [items, total] = await ctx.em.findAndCount(
      User,
      { company: ctx.company },
      { orderBy: { createdAt: 'desc', id: 'desc' }, limit, offset },
    );
    return pageOf(items, total, page, limit);
  },

  async get(ctx: RequestContext, id: string) {
    const user = isUuid(id) ? await ctx.em.findOne(User, { id: id.toLowerCase(), company: ctx.company }) : null;
    if (!user) throw AppError.notFound('User');
    return user;
  },
};
