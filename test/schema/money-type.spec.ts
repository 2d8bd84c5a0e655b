import { toCents } from '../../src/domain/money';
import { columnCents, MoneyType } from '../../src/schema/money-type';

// MoneyType's fast read of a numeric(12,2) column's text (columnCents) gives what toCents gives:
// the same cents (and the same -0), the same refusals, for the texts PostgreSQL writes and others.

const type = new MoneyType();

/** MoneyType.convertToJSValue as it was: toCents of the text, an error when toCents refuses it. */
function plain(value: string): number | Error {
  const cents = toCents(String(value));
  return cents === null ? new Error(`not a money value: ${value}`) : cents;
}

function fast(value: string): number | Error {
  try {
    return type.convertToJSValue(value)!;
  } catch (e) {
    return e as Error;
  }
}

/** The texts the two read differently: [text, fast, plain], the first 20 of them. */
let wrong: Array<[string, unknown, unknown]> = [];

beforeEach(() => {
  wrong = [];
});

// Compared in the loop and asserted once per test (expect(wrong).toEqual([])): 50,000 expect() calls
// cost more than the reads they check. The same cents (Object.is: -0 apart), or the same refusal.
function same(value: string): void {
  const [a, b] = [plain(value), fast(value)];
  const equal = a instanceof Error || b instanceof Error ? a instanceof Error && b instanceof Error && String(a) === String(b) : Object.is(a, b);
  if (!equal && wrong.length < 20) wrong.push([value, b instanceof Error ? String(b) : b, a instanceof Error ? String(a) : a]);
}

test('the texts PostgreSQL writes for numeric(12,2), and their edges', () => {
  for (const v of ['0.00', '-0.00', '0.01', '-0.01', '1.00', '12.34', '-12.34', '9999999999.99', '-9999999999.99', '0000.10', '123456789012.34', '9007199254740.99', '90071992547409.91', '-90071992547409.91', '900719925474099.10']) same(v);
  let seed = 7;
  const next = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648);
  for (let i = 0; i < 50_000; i++) {
    const cents = Math.floor(next() * 10 ** Math.floor(next() * 16)) * (next() < 0.3 ? -1 : 1);
    const a = Math.abs(cents);
    same(`${cents < 0 ? '-' : ''}${Math.trunc(a / 100)}.${String(a % 100).padStart(2, '0')}`);
  }
  expect(wrong).toEqual([]);
});

test('other texts: toCents decides', () => {
  for (const v of ['', '-', '.', '.50', '-.50', '5.', '5.5', '5.555', ' 5.50', '5.50 ', '+5.50', '1e5', '5,50', '5.5a', 'a5.50', '--5.50', '5..50', '12345678901234567.89', 'NaN', 'Infinity', '٣.٥٠', '0x1.00']) {
    same(v);
    if (columnCents(v) !== null) expect(columnCents(v)).toBe(toCents(v));
  }
  expect(wrong).toEqual([]);
});
