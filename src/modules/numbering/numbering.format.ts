// Pure helpers of document numbering (DECISIONS §10), unit-tested on their own.

export type NumberedKind = 'invoice' | 'estimate';
export const NUMBERED_KINDS: NumberedKind[] = ['invoice', 'estimate'];

export const DEFAULT_PREFIX: Record<NumberedKind, string> = { invoice: 'INV-', estimate: 'EST-' };
export const DEFAULT_PADDING = 4;

export const PREFIX_PATTERN = /^[A-Za-z0-9\-_/#.]{0,20}$/;
export const MAX_PADDING = 12;
// GraphQL Int is 32-bit; numbers stay within it on both surfaces.
export const MAX_NUMBER = 2_147_483_647;

/** Prefix plus the number zero-padded to `padding` digits (longer numbers are not cut). */
export function formatNumber(prefix: string, padding: number, n: number): string {
  return prefix + String(n).padStart(padding, '0');
}
