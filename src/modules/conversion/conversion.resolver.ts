import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import { Needs } from '../../schema/access';
import type { RequestContext } from '../../data/context';
import { UUIDScalar } from '../../schema/scalars';
import { Invoice } from '../invoice/invoice.entity';
import { ConvertEstimateInput, EstimateConversion, InvoiceJobInput } from './conversion.inputs';
import { conversionService } from './conversion.service';

@Resolver()
export class ConversionResolver {
  @Needs('estimates:write', 'jobs:write')
  @Mutation(() => EstimateConversion, { description: "A job from an estimate: the estimate's customer, location and total; a Pending estimate becomes Accepted" })
  convertEstimateToJob(
    @Ctx() ctx: RequestContext,
    @Arg('uuid', () => UUIDScalar) uuid: string,
    @Arg('input', () => ConvertEstimateInput, { nullable: true }) input?: ConvertEstimateInput | null,
  ): Promise<EstimateConversion> {
    return conversionService.convertEstimateToJob(ctx, uuid, input);
  }

  @Needs('invoices:write', 'jobs:read')
  @Mutation(() => Invoice, { description: "An invoice for a job: its Accepted estimate's lines, else one line of the job's amount" })
  invoiceJob(
    @Ctx() ctx: RequestContext,
    @Arg('jobUuid', () => UUIDScalar) jobUuid: string,
    @Arg('input', () => InvoiceJobInput, { nullable: true }) input?: InvoiceJobInput | null,
  ): Promise<Invoice> {
    return conversionService.invoiceJob(ctx, jobUuid, input);
  }
}
