import { Arg, Ctx, FieldResolver, Mutation, Resolver, Root } from 'type-graphql';
import { Needs } from '../../schema/access';
import { DeleteResult } from '../../schema/pagination';
import { UUIDScalar } from '../../schema/scalars';
import { ShareLink, ShareLinkInput } from './share.inputs';
import { shareService } from './share.service';
import { DocumentEmail, SendDocumentInput } from './mail.inputs';
import { mailService } from './mail.service';
import { Int } from 'type-graphql';
import { relationLimit } from '../../schema/pagination';
import type { RequestContext } from '../../data/context';
import { Estimate } from '../estimate/estimate.entity';
import { Invoice } from '../invoice/invoice.entity';
import { documentService } from './document.service';
import { Reads } from '../../schema/fields';

@Resolver(() => Invoice)
export class InvoiceDocumentResolver {
  @FieldResolver(() => String, { description: 'The PDF, through a signed link valid one hour (no API key needed)' })
  @Reads(() => Invoice, 'uuid')
  pdfUrl(@Root() invoice: Invoice, @Ctx() ctx: RequestContext): string {
    return documentService.pdfUrl(ctx, 'invoice', invoice.uuid);
  }

  @FieldResolver(() => [DocumentEmail], { description: 'Messages that sent this invoice, newest first' })
  @Reads(() => Invoice, 'uuid')
  async emails(@Root() invoice: Invoice, @Ctx() ctx: RequestContext, @Arg('limit', () => Int, { defaultValue: 100 }) limit: number): Promise<DocumentEmail[]> {
    return (await mailService.list(ctx, 'invoice', invoice.uuid, { page: 1, limit: relationLimit(limit) })).items;
  }

  @Needs('invoices:write')
  @Mutation(() => DocumentEmail, { description: 'Mails the invoice: PDF attached, a share link in the body; a Draft becomes Pending' })
  sendInvoice(@Ctx() ctx: RequestContext, @Arg('uuid', () => UUIDScalar) uuid: string, @Arg('input', () => SendDocumentInput, { nullable: true }) input?: SendDocumentInput | null): Promise<DocumentEmail> {
    return mailService.send(ctx, 'invoice', uuid, input);
  }
}

@Resolver(() => Estimate)
export class EstimateDocumentResolver {
  @FieldResolver(() => String, { description: 'The PDF, through a signed link valid one hour (no API key needed)' })
  @Reads(() => Estimate, 'uuid')
  pdfUrl(@Root() estimate: Estimate, @Ctx() ctx: RequestContext): string {
    return documentService.pdfUrl(ctx, 'estimate', estimate.uuid);
  }

  @FieldResolver(() => [DocumentEmail], { description: 'Messages that sent this estimate, newest first' })
  @Reads(() => Estimate, 'uuid')
  async emails(@Root() estimate: Estimate, @Ctx() ctx: RequestContext, @Arg('limit', () => Int, { defaultValue: 100 }) limit: number): Promise<DocumentEmail[]> {
    return (await mailService.list(ctx, 'estimate', estimate.uuid, { page: 1, limit: relationLimit(limit) })).items;
  }

  @Needs('estimates:write')
  @Mutation(() => DocumentEmail, { description: 'Mails the estimate: PDF attached, a share link in the body' })
  sendEstimate(@Ctx() ctx: RequestContext, @Arg('uuid', () => UUIDScalar) uuid: string, @Arg('input', () => SendDocumentInput, { nullable: true }) input?: SendDocumentInput | null): Promise<DocumentEmail> {
    return mailService.send(ctx, 'estimate', uuid, input);
  }
}

@Resolver()
export class ShareLinkResolver {
  @Needs('estimates:write')
  @Mutation(() => ShareLink, { description: 'A link that opens the estimate for the customer (accept or decline), no key needed' })
  createEstimateShareLink(@Ctx() ctx: RequestContext, @Arg('uuid', () => UUIDScalar) uuid: string, @Arg('input', () => ShareLinkInput, { nullable: true }) input?: ShareLinkInput | null): Promise<ShareLink> {
    return shareService.create(ctx, 'estimate', uuid, input);
  }

  @Needs('estimates:write')
  @Mutation(() => DeleteResult, { description: "Revokes every open link of the estimate" })
  revokeEstimateShareLink(@Ctx() ctx: RequestContext, @Arg('uuid', () => UUIDScalar) uuid: string): Promise<{ message: string }> {
    return shareService.revoke(ctx, 'estimate', uuid);
  }

  @Needs('invoices:write')
  @Mutation(() => ShareLink, { description: 'A link that opens the invoice for the customer, no key needed' })
  createInvoiceShareLink(@Ctx() ctx: RequestContext, @Arg('uuid', () => UUIDScalar) uuid: string, @Arg('input', () => ShareLinkInput, { nullable: true }) input?: ShareLinkInput | null): Promise<ShareLink> {
    return shareService.create(ctx, 'invoice', uuid, input);
  }

  @Needs('invoices:write')
  @Mutation(() => DeleteResult, { description: 'Revokes every open link of the invoice' })
  revokeInvoiceShareLink(@Ctx() ctx: RequestContext, @Arg('uuid', () => UUIDScalar) uuid: string): Promise<{ message: string }> {
    return shareService.revoke(ctx, 'invoice', uuid);
  }
}
