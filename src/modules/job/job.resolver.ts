import type { Awaitable } from '../../data/loaders';
import { Arg, Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../data/context';
import { relationLimit } from '../../schema/pagination';
import { CrudResolver } from '../../graphql/crud-resolver';
import { Customer } from '../customer/customer.entity';
import { JobPhoto } from '../job-photo/job-photo.entity';
import { withPhotoUrls } from '../job-photo/job-photo.service';
import { Location } from '../location/location.entity';
import { User } from '../user/user.entity';
import { Job } from './job.entity';
import { JobCreateInput, JobListArgs, JobUpdateInput } from './job.inputs';
import { jobService } from './job.service';

@Resolver(() => Job)
export class JobResolver extends CrudResolver({
  resource: 'jobs',
  entity: Job,
  single: 'job',
  plural: 'jobs',
  service: jobService,
  create: JobCreateInput,
  update: JobUpdateInput,
  listArgs: JobListArgs,
}) {
  @FieldResolver(() => Customer, { nullable: true })
  customer(@Root() job: Job, @Ctx() ctx: RequestContext): Awaitable<Customer | null> {
    return ctx.loaders.one(Customer, job.customerUuid);
  }

  @FieldResolver(() => Location, { nullable: true })
  location(@Root() job: Job, @Ctx() ctx: RequestContext): Awaitable<Location | null> {
    return ctx.loaders.one(Location, job.locationUuid);
  }

  @FieldResolver(() => User, { nullable: true })
  assignedTo(@Root() job: Job, @Ctx() ctx: RequestContext): Awaitable<User | null> {
    return ctx.loaders.one(User, job.assignedToUserId);
  }

  /** The same user under the name of REST's embedded summary (`assigned_user`). */
  @FieldResolver(() => User, { nullable: true, description: 'The assigned user (same as assignedTo; REST embeds it as assigned_user)' })
  assignedUser(@Root() job: Job, @Ctx() ctx: RequestContext): Awaitable<User | null> {
    return ctx.loaders.one(User, job.assignedToUserId);
  }

  @FieldResolver(() => [JobPhoto])
  async photos(@Root() job: Job, @Ctx() ctx: RequestContext, @Arg('limit', () => Int, { defaultValue: 100 }) limit: number): Promise<JobPhoto[]> {
    return withPhotoUrls(ctx, await ctx.loaders.children(JobPhoto, 'job', job.uuid, relationLimit(limit)));
  }
}

// Customer.jobs lives with the jobs, so the customer module does not depend on this one.
@Resolver(() => Customer)
export class CustomerJobsResolver {
  @FieldResolver(() => [Job])
  jobs(@Root() customer: Customer, @Ctx() ctx: RequestContext, @Arg('limit', () => Int, { defaultValue: 100 }) limit: number): Awaitable<Job[]> {
    return ctx.loaders.children(Job, 'customer', customer.uuid, relationLimit(limit));
  }
}
