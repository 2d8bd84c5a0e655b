import { canonicalJson } from '../../data/idempotency';
import { fromCents, toCents } from '../../domain/money';
import { AppError, ErrorDetail } from '../../errors/app-error';
import type { Job } from '../job/job.entity';
import { Invoice, InvoiceLineItem, InvoiceType } from './invoice.entity';
import type { InvoiceAmountsInput } from './invoice.inputs';
import type { LineIn, Totals } from './invoice-totals';

// An invoice's amounts between its input and its record (invoiceService: create, preview, update):
// the lines sent, read back or stored, the computed amounts sent back checked, the totals applied.

export const cents = (v: number | null | undefined) => (v === undefined || v === null ? v : toCents(v));

/** 'Progress' needs a percentage; any other type refuses one (checked on the merged record). */
export function progressOf(type: InvoiceType, sent: number | null | undefined, stored: number | null): number | null {
  // Switching away from 'Progress' drops the stored percentage unless one is sent.
  const p = sent !== undefined ? sent : type === InvoiceType.PROGRESS ? stored : null;
  if (type === InvoiceType.PROGRESS && p === null) throw AppError.field('progressPercentage', "is required for 'Progress' invoices");
  if (type !== InvoiceType.PROGRESS && p !== null) throw AppError.field('progressPercentage', "is only for 'Progress' invoices");
  return p;
}

export const jobAmount = (job: Job | null) => (job ? (job.actualAmountCents ?? job.estimatedAmountCents) : null);
export const linesIn = (items: InvoiceAmountsInput['lineItems']): LineIn[] | null | undefined =>
  items?.map((l) => ({ description: l.description, quantity: l.quantity, unitPriceCents: toCents(l.unitPrice)!, taxRate: l.taxRate }));
export const storedLinesIn = (items: InvoiceLineItem[] | null): LineIn[] | null =>
  items?.map((l) => ({ description: l.description, quantity: l.quantity, unitPriceCents: toCents(l.unitPrice)!, taxRate: l.taxRate })) ?? null;
export const linesOut = (t: Totals): InvoiceLineItem[] =>
  t.lines.map((l) =>
    Object.assign(new InvoiceLineItem(), {
      description: l.description,
      quantity: l.quantity,
      unitPrice: fromCents(l.unitPriceCents),
      lineTotal: fromCents(l.lineTotalCents),
      taxRate: l.taxRate,
      taxAmount: fromCents(l.taxCents),
    }),
  );

/** Computed line amounts sent back (GET → edit → PUT) must match the computation. */
export function checkSentLines(items: InvoiceAmountsInput['lineItems'], t: Totals): void {
  const details: ErrorDetail[] = [];
  items?.forEach((l, i) => {
    const line = t.lines[i];
    if (l.lineTotal !== undefined && toCents(l.lineTotal) !== line.lineTotalCents) details.push({ field: `lineItems[${i}].lineTotal`, message: `lineItems[${i}].lineTotal is computed: quantity × unit_price is ${fromCents(line.lineTotalCents)}` });
    if (l.taxAmount !== undefined && toCents(l.taxAmount) !== line.taxCents) details.push({ field: `lineItems[${i}].taxAmount`, message: `lineItems[${i}].taxAmount is computed: line_total × tax_rate % is ${fromCents(line.taxCents)}` });
  });
  if (details.length) throw AppError.validation(details);
}

export function applyTotals(invoice: Invoice, t: Totals, hadLines: boolean): void {
  const lines = hadLines ? linesOut(t) : null;
  // The same lines sent back (GET → edit → PUT) are no change: updated_at stays. A new invoice has none to compare.
  if (invoice.lineItems == null ? lines !== null : canonicalJson(lines) !== canonicalJson(invoice.lineItems)) invoice.lineItems = lines;
  invoice.subtotalCents = t.subtotalCents;
  invoice.taxAmountCents = t.taxCents;
  invoice.discountAmountCents = t.discountCents;
  invoice.totalAmountCents = t.totalCents;
}
