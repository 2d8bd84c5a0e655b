import { AppError, ErrorDetail } from '../../errors/app-error';
import { centsToDecimal, MAX_CENTS, multiply, percentOf } from '../../domain/money';

// The one totals function behind invoice preview, create and update (docs/invoices-and-payments.md), pure and in
// integer cents. Errors name fields by their property names.

export interface LineIn {
  description?: string | null;
  /** Up to 4 decimals, > 0; default 1. */
  quantity?: number | null;
  unitPriceCents: number;
  /** Percent, 0–100, up to 4 decimals; default 0. */
  taxRate?: number | null;
}

export interface LineOut {
  description: string | null;
  quantity: number;
  unitPriceCents: number;
  lineTotalCents: number;
  taxRate: number;
  taxCents: number;
}

export interface TotalsIn {
  /** Null, undefined or empty: no line items. */
  lineItems?: LineIn[] | null;
  /** Sent subtotal: must equal the lines' sum when there are lines. */
  subtotalCents?: number | null;
  /** Sent tax: overrides the computed tax. */
  taxCents?: number | null;
  discountCents?: number | null;
  /** The job's actual amount, else its estimated amount (null when neither). */
  jobAmountCents?: number | null;
  /** Only for 'Progress' invoices. */
  progressPercentage?: number | null;
}

export interface Totals {
  lines: LineOut[];
  subtotalCents: number;
  taxCents: number;
  discountCents: number;
  totalCents: number;
}

export function computeTotals(input: TotalsIn): Totals {
  const details: ErrorDetail[] = [];
  const lines: LineOut[] = (input.lineItems ?? []).map((l) => {
    const quantity = l.quantity ?? 1;
    const taxRate = l.taxRate ?? 0;
    // Each line total is rounded to the cent first, then its tax (docs/conventions.md).
    const lineTotalCents = multiply(l.unitPriceCents, quantity);
    return { description: l.description ?? null, quantity, unitPriceCents: l.unitPriceCents, lineTotalCents, taxRate, taxCents: percentOf(lineTotalCents, taxRate) };
  });
  const sent = input.subtotalCents ?? null;
  let subtotalCents: number;
  let taxCents: number;
  if (lines.length) {
    subtotalCents = lines.reduce((s, l) => s + l.lineTotalCents, 0);
    if (sent !== null && sent !== subtotalCents) {
      details.push({ field: 'subtotal', message: `subtotal must equal the sum of the line totals (${centsToDecimal(subtotalCents)})` });
    }
    taxCents = input.taxCents ?? lines.reduce((s, l) => s + l.taxCents, 0);
  } else {
    const job = input.jobAmountCents ?? 0;
    // A progress invoice without lines or a subtotal bills its share of the job amount.
    const fromJob = input.progressPercentage != null ? percentOf(job, input.progressPercentage) : job;
    subtotalCents = sent ?? fromJob;
    taxCents = input.taxCents ?? 0;
  }
  const discountCents = input.discountCents ?? 0;
  const totalCents = subtotalCents + taxCents - discountCents;
  if (totalCents < 0) details.push({ field: 'discountAmount', message: 'discountAmount makes the total negative' });
  if (subtotalCents > MAX_CENTS) details.push({ field: 'subtotal', message: 'subtotal is above 9,999,999,999.99' });
  if (totalCents > MAX_CENTS) details.push({ field: 'totalAmount', message: 'totalAmount is above 9,999,999,999.99' });
  if (details.length) throw AppError.validation(details);
  return { lines, subtotalCents, taxCents, discountCents, totalCents };
}

/** The tax of an invoice's lines at one rate: what a document shows as `Tax 10% on $1,000.00`. */
export interface RateTax {
  rate: number;
  baseCents: number;
  taxCents: number;
}

/**
 * Lines grouped by their tax rate (non-zero rates, ascending): the lines' total and their tax. The
 * tax is rounded per line, as computeTotals does (not per group), and a group's tax is the sum of
 * its lines' taxes, so the groups add up to the computed tax to the cent.
 */
export function taxByRate(lines: LineOut[]): RateTax[] {
  const groups = new Map<number, RateTax>();
  for (const l of lines) {
    if (!l.taxRate) continue;
    const g = groups.get(l.taxRate) ?? { rate: l.taxRate, baseCents: 0, taxCents: 0 };
    g.baseCents += l.lineTotalCents;
    g.taxCents += l.taxCents;
    groups.set(l.taxRate, g);
  }
  return [...groups.values()].sort((a, b) => a.rate - b.rate);
}
