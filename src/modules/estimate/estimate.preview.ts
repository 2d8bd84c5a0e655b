import { ObjectType } from 'type-graphql';
import { ApiField } from '../../schema/fields';
import { fromCents } from '../../domain/money';
import type { PricingResult } from './estimate.pricing';

// The preview shape of the spec: data.preview (amounts) and data.breakdown.

@ObjectType('EstimatePreviewAmounts')
export class EstimatePreviewAmounts {
  @ApiField('base_amount', 'money') baseAmount!: number;
  @ApiField('addons_amount', 'money') addonsAmount!: number;
  @ApiField('tax_amount', 'money') taxAmount!: number;
  @ApiField('total_amount', 'money') totalAmount!: number;
}

@ObjectType('EstimatePreviewAddon')
export class EstimatePreviewAddon {
  @ApiField('name', 'string') name!: string;
  @ApiField('price', 'money') price!: number;
}

@ObjectType('EstimatePreviewBreakdown')
export class EstimatePreviewBreakdown {
  @ApiField('base_amount', 'money', { description: 'Base price × quantity, before adjustments' }) baseAmount!: number;
  @ApiField('addons', 'object', { list: true, type: () => EstimatePreviewAddon }) addons!: EstimatePreviewAddon[];
  @ApiField('adjustments', 'json', { description: 'The adjustment amounts applied' }) adjustments!: Record<string, number>;
}

@ObjectType('EstimatePreview')
export class EstimatePreview {
  @ApiField('preview', 'object', { type: () => EstimatePreviewAmounts }) preview!: EstimatePreviewAmounts;
  @ApiField('breakdown', 'object', { type: () => EstimatePreviewBreakdown }) breakdown!: EstimatePreviewBreakdown;
}

export function previewOf(r: PricingResult): EstimatePreview {
  return Object.assign(new EstimatePreview(), {
    preview: Object.assign(new EstimatePreviewAmounts(), {
      baseAmount: fromCents(r.baseCents),
      addonsAmount: fromCents(r.addonsCents),
      taxAmount: fromCents(r.taxCents),
      totalAmount: fromCents(r.totalCents),
    }),
    breakdown: Object.assign(new EstimatePreviewBreakdown(), {
      baseAmount: fromCents(r.computedBaseCents),
      addons: r.addons.map((a) => Object.assign(new EstimatePreviewAddon(), { name: a.name, price: fromCents(a.priceCents) })),
      adjustments: Object.fromEntries(Object.entries(r.applied).map(([k, c]) => [k, fromCents(c!)])),
    }),
  });
}
