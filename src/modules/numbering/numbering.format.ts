// Document numbering (docs/estimates-and-numbering.md): kinds, defaults and input limits. Numbers are formatted and
// assigned by the SQL functions of migration 0007.

export type NumberedKind = 'invoice' | 'estimate';
export const NUMBERED_KINDS: NumberedKind[] = ['invoice', 'estimate'];

export const DEFAULT_PREFIX: Record<NumberedKind, string> = { invoice: 'INV-', estimate: 'EST-' };
export const DEFAULT_PADDING = 4;

export const PREFIX_PATTERN = /^[A-Za-z0-9\-_/#.]{0,20}$/;
export const MAX_PADDING = 12;
// GraphQL Int is 32-bit; numbers stay within it on both surfaces.
export const MAX_NUMBER = 2_147_483_647;

