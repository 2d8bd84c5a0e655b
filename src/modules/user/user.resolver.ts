import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../data/context';
import { Needs } from '../../schema/access';
import { ListArgs, Page, PageType } from '../../schema/pagination';
import { UUIDScalar } from '../../schema/scalars';
import { User } from './user.entity';
import { UserCreateInput, UserUpdateInput } from './user.inputs';
import { userService } from './user.service';

const UserPage = PageType(User);

@Resolver(() => User)
export class UserResolver {
  @Needs('users:read')
  @Query(() => UserPage)
  users(@Ctx() ctx: RequestContext, @Args(() => ListArgs) args: ListArgs): Promise<Page<User>> {
    return userService.list(ctx, args);
  }

  @Needs('users:read')
  @Query(() => User)
  user(@Ctx() ctx: RequestContext, @Arg('id', () => UUIDScalar) id: string): Promise<User> {
    return userService.get(ctx, id);
  }

  @Needs('users:write')
  @Mutation(() => User)
  createUser(@Ctx() ctx: RequestContext, @Arg('input', () => UserCreateInput) input: UserCreateInput): Promise<User> {
    return userService.create(ctx, input);
  }

  @Needs('users:write')
  @Mutation(() => User)
  updateUser(@Ctx() ctx: RequestContext, @Arg('id', () => UUIDScalar) id: string, @Arg('input', () => UserUpdateInput) input: UserUpdateInput): Promise<User> {
    return userService.update(ctx, id, input);
  }

  @Needs('users:write')
  @Mutation(() => User, { description: "Deactivates: the user's keys stop at once; what they made keeps naming them" })
  deactivateUser(@Ctx() ctx: RequestContext, @Arg('id', () => UUIDScalar) id: string): Promise<User> {
    return userService.deactivate(ctx, id);
  }
}
