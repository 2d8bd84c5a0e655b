import type { Awaitable } from '../../data/loaders';
import { Needs } from '../../schema/access';
import { Arg, Ctx, FieldResolver, Int, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../data/context';
import { relationLimit } from '../../schema/pagination';
import { CrudResolver } from '../../graphql/crud-resolver';
import { DirectCall } from '../../graphql/direct-resolvers';
import { Customer } from '../customer/customer.entity';
import { Estimate } from '../estimate/estimate.entity';
import { Job } from '../job/job.entity';
import { Location } from '../location/location.entity';
import { Payment } from '../payment/payment.entity';
import { Invoice } from './invoice.entity';
import { InvoiceCreateInput, InvoiceListArgs, InvoicePreview, InvoicePreviewInput, InvoiceUpdateInput } from './invoice.inputs';
import { invoiceService } from './invoice.service';

@Resolver(() => Invoice)
export class InvoiceResolver extends CrudResolver({
  resource: 'invoices',
  entity: Invoice,
  single: 'invoice',
  plural: 'invoices',
  service: invoiceService,
  create: InvoiceCreateInput,
  update: InvoiceUpdateInput,
  listArgs: InvoiceListArgs,
}) {
  @Needs('invoices:read')
  @Query(() => InvoicePreview, { description: 'Totals without creating (dry run)' })
  previewInvoice(@Ctx() ctx: RequestContext, @Arg('input', () => InvoicePreviewInput) input: InvoicePreviewInput): Promise<InvoicePreview> {
    return invoiceService.preview(ctx, input);
  }

  @FieldResolver(() => Customer, { nullable: true })
  @DirectCall()
  customer(@Root() invoice: Invoice, @Ctx() ctx: RequestContext): Awaitable<Customer | null> {
    return ctx.loaders.one(Customer, invoice.customerUuid);
  }

  @FieldResolver(() => Job, { nullable: true })
  job(@Root() invoice: Invoice, @Ctx() ctx: RequestContext): Awaitable<Job | null> {
    return ctx.loaders.one(Job, invoice.jobUuid);
  }

  @FieldResolver(() => Estimate, { nullable: true })
  estimate(@Root() invoice: Invoice, @Ctx() ctx: RequestContext): Awaitable<Estimate | null> {
    return ctx.loaders.one(Estimate, invoice.estimateUuid);
  }

  @FieldResolver(() => Location, { nullable: true })
  location(@Root() invoice: Invoice, @Ctx() ctx: RequestContext): Awaitable<Location | null> {
    return ctx.loaders.one(Location, invoice.locationUuid);
  }

  @FieldResolver(() => [Payment], { description: 'Payments that are not deleted, newest first' })
  @DirectCall()
  payments(@Root() invoice: Invoice, @Ctx() ctx: RequestContext, @Arg('limit', () => Int, { defaultValue: 100 }) limit: number): Awaitable<Payment[]> {
    return ctx.loaders.children(Payment, 'invoice', invoice.uuid, relationLimit(limit));
  }
}

// Customer.invoices and Job.invoices live with the invoices, so those modules do not depend on this one.
@Resolver(() => Customer)
export class CustomerInvoicesResolver {
  @FieldResolver(() => [Invoice])
  invoices(@Root() customer: Customer, @Ctx() ctx: RequestContext, @Arg('limit', () => Int, { defaultValue: 100 }) limit: number): Awaitable<Invoice[]> {
    return ctx.loaders.children(Invoice, 'customer', customer.uuid, relationLimit(limit));
  }
}

@Resolver(() => Job)
export class JobInvoicesResolver {
  @FieldResolver(() => [Invoice])
  invoices(@Root() job: Job, @Ctx() ctx: RequestContext, @Arg('limit', () => Int, { defaultValue: 100 }) limit: number): Awaitable<Invoice[]> {
    return ctx.loaders.children(Invoice, 'job', job.uuid, relationLimit(limit));
  }
}
