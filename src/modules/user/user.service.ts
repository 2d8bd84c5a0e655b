import type { RequestContext } from '../../data/context';
import { inTransaction } from '../../data/context';
import { applyInput, ListInclude, listPage } from '../../data/crud';
import { ListArgs } from '../../schema/pagination';
import { isUuid } from '../../domain/values';
import { ROLE_RANK } from '../../domain/scopes';
import { AppError } from '../../errors/app-error';
import { User, UserRole } from './user.entity';
import { UserCreateInput, UserUpdateInput } from './user.inputs';

// Users are managed by owners and admins (users:write, docs/people-and-access.md). An admin may
// not touch an owner (nor make one); a company keeps at least one active owner; a deactivated
// user's keys stop at once (the key lookup joins users, and the change empties every key cache).
export const userService = {
  // The house list (sort, updated_since); users have no deleted_at, so include_deleted changes nothing.
  list(ctx: RequestContext, args: ListArgs, include?: ListInclude) {
    return listPage(ctx, User, args, undefined, include);
  },

  async get(ctx: RequestContext, id: string) {
    const user = isUuid(id) ? await ctx.em.findOne(User, { id: id.toLowerCase(), company: ctx.companyId }) : null;
    if (!user) throw AppError.notFound('User');
    return user;
  },

  async create(ctx: RequestContext, input: UserCreateInput) {
    mayGrant(ctx, input.role ?? UserRole.OFFICE);
    await emailFree(ctx, input.email);
    const user = new User();
    user.company = ctx.company;
    await applyInput(ctx, user, input);
    await ctx.em.persistAndFlush(user);
    return user;
  },

  update(ctx: RequestContext, id: string, input: UserUpdateInput) {
    return inTransaction(ctx, async (tx) => {
      const user = await this.get(tx, id);
      mayChange(tx, user);
      if (input.role !== undefined) mayGrant(tx, input.role);
      if (input.email !== undefined && input.email !== user.email) await emailFree(tx, input.email, user.id);
      const wasOwner = isActiveOwner(user);
      await applyInput(tx, user, input);
      if (wasOwner && !isActiveOwner(user)) await keepAnOwner(tx, user);
      await tx.em.flush();
      return user;
    });
  },

  /** Deactivates (DELETE, deactivateUser): the user's keys stop at once; what they made keeps naming them. */
  deactivate(ctx: RequestContext, id: string) {
    return this.update(ctx, id, Object.assign(new UserUpdateInput(), { active: false }));
  },
};

const isActiveOwner = (u: User) => u.active && u.role === UserRole.OWNER;

/** An admin (or anyone below an owner) may not change an owner. */
function mayChange(ctx: RequestContext, user: User): void {
  if (user.role === UserRole.OWNER && ctx.access.role !== 'owner') throw refused('role', 'only an owner may change an owner');
}

/** Nobody hands out a role above their own, and only an owner makes owners. */
function mayGrant(ctx: RequestContext, role: UserRole): void {
  if (ROLE_RANK[role] > ROLE_RANK[ctx.access.role] || (role === UserRole.OWNER && ctx.access.role !== 'owner')) throw refused('role', `only an owner may make a user ${role}`);
}

const refused = (field: string, message: string) => new AppError('PERMISSION_DENIED', `This API key may not do this: ${message}`, [{ field, message }]);

async function emailFree(ctx: RequestContext, email: string | null | undefined, except?: string): Promise<void> {
  if (!email) return;
  const taken = await ctx.em.findOne(User, { company: ctx.companyId, email: email.toLowerCase(), ...(except ? { id: { $ne: except } } : {}) });
  if (taken) throw AppError.field('email', 'is already the email of another user of this company');
}

/**
 * 400 when `user` is the company's last active owner. Every active owner's row is locked, in one
 * order: of two demotions at once the second waits, then no longer counts the first as an owner.
 */
async function keepAnOwner(ctx: RequestContext, user: User): Promise<void> {
  const owners = await ctx.em.getConnection().execute<{ id: string }[]>(
    `select id from users where company_uuid = ? and role = 'owner' and active order by id for update`,
    [ctx.companyId],
    'all',
    ctx.em.getTransactionContext(),
  );
  if (!owners.some((o) => o.id !== user.id)) throw AppError.field(user.active ? 'role' : 'active', 'would leave the company without an active owner');
}
