// Money is integer cents in code (docs/conventions.md); numeric(12,2) in the database.

export const MAX_CENTS = 999_999_999_999; // 9,999,999,999.99

/** Exact parse of a JSON number or decimal string into cents; null when it has more than 2 decimals. */
export function toCents(v: number | string): number | null {
  const text = typeof v === 'number' ? numberText(v) : v.trim();
  if (text === null) return null;
  const m = /^(-)?(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!m) return null;
  const cents = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  if (!Number.isSafeInteger(cents)) return null;
  return m[1] ? -cents : cents;
}

function numberText(n: number): string | null {
  if (!Number.isFinite(n)) return null;
  const s = String(n);
  // Exponent forms: 1e-7 has too many decimals; 1e21 is far beyond the cap anyway.
  return /e/i.test(s) ? null : s;
}

export function fromCents(c: number): number {
  return c / 100;
}

/** Decimal text with two places for numeric(12,2) columns. */
export function centsToDecimal(c: number): string {
  const sign = c < 0 ? '-' : '';
  const a = Math.abs(c);
  return `${sign}${Math.trunc(a / 100)}.${String(a % 100).padStart(2, '0')}`;
}

/** Number of decimal places of a JSON number as written (shortest round-trip form). */
export function decimalPlaces(n: number): number {
  const s = numberText(n);
  if (s === null) return Infinity;
  const i = s.indexOf('.');
  return i < 0 ? 0 : s.length - i - 1;
}

/** Round half away from zero of a rational value num/den to an integer. */
export function roundHalfAwayFromZero(num: bigint, den: bigint): number {
  if (den < 0n) {
    num = -num;
    den = -den;
  }
  const neg = num < 0n;
  const a = neg ? -num : num;
  const q = (a * 2n + den) / (2n * den);
  return Number(neg ? -q : q);
}

/** Fixed-point scaling: a decimal number with up to `places` decimals as an integer (e.g. 8.25 → 82500 for 4). */
export function toScaled(v: number, places: number): bigint | null {
  const s = numberText(v);
  if (s === null) return null;
  const m = /^(-)?(\d+)(?:\.(\d+))?$/.exec(s);
  if (!m || (m[3] ?? '').length > places) return null;
  const int = BigInt(m[2]) * 10n ** BigInt(places) + BigInt((m[3] ?? '').padEnd(places, '0') || '0');
  return m[1] ? -int : int;
}

/** cents × rate% with rate given to 4 decimals, rounded half away from zero. */
export function percentOf(cents: number, ratePercent: number): number {
  const scaled = toScaled(ratePercent, 4);
  if (scaled === null) throw new Error(`rate ${ratePercent} has more than 4 decimals`);
  return roundHalfAwayFromZero(BigInt(cents) * scaled, 100n * 10_000n);
}

/** quantity (up to 4 decimals) × unit price in cents, rounded half away from zero. */
export function multiply(cents: number, quantity: number): number {
  const scaled = toScaled(quantity, 4);
  if (scaled === null) throw new Error(`quantity ${quantity} has more than 4 decimals`);
  return roundHalfAwayFromZero(BigInt(cents) * scaled, 10_000n);
}
