import { AppError } from '../../../src/errors/app-error';
import { computeTotals, taxByRate } from '../../../src/modules/invoice/invoice-totals';

const fieldsOf = (fn: () => unknown): string[] => {
  try {
    fn();
  } catch (e) {
    if (e instanceof AppError) return (e.details ?? []).map((d) => d.field);
    throw e;
  }
  throw new Error('expected a validation error');
};

describe('invoice totals', () => {
  it('multiplies, rounds each line, then its tax, and sums', () => {
    const t = computeTotals({
      lineItems: [
        { description: 'Labour', quantity: 1.5, unitPriceCents: 8999, taxRate: 8.25 }, // 134.985 → 134.99; tax 11.136… → 11.14
        { quantity: 3, unitPriceCents: 333, taxRate: 10 }, // 9.99; tax 0.999 → 1.00
        { unitPriceCents: 1000 }, // quantity 1, tax 0
      ],
      discountCents: 500,
    });
    expect(t.lines.map((l) => [l.lineTotalCents, l.taxCents])).toEqual([
      [13499, 1114],
      [999, 100],
      [1000, 0],
    ]);
    expect(t.lines[2]).toMatchObject({ description: null, quantity: 1, taxRate: 0 });
    expect(t).toMatchObject({ subtotalCents: 15498, taxCents: 1214, discountCents: 500, totalCents: 16212 });
  });

  it('groups the tax by non-zero rate, rounded per line as the totals are, so the groups add up to the tax', () => {
    const t = computeTotals({
      lineItems: [
        { unitPriceCents: 5, taxRate: 10 }, // 0.5¢ → 1¢
        { unitPriceCents: 5, taxRate: 10 }, // 1¢ (10% of the group's 10¢ rounded once would be 1¢ in all)
        { unitPriceCents: 333, taxRate: 8.25 }, // 27.4725¢ → 27¢
        { unitPriceCents: 2000, taxRate: 0 },
        { unitPriceCents: 100000, taxRate: 10 }, // 100.00
      ],
    });
    const groups = taxByRate(t.lines);
    expect(groups).toEqual([
      { rate: 8.25, baseCents: 333, taxCents: 27 },
      { rate: 10, baseCents: 100010, taxCents: 10002 },
    ]);
    expect(groups.reduce((s, g) => s + g.taxCents, 0)).toBe(t.taxCents);
  });

  it('rounds half away from zero at the cent', () => {
    const t = computeTotals({ lineItems: [{ quantity: 0.5, unitPriceCents: 1, taxRate: 50 }] }); // 0.5¢ → 1¢; tax 0.5¢ → 1¢
    expect(t).toMatchObject({ subtotalCents: 1, taxCents: 1, totalCents: 2 });
  });

  it('accepts a subtotal equal to the lines and refuses another one', () => {
    expect(computeTotals({ lineItems: [{ unitPriceCents: 1234 }], subtotalCents: 1234 }).subtotalCents).toBe(1234);
    expect(fieldsOf(() => computeTotals({ lineItems: [{ unitPriceCents: 1234 }], subtotalCents: 1235 }))).toEqual(['subtotal']);
  });

  it('lets a sent tax override the computed one', () => {
    const t = computeTotals({ lineItems: [{ unitPriceCents: 10000, taxRate: 10 }], taxCents: 250 });
    expect(t).toMatchObject({ subtotalCents: 10000, taxCents: 250, totalCents: 10250 });
    expect(t.lines[0].taxCents).toBe(1000);
  });

  it('without lines: sent subtotal, else the job amount, else 0; tax sent or 0', () => {
    expect(computeTotals({ subtotalCents: 5000, jobAmountCents: 9000 })).toMatchObject({ subtotalCents: 5000, taxCents: 0, totalCents: 5000 });
    expect(computeTotals({ jobAmountCents: 9000, taxCents: 720 })).toMatchObject({ subtotalCents: 9000, taxCents: 720, totalCents: 9720 });
    expect(computeTotals({})).toMatchObject({ subtotalCents: 0, taxCents: 0, discountCents: 0, totalCents: 0 });
    expect(computeTotals({ lineItems: [], jobAmountCents: 100 })).toMatchObject({ subtotalCents: 100, lines: [] });
  });

  it('bills a progress share of the job amount when there are no lines or subtotal', () => {
    expect(computeTotals({ jobAmountCents: 12345, progressPercentage: 33.3333 }).subtotalCents).toBe(4115); // 4114.996 → 4115
    expect(computeTotals({ jobAmountCents: 12345, progressPercentage: 50, subtotalCents: 100 }).subtotalCents).toBe(100);
    expect(computeTotals({ jobAmountCents: 12345, progressPercentage: 50, lineItems: [{ unitPriceCents: 7 }] }).subtotalCents).toBe(7);
  });

  it('refuses a negative total and one above the money cap', () => {
    expect(fieldsOf(() => computeTotals({ subtotalCents: 100, discountCents: 101 }))).toEqual(['discountAmount']);
    expect(computeTotals({ subtotalCents: 100, discountCents: 100 }).totalCents).toBe(0);
    expect(fieldsOf(() => computeTotals({ lineItems: [{ unitPriceCents: 999_999_999_999, quantity: 2 }] }))).toEqual(['subtotal', 'totalAmount']);
  });

  it('is exact where binary floats are not', () => {
    // 0.1 + 0.2 in floats is 0.30000000000000004; in cents it is 30.
    const t = computeTotals({ lineItems: [{ unitPriceCents: 10 }, { unitPriceCents: 20 }] });
    expect(t.subtotalCents).toBe(30);
    expect(computeTotals({ lineItems: [{ unitPriceCents: 1999, quantity: 0.0001 }] }).subtotalCents).toBe(0);
  });
});
