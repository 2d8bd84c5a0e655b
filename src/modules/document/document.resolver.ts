import { Arg, Ctx, FieldResolver, Mutation, Resolver, Root } from 'type-graphql';
import { DeleteResult } from '../../core/pagination';
import { UUIDScalar } from '../../graphql/scalars';
import { ShareLink, ShareLinkInput } from './share.inputs';
import { shareService } from './share.service';
import type { RequestContext } from '../../core/context';
import { Estimate } from '../estimate/estimate.entity';
import { Invoice } from '../invoice/invoice.entity';
import { documentService } from './document.service';

@Resolver(() => Invoice)
export class InvoiceDocumentResolver {
  @FieldResolver(() => String, { description: 'The PDF, through a signed link valid one hour (no API key needed)' })
  pdfUrl(@Root() invoice: Invoice, @Ctx() ctx: RequestContext): string {
    return documentService.pdfUrl(ctx, 'invoice', invoice.uuid);
  }
}

@Resolver(() => Estimate)
export class EstimateDocumentResolver {
  @FieldResolver(() => String, { description: 'The PDF, through a signed link valid one hour (no API key needed)' })
  pdfUrl(@Root() estimate: Estimate, @Ctx() ctx: RequestContext): string {
    return documentService.pdfUrl(ctx, 'estimate', estimate.uuid);
  }
}

@Resolver()
export class ShareLinkResolver {
  @Mutation(() => ShareLink, { description: 'A link that opens the estimate for the customer (accept or decline), no key needed' })
  createEstimateShareLink(@Ctx() ctx: RequestContext, @Arg('uuid', () => UUIDScalar) uuid: string, @Arg('input', () => ShareLinkInput, { nullable: true }) input?: ShareLinkInput | null): Promise<ShareLink> {
    return shareService.create(ctx, 'estimate', uuid, input);
  }

  @Mutation(() => DeleteResult, { description: "Revokes every open link of the estimate" })
  revokeEstimateShareLink(@Ctx() ctx: RequestContext, @Arg('uuid', () => UUIDScalar) uuid: string): Promise<{ message: string }> {
    return shareService.revoke(ctx, 'estimate', uuid);
  }

  @Mutation(() => ShareLink, { description: 'A link that opens the invoice for the customer, no key needed' })
  createInvoiceShareLink(@Ctx() ctx: RequestContext, @Arg('uuid', () => UUIDScalar) uuid: string, @Arg('input', () => ShareLinkInput, { nullable: true }) input?: ShareLinkInput | null): Promise<ShareLink> {
    return shareService.create(ctx, 'invoice', uuid, input);
  }

  @Mutation(() => DeleteResult, { description: 'Revokes every open link of the invoice' })
  revokeInvoiceShareLink(@Ctx() ctx: RequestContext, @Arg('uuid', () => UUIDScalar) uuid: string): Promise<{ message: string }> {
    return shareService.revoke(ctx, 'invoice', uuid);
  }
}
