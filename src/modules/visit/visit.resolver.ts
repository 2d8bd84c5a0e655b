import type { GraphQLResolveInfo } from 'graphql';
import { Needs } from '../../schema/access';
import { Arg, Args, Ctx, FieldResolver, Info, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { listPlan } from '../../graphql/prefetch';
import type { RequestContext } from '../../data/context';
import { DeleteResult, Page, PageType, relationLimit } from '../../schema/pagination';
import type { Awaitable } from '../../data/loaders';
import { UUIDScalar } from '../../schema/scalars';
import { Job } from '../job/job.entity';
import { User } from '../user/user.entity';
import { Visit } from './visit.entity';
import { UserVisitsArgs, VisitAssignInput, VisitCompleteInput, VisitCreateInput, VisitListArgs, VisitUpdateInput } from './visit.inputs';
import { visitService } from './visit.service';

const VisitPage = PageType(Visit);
const byStart = (a: Visit, b: Visit) => (a.startsAt?.getTime() ?? Infinity) - (b.startsAt?.getTime() ?? Infinity);

// Relations load through the request's batch loaders: a calendar page of 100 visits with their
// jobs, customers and users costs a fixed number of statements.
@Resolver(() => Visit)
export class VisitResolver {
  @Needs('visits:read')
  @Query(() => Visit)
  visit(@Ctx() ctx: RequestContext, @Arg('uuid', () => UUIDScalar) uuid: string): Promise<Visit> {
    return visitService.get(ctx, uuid);
  }

  @Needs('visits:read')
  @Query(() => VisitPage, { description: 'The calendar: visits overlapping [from, to), by start, unscheduled last' })
  visits(@Ctx() ctx: RequestContext, @Args(() => VisitListArgs) args: VisitListArgs, @Info() info: GraphQLResolveInfo): Promise<Page<Visit>> {
    // What the selection reads of the visits and their jobs comes with the page (src/graphql/prefetch.ts).
    return visitService.list(ctx, args, listPlan(ctx.em, Visit, info));
  }

  @Needs('visits:write')
  @Mutation(() => Visit)
  createVisit(@Ctx() ctx: RequestContext, @Arg('jobUuid', () => UUIDScalar) jobUuid: string, @Arg('input', () => VisitCreateInput) input: VisitCreateInput): Promise<Visit> {
    return visitService.create(ctx, jobUuid, input);
  }

  @Needs('visits:write')
  @Mutation(() => Visit)
  updateVisit(@Ctx() ctx: RequestContext, @Arg('uuid', () => UUIDScalar) uuid: string, @Arg('input', () => VisitUpdateInput) input: VisitUpdateInput): Promise<Visit> {
    return visitService.update(ctx, uuid, input);
  }

  @Needs('visits:write')
  @Mutation(() => Visit, { description: 'Assign users: mode replace (default), add or remove' })
  assignVisit(@Ctx() ctx: RequestContext, @Arg('uuid', () => UUIDScalar) uuid: string, @Arg('input', () => VisitAssignInput) input: VisitAssignInput): Promise<Visit> {
    return visitService.assign(ctx, uuid, input);
  }

  @Needs('visits:write')
  @Mutation(() => Visit, { description: 'Mark completed (completedAt default now); a Cancelled visit cannot be' })
  completeVisit(
    @Ctx() ctx: RequestContext,
    @Arg('uuid', () => UUIDScalar) uuid: string,
    @Arg('input', () => VisitCompleteInput, { nullable: true }) input?: VisitCompleteInput,
  ): Promise<Visit> {
    return visitService.complete(ctx, uuid, input ?? {});
  }

  @Needs('visits:write')
  @Mutation(() => DeleteResult)
  deleteVisit(@Ctx() ctx: RequestContext, @Arg('uuid', () => UUIDScalar) uuid: string): Promise<{ message: string }> {
    return visitService.remove(ctx, uuid);
  }

  @Needs('visits:write')
  @Mutation(() => Visit, { description: 'Restore a deleted visit (its job must be live; its crew is booked again)' })
  restoreVisit(@Ctx() ctx: RequestContext, @Arg('uuid', () => UUIDScalar) uuid: string): Promise<Visit> {
    return visitService.restore(ctx, uuid);
  }

  @FieldResolver(() => Job, { nullable: true })
  job(@Root() v: Visit, @Ctx() ctx: RequestContext): Awaitable<Job | null> {
    return ctx.loaders.one(Job, v.jobUuid);
  }

  @FieldResolver(() => [User])
  async assignedUsers(@Root() v: Visit, @Ctx() ctx: RequestContext): Promise<User[]> {
    const users = await Promise.all(v.assignedUserIds.map((id) => ctx.loaders.one(User, id)));
    return users.filter((u): u is User => u !== null);
  }
}

@Resolver(() => Job)
export class JobVisitsResolver {
  @FieldResolver(() => [Visit], { description: 'The visits of the job, by start (unscheduled last)' })
  async visits(@Root() job: Job, @Ctx() ctx: RequestContext, @Arg('limit', () => Int, { defaultValue: 100 }) limit: number): Promise<Visit[]> {
    const visits = await ctx.loaders.children(Visit, 'job', job.uuid, 100);
    return [...visits].sort(byStart).slice(0, relationLimit(limit));
  }
}

@Resolver(() => User)
export class UserVisitsResolver {
  @FieldResolver(() => [Visit], { description: "The user's visits overlapping [from, to), by start (at most 100)" })
  visits(@Root() user: User, @Ctx() ctx: RequestContext, @Args(() => UserVisitsArgs) args: UserVisitsArgs): Promise<Visit[]> {
    const key = `User.visits ${args.from?.toISOString() ?? ''} ${args.to?.toISOString() ?? ''}`;
    return ctx.loaders.batch<string, Visit[]>(key, (ids) => visitService.forUsers(ctx, ids, args)).load(user.id);
  }
}
