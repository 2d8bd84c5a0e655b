import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Ctx, ID, Info, Query, Resolver } from 'type-graphql';
import { requireScope } from '../auth/require-scope';
import { resourceOf } from './access';
import { Needs } from '../schema/access';
import type { RequestContext } from '../data/context';
import { fromGlobalId, Node } from '../schema/global-id';
import { isUuid } from '../domain/values';
import { AppError } from '../errors/app-error';
import { companyService } from '../modules/company/company.service';
import { customerService } from '../modules/customer/customer.service';
import { estimateService } from '../modules/estimate/estimate.service';
import { invoiceService } from '../modules/invoice/invoice.service';
import { jobService } from '../modules/job/job.service';
import { jobPhotoService } from '../modules/job-photo/job-photo.service';
import { locationService } from '../modules/location/location.service';
import { paymentService } from '../modules/payment/payment.service';
import { templateService } from '../modules/template/template.service';
import { visitService } from '../modules/visit/visit.service';
import { scheduleService } from '../modules/schedule/schedule.service';
import { customFieldService } from '../modules/custom-field/custom-field.service';
import { recurringInvoiceService } from '../modules/recurring/recurring.service';

type Fetch = (ctx: RequestContext, key: string) => Promise<unknown>;

// Each Node type, fetched by the service its own query uses (tenancy and liveness included).
const byUuid = (get: (ctx: RequestContext, uuid: string) => Promise<unknown>): Fetch => (ctx, key) => (isUuid(key) ? get(ctx, key) : Promise.resolve(null));
export const NODE_FETCHERS: Record<string, Fetch> = {
  Company: async (ctx, key) => (key === ctx.companyId ? companyService.me(ctx) : null),
  Customer: byUuid((ctx, u) => customerService.get(ctx, u)),
  Location: byUuid((ctx, u) => locationService.get(ctx, u)),
  Job: byUuid((ctx, u) => jobService.get(ctx, u)),
  JobPhoto: (ctx, key) => {
    const [job, photo] = key.split(':');
    return isUuid(job) && isUuid(photo) ? jobPhotoService.get(ctx, job, photo) : Promise.resolve(null);
  },
  Template: byUuid((ctx, u) => templateService.get(ctx, u)),
  Estimate: byUuid((ctx, u) => estimateService.get(ctx, u)),
  Invoice: byUuid((ctx, u) => invoiceService.get(ctx, u)),
  Payment: byUuid((ctx, u) => paymentService.get(ctx, u)),
  Visit: byUuid((ctx, u) => visitService.get(ctx, u)),
  JobSchedule: byUuid((ctx, u) => scheduleService.byUuid(ctx, u)),
  RecurringInvoice: byUuid((ctx, u) => recurringInvoiceService.get(ctx, u)),
  CustomFieldDefinition: byUuid((ctx, u) => customFieldService.get(ctx, u)),
};

@Resolver()
export class NodeResolver {
  /**
   * Refetches any record by its global id (docs/conventions.md "Ids"): null when no record of the
   * key's company has it (missing, deleted or another company's); an id that is not a global id
   * of a Node type is a VALIDATION_ERROR.
   */
  @Needs()
  @Query(() => Node, { nullable: true, description: 'Any record by its global id; null when none of this company has it' })
  async node(@Ctx() ctx: RequestContext, @Arg('id', () => ID) id: string, @Info() info: GraphQLResolveInfo): Promise<unknown> {
    const parsed = fromGlobalId(id);
    const fetch = parsed && Object.prototype.hasOwnProperty.call(NODE_FETCHERS, parsed.type) ? NODE_FETCHERS[parsed.type] : undefined;
    if (!parsed || !fetch) throw AppError.field('id', 'is not a global id of this API');
    // The record's type is known only now: its resource's read, as the type declares it (src/graphql/access.ts).
    const resource = resourceOf(info.schema.getType(parsed.type));
    if (resource) requireScope(ctx, `${resource}:read`);
    try {
      return await fetch(ctx, parsed.key.toLowerCase());
    } catch (err) {
      if (err instanceof AppError && err.code === 'NOT_FOUND') return null;
      throw err;
    }
  }
}
