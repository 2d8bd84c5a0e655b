import { multiply } from '../../domain/money';
import { PricingSnapshot, priceEstimate, Tier } from '../estimate/estimate.pricing';

// The invoice lines of an accepted estimate (docs/documents.md), pure and in integer cents: the
// tier's (or flat) base × quantity, one line per add-on, one line per adjustment that raises an
// amount. Line prices are never negative, so an adjustment that lowers an amount becomes the
// invoice's discount; the invoice's tax is the estimate's tax amount (rounded once on the whole,
// as the estimate rounds it). Subtotal + tax − discount is then the estimate's total to the cent.

export interface EstimatePricing {
  templateName: string;
  snapshot: PricingSnapshot;
  selectedTier: Tier | null;
  quantity: number;
  selectedAddons: string[] | null;
  /** Adjusted amounts in cents. */
  adjustments: Partial<Record<'base_amount' | 'addons_amount' | 'tax_amount', number>>;
}

export interface InvoiceLineCents {
  description: string;
  quantity: number;
  unitPriceCents: number;
  taxRate: number;
}

export interface EstimateInvoiceLines {
  lines: InvoiceLineCents[];
  taxCents: number;
  discountCents: number;
  /** The estimate's total, which lines + tax − discount equal. */
  totalCents: number;
}

const TIER_NAMES: Record<Tier, string> = { good: 'Good', better: 'Better', best: 'Best' };
const ADJUSTED: Record<'base_amount' | 'addons_amount', string> = { base_amount: 'base amount', addons_amount: 'add-ons' };

export function estimateInvoiceLines(e: EstimatePricing): EstimateInvoiceLines {
  const s = e.snapshot;
  const priced = priceEstimate(s, { selectedTier: e.selectedTier, quantity: e.quantity, selectedAddons: e.selectedAddons, adjustments: e.adjustments });
  const unitCents = s.pricing_type === 'tiered' ? s.tiers[e.selectedTier!]! : (s.base_price_cents ?? 0);
  const rate = s.tax_rate;
  const lines: InvoiceLineCents[] = [
    { description: s.pricing_type === 'tiered' ? `${e.templateName} (${TIER_NAMES[e.selectedTier!]})` : e.templateName, quantity: e.quantity, unitPriceCents: unitCents, taxRate: rate },
    ...priced.addons.map((a) => ({ description: a.name, quantity: 1, unitPriceCents: a.priceCents, taxRate: rate })),
  ];
  let discountCents = 0;
  const computedAddons = priced.addons.reduce((sum, a) => sum + a.priceCents, 0);
  const diffs: Array<['base_amount' | 'addons_amount', number]> = [
    ['base_amount', priced.baseCents - multiply(unitCents, e.quantity)],
    ['addons_amount', priced.addonsCents - computedAddons],
  ];
  for (const [key, diff] of diffs) {
    if (priced.applied[key] === undefined || diff === 0) continue;
    if (diff > 0) lines.push({ description: `Adjustment: ${ADJUSTED[key]}`, quantity: 1, unitPriceCents: diff, taxRate: rate });
    else discountCents -= diff;
  }
  return { lines, taxCents: priced.taxCents, discountCents, totalCents: priced.totalCents };
}

/** What the lines add up to, as the invoice totals function adds them (for tests and checks). */
export function linesTotalCents(r: EstimateInvoiceLines): number {
  return r.lines.reduce((sum, l) => sum + multiply(l.unitPriceCents, l.quantity), 0) + r.taxCents - r.discountCents;
}
