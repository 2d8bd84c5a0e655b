import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
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
