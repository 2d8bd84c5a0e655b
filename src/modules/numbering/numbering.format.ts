// Document numbering (docs/estimates-and-numbering.md): kinds, defaults and input limits. Numbers are formatted and
// assigned by the SQL functions of migration 0007.

/**
 * The numbered kinds, declared here once: each kind's default prefix and where its formatted
 * numbers live (table and column), for "is this number taken" (deleted documents too).
 */
export const NUMBERED = {
  invoice: { prefix: 'INV-', table: 'invoices', column: 'invoice_number' },
  estimate: { prefix: 'EST-', table: 'estimates', column: 'estimate_number' },
} as const;

export type NumberedKind = keyof typeof NUMBERED;
export const NUMBERED_KINDS = Object.keys(NUMBERED) as NumberedKind[];

export const DEFAULT_PREFIX = Object.fromEntries(NUMBERED_KINDS.map((k) => [k, NUMBERED[k].prefix])) as Record<NumberedKind, string>;
export const DEFAULT_PADDING = 4;

export const PREFIX_PATTERN = /^[A-Za-z0-9\-_/#.]{0,20}$/;
export const MAX_PADDING = 12;
// GraphQL Int is 32-bit; numbers stay within it on both surfaces.
export const MAX_NUMBER = 2_147_483_647;

