import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Needs } from '../../schema/access';
import type { RequestContext } from '../../data/context';
import type { Awaitable } from '../../data/loaders';
import { CrudResolver } from '../../graphql/crud-resolver';
import { ListArgs, relationLimit } from '../../schema/pagination';
import { UUIDScalar } from '../../schema/scalars';
import { Customer } from '../customer/customer.entity';
import { Invoice } from '../invoice/invoice.entity';
import { Job } from '../job/job.entity';
import { RecurringInvoice } from './recurring.entity';
import { RecurringInvoiceCreateInput, RecurringInvoicePreview, RecurringInvoicePreviewInput, RecurringInvoiceUpdateInput } from './recurring.inputs';
import { recurringInvoiceService } from './recurring.service';

@Resolver(() => RecurringInvoice)
export class RecurringInvoiceResolver extends CrudResolver({
  entity: RecurringInvoice,
  resource: 'recurring_invoices',
  single: 'recurringInvoice',
  plural: 'recurringInvoices',
  service: recurringInvoiceService,
  create: RecurringInvoiceCreateInput,
  update: RecurringInvoiceUpdateInput,
  listArgs: ListArgs,
}) {
  @FieldResolver(() => Customer, { nullable: true })
  customer(@Root() r: RecurringInvoice, @Ctx() ctx: RequestContext): Awaitable<Customer | null> {
    return ctx.loaders.one(Customer, r.customerUuid);
  }

  @FieldResolver(() => Job, { nullable: true })
  job(@Root() r: RecurringInvoice, @Ctx() ctx: RequestContext): Awaitable<Job | null> {
    return ctx.loaders.one(Job, r.jobUuid);
  }

  @FieldResolver(() => [Invoice], { description: 'The invoices the agreement created, newest first' })
  async invoices(@Root() r: RecurringInvoice, @Ctx() ctx: RequestContext, @Arg('limit', () => Int, { defaultValue: 100 }) limit: number): Promise<Invoice[]> {
    const page = await ctx.em.find(Invoice, { company: ctx.companyId, recurringInvoiceUuid: r.uuid, deletedAt: null }, { orderBy: { issueDate: 'desc' }, limit: relationLimit(limit) });
    return page;
  }

  @Needs('recurring_invoices:write')
  @Mutation(() => RecurringInvoice, { description: 'Pause: no invoices until resumed' })
  pauseRecurringInvoice(@Ctx() ctx: RequestContext, @Arg('uuid', () => UUIDScalar) uuid: string): Promise<RecurringInvoice> {
    return recurringInvoiceService.pause(ctx, uuid);
  }

  @Needs('recurring_invoices:write')
  @Mutation(() => RecurringInvoice, { description: 'Resume from today: the dates passed while paused are not invoiced' })
  resumeRecurringInvoice(@Ctx() ctx: RequestContext, @Arg('uuid', () => UUIDScalar) uuid: string): Promise<RecurringInvoice> {
    return recurringInvoiceService.resume(ctx, uuid);
  }

  @Needs('recurring_invoices:read')
  @Query(() => RecurringInvoicePreview, { description: 'The next invoices of an agreement body, without writing' })
  previewRecurringInvoice(@Ctx() ctx: RequestContext, @Arg('input', () => RecurringInvoicePreviewInput) input: RecurringInvoicePreviewInput): Promise<RecurringInvoicePreview> {
    return recurringInvoiceService.preview(ctx, input);
  }
}
