import type { Awaitable } from '../../data/loaders';
import { Needs } from '../../schema/access';
import { Arg, Ctx, FieldResolver, Int, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../data/context';
import { relationLimit } from '../../schema/pagination';
import { CrudResolver } from '../../graphql/crud-resolver';
import { Customer } from '../customer/customer.entity';
import { Job } from '../job/job.entity';
import { Location } from '../location/location.entity';
import { Template } from '../template/template.entity';
import { User } from '../user/user.entity';
import { Estimate } from './estimate.entity';
import { EstimateCreateInput, EstimateListArgs, EstimatePreviewInput, EstimateUpdateInput } from './estimate.inputs';
import { EstimatePreview } from './estimate.preview';
import { estimateService } from './estimate.service';

@Resolver(() => Estimate)
export class EstimateResolver extends CrudResolver({
  resource: 'estimates',
  entity: Estimate,
  single: 'estimate',
  plural: 'estimates',
  service: estimateService,
  create: EstimateCreateInput,
  update: EstimateUpdateInput,
  listArgs: EstimateListArgs,
}) {
  @Needs('estimates:read')
  @Query(() => EstimatePreview, { description: 'Totals of an estimate without creating it' })
  previewEstimate(@Ctx() ctx: RequestContext, @Arg('input', () => EstimatePreviewInput) input: EstimatePreviewInput): Promise<EstimatePreview> {
    return estimateService.preview(ctx, input);
  }

  @FieldResolver(() => Customer)
  customer(@Root() e: Estimate, @Ctx() ctx: RequestContext): Awaitable<Customer | null> {
    return ctx.loaders.one(Customer, e.customerUuid);
  }

  @FieldResolver(() => Job, { nullable: true })
  job(@Root() e: Estimate, @Ctx() ctx: RequestContext): Awaitable<Job | null> {
    return ctx.loaders.one(Job, e.jobUuid);
  }

  @FieldResolver(() => Template)
  template(@Root() e: Estimate, @Ctx() ctx: RequestContext): Awaitable<Template | null> {
    return ctx.loaders.one(Template, e.templateUuid);
  }

  @FieldResolver(() => Location, { nullable: true })
  location(@Root() e: Estimate, @Ctx() ctx: RequestContext): Awaitable<Location | null> {
    return ctx.loaders.one(Location, e.locationUuid);
  }

  @FieldResolver(() => User, { nullable: true })
  createdBy(@Root() e: Estimate, @Ctx() ctx: RequestContext): Awaitable<User | null> {
    return ctx.loaders.one(User, e.createdByUserId);
  }
}

// Customer.estimates and Job.estimates live with the estimates, so those modules do not depend on this one.
@Resolver(() => Customer)
export class CustomerEstimatesResolver {
  @FieldResolver(() => [Estimate], { description: 'Estimates that are not deleted, newest first' })
  estimates(@Root() customer: Customer, @Ctx() ctx: RequestContext, @Arg('limit', () => Int, { defaultValue: 100 }) limit: number): Awaitable<Estimate[]> {
    return ctx.loaders.children(Estimate, 'customer', customer.uuid, relationLimit(limit));
  }
}

@Resolver(() => Job)
export class JobEstimatesResolver {
  @FieldResolver(() => [Estimate], { description: 'Estimates that are not deleted, newest first' })
  estimates(@Root() job: Job, @Ctx() ctx: RequestContext, @Arg('limit', () => Int, { defaultValue: 100 }) limit: number): Awaitable<Estimate[]> {
    return ctx.loaders.children(Estimate, 'job', job.uuid, relationLimit(limit));
  }
}
