import { centsToDecimal, decimalPlaces, fromCents, multiply, percentOf, roundHalfAwayFromZero, toCents } from '../../src/domain/money';

describe('money', () => {
  it('parses exact decimals into cents', () => {
    expect(toCents(12.34)).toBe(1234);
    expect(toCents(0.1)).toBe(10);
    expect(toCents('9999999999.99')).toBe(999999999999);
    expect(toCents(1.005)).toBeNull();
    expect(toCents(1e-7)).toBeNull();
    expect(toCents('12.3')).toBe(1230);
    expect(toCents(-5)).toBe(-500);
  });

  it('formats cents for numeric(12,2) and JSON', () => {
    expect(centsToDecimal(1234)).toBe('12.34');
    expect(centsToDecimal(5)).toBe('0.05');
    expect(centsToDecimal(-105)).toBe('-1.05');
    expect(fromCents(1234)).toBe(12.34);
    expect(decimalPlaces(1.25)).toBe(2);
    expect(decimalPlaces(3)).toBe(0);
  });

  it('rounds half away from zero', () => {
    expect(roundHalfAwayFromZero(5n, 10n)).toBe(1);
    expect(roundHalfAwayFromZero(-5n, 10n)).toBe(-1);
    expect(roundHalfAwayFromZero(4n, 10n)).toBe(0);
    expect(roundHalfAwayFromZero(15n, 10n)).toBe(2);
  });

  it('applies percentages and quantities exactly', () => {
    expect(percentOf(1000, 8.25)).toBe(83); // 82.5 → 83
    expect(percentOf(333, 10)).toBe(33); // 33.3 → 33
    expect(percentOf(5, 10)).toBe(1); // 0.5 → 1
    expect(percentOf(1999, 7.1234)).toBe(142); // 142.4 → 142
    expect(multiply(1999, 3)).toBe(5997);
    expect(multiply(1000, 0.3333)).toBe(333);
    expect(multiply(150, 1.5)).toBe(225);
    expect(multiply(1, 0.5)).toBe(1);
  });
});
