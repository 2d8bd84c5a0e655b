import type { Awaitable } from '../../data/loaders';
import { Arg, Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../data/context';
import { relationLimit } from '../../schema/pagination';
import { CrudResolver } from '../../graphql/crud-resolver';
import { Customer } from '../customer/customer.entity';
import { Invoice } from '../invoice/invoice.entity';
import { User } from '../user/user.entity';
import { Payment } from './payment.entity';
import { PaymentCreateInput, PaymentListArgs, PaymentUpdateInput } from './payment.inputs';
import { paymentService } from './payment.service';

@Resolver(() => Payment)
export class PaymentResolver extends CrudResolver({
  resource: 'payments',
  entity: Payment,
  single: 'payment',
  plural: 'payments',
  service: paymentService,
  create: PaymentCreateInput,
  update: PaymentUpdateInput,
  listArgs: PaymentListArgs,
}) {
  @FieldResolver(() => Invoice, { nullable: true })
  invoice(@Root() payment: Payment, @Ctx() ctx: RequestContext): Awaitable<Invoice | null> {
    return ctx.loaders.one(Invoice, payment.invoiceUuid);
  }

  @FieldResolver(() => Customer, { nullable: true })
  customer(@Root() payment: Payment, @Ctx() ctx: RequestContext): Awaitable<Customer | null> {
    return ctx.loaders.one(Customer, payment.customerUuid);
  }

  @FieldResolver(() => User, { nullable: true })
  createdBy(@Root() payment: Payment, @Ctx() ctx: RequestContext): Awaitable<User | null> {
    return ctx.loaders.one(User, payment.createdByUserId);
  }
}

// Customer.payments lives with the payments, so the customer module does not depend on this one.
@Resolver(() => Customer)
export class CustomerPaymentsResolver {
  @FieldResolver(() => [Payment], { description: 'Payments that are not deleted, newest first' })
  payments(@Root() customer: Customer, @Ctx() ctx: RequestContext, @Arg('limit', () => Int, { defaultValue: 100 }) limit: number): Awaitable<Payment[]> {
    return ctx.loaders.children(Payment, 'customer', customer.uuid, relationLimit(limit));
  }
}
