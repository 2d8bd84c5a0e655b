import { adjustmentsToCents, priceEstimate, PricingSnapshot } from '../../../src/modules/estimate/estimate.pricing';
import { AppError } from '../../../src/errors/app-error';

const flat: PricingSnapshot = {
  pricing_type: 'flat',
  base_price_cents: 10_000,
  tiers: { good: null, better: null, best: null },
  addons: [
    { id: 'a', name: 'Haul away', price_cents: 7_500 },
    { id: 'b', name: 'Permit', price_cents: 4_999 },
  ],
  tax_rate: 8.25,
};
const tiered: PricingSnapshot = { ...flat, pricing_type: 'tiered', base_price_cents: null, tiers: { good: 8_900, better: 12_950, best: null }, addons: [], tax_rate: 0 };

function fieldOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return e instanceof AppError ? e.details?.[0].field : 'not an AppError';
  }
  return undefined;
}

describe('priceEstimate', () => {
  it('flat: base × quantity, add-ons once, tax rounded once half away from zero', () => {
    const r = priceEstimate(flat, { quantity: 2, selectedAddons: ['a'] });
    // (20000 + 7500) × 8.25% = 2268.75 → 2269
    expect(r).toMatchObject({ baseCents: 20_000, addonsCents: 7_500, taxCents: 2_269, totalCents: 29_769, computedBaseCents: 20_000 });
    expect(r.addons).toEqual([{ name: 'Haul away', priceCents: 7_500 }]);
    expect(r.applied).toEqual({});
  });

  it('fractional quantities round the base to the cent', () => {
    // 10000 × 1.0005 = 10005 exactly; 8900 × 0.3333 = 2966.37 → 2966
    expect(priceEstimate(flat, { quantity: 1.0005 }).baseCents).toBe(10_005);
    expect(priceEstimate({ ...tiered }, { quantity: 0.3333, selectedTier: 'good' }).baseCents).toBe(2_966);
  });

  it('rounds half away from zero on an exact half cent', () => {
    // 1 cent base at 50% tax = 0.5 → 1
    expect(priceEstimate({ ...flat, base_price_cents: 1, tax_rate: 50 }, { quantity: 1 }).taxCents).toBe(1);
    // 3 cents at 50% = 1.5 → 2
    expect(priceEstimate({ ...flat, base_price_cents: 3, tax_rate: 50 }, { quantity: 1 }).taxCents).toBe(2);
  });

  it('tiered: the selected tier price; no tier or an unpriced tier is an error on selectedTier', () => {
    expect(priceEstimate(tiered, { quantity: 3, selectedTier: 'better' }).totalCents).toBe(38_850);
    expect(fieldOf(() => priceEstimate(tiered, { quantity: 1 }))).toBe('selectedTier');
    expect(fieldOf(() => priceEstimate(tiered, { quantity: 1, selectedTier: 'best' }))).toBe('selectedTier');
    expect(fieldOf(() => priceEstimate(flat, { quantity: 1, selectedTier: 'good' }))).toBe('selectedTier');
  });

  it('unknown or repeated add-on ids are errors on selectedAddons', () => {
    expect(fieldOf(() => priceEstimate(flat, { quantity: 1, selectedAddons: ['zzz'] }))).toBe('selectedAddons');
    expect(fieldOf(() => priceEstimate(flat, { quantity: 1, selectedAddons: ['a', 'a'] }))).toBe('selectedAddons');
  });

  it('adjustments replace amounts; the tax follows adjusted base and add-ons unless adjusted itself', () => {
    const r = priceEstimate(flat, { quantity: 1, selectedAddons: ['a', 'b'], adjustments: { base_amount: 9_000, addons_amount: 1_000 } });
    expect(r).toMatchObject({ baseCents: 9_000, addonsCents: 1_000, taxCents: 825, totalCents: 10_825, computedBaseCents: 10_000 });
    expect(r.applied).toEqual({ base_amount: 9_000, addons_amount: 1_000 });
    const t = priceEstimate(flat, { quantity: 1, adjustments: { tax_amount: 0 } });
    expect(t).toMatchObject({ taxCents: 0, totalCents: 10_000 });
    expect(t.applied).toEqual({ tax_amount: 0 });
  });

  it('refuses totals above the money cap', () => {
    expect(fieldOf(() => priceEstimate({ ...flat, base_price_cents: 999_999_999_999 }, { quantity: 2 }))).toBe('totalAmount');
  });
});

describe('adjustmentsToCents', () => {
  it('converts known keys exactly and refuses others', () => {
    expect(adjustmentsToCents({ base_amount: 0.1, tax_amount: 19.99 })).toEqual({ base_amount: 10, tax_amount: 1_999 });
    expect(adjustmentsToCents({ discount: 1 })).toEqual(expect.any(String));
    expect(adjustmentsToCents({ tax_amount: 1.001 })).toEqual(expect.any(String));
    expect(adjustmentsToCents({ tax_amount: -1 })).toEqual(expect.any(String));
    expect(adjustmentsToCents({ tax_amount: '5' })).toEqual(expect.any(String));
  });
});
