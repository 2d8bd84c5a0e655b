import { Arg, Args, Ctx, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../data/context';
import { ListArgs, Page, PageType } from '../../schema/pagination';
import { UUIDScalar } from '../../schema/scalars';
import { User } from './user.entity';
import { userService } from './user.service';

const UserPage = PageType(User);

@Resolver(() => User)
export class UserResolver {
  @Query(() => UserPage)
  users(@Ctx() ctx: RequestContext, @Args(() => ListArgs) args: ListArgs): Promise<Page<User>> {
    return userService.list(ctx, args);
  }

  @Query(() => User)
  user(@Ctx() ctx: RequestContext, @Arg('id', () => UUIDScalar) id: string): Promise<User> {
    return userService.get(ctx, id);
  }
}
