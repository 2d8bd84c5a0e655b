import type { Awaitable } from '../../data/loaders';
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../data/context';
import { CrudResolver } from '../../graphql/crud-resolver';
import { Location } from '../location/location.entity';
import { Customer } from './customer.entity';
import { CustomerCreateInput, CustomerListArgs, CustomerUpdateInput } from './customer.inputs';
import { customerService } from './customer.service';

@Resolver(() => Customer)
export class CustomerResolver extends CrudResolver({
  resource: 'customers',
  entity: Customer,
  single: 'customer',
  plural: 'customers',
  service: customerService,
  create: CustomerCreateInput,
  update: CustomerUpdateInput,
  listArgs: CustomerListArgs,
}) {
  @FieldResolver(() => Location, { nullable: true })
  primaryServiceLocation(@Root() customer: Customer, @Ctx() ctx: RequestContext): Awaitable<Location | null> {
    return ctx.loaders.one(Location, customer.primaryServiceLocationUuid);
  }
}
