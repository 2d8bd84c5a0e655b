import { toCents } from '../../domain/money';
import { CustomFieldType } from '../custom-field/custom-field.entity';
import type { RateTax } from '../invoice/invoice-totals';

// How documents write amounts, dates and custom fields (docs/documents.md): pure, so a PDF and the
// customer page show the same text, and the same record always gives the same bytes. (The view
// reads this file for custom fields, so it names only the view's tax fields, not its type.)

/** Cents as `$1,234.50` (a negative amount as `-$12.00`). */
export function formatMoney(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const a = Math.abs(cents);
  const dollars = String(Math.trunc(a / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}$${dollars}.${String(a % 100).padStart(2, '0')}`;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** `2026-12-01` as `December 1, 2026`. */
export function formatDate(date: string | null | undefined): string {
  if (!date) return '—';
  const [y, m, d] = date.split('-').map(Number);
  return `${MONTHS[m - 1]} ${d}, ${y}`;
}

/** A percentage as written, without trailing zeros: 8.25 → `8.25%`. */
export function formatRate(rate: number): string {
  return `${Number(rate.toFixed(4))}%`;
}

/** A quantity with up to 4 decimals, without trailing zeros. */
export function formatQuantity(q: number): string {
  return String(Number(q.toFixed(4)));
}

/**
 * The tax lines of a document: one per non-zero rate when its lines carry different rates
 * (`Tax 10% on $1,000.00`), else one (`Tax (8.25%)`, or `Tax` when the rate is not one).
 */
export function taxRows(v: { taxByRate: RateTax[]; taxRate: number | null; taxCents: number }): Array<[string, number]> {
  if (v.taxByRate.length) return v.taxByRate.map((g) => [`Tax ${formatRate(g.rate)} on ${formatMoney(g.baseCents)}`, g.taxCents]);
  return [[v.taxRate !== null ? `Tax (${formatRate(v.taxRate)})` : 'Tax', v.taxCents]];
}

/**
 * A custom field's stored value as a document writes it (docs/custom-fields.md, "On documents"):
 * money as an amount, a date as the other dates, a boolean Yes/No, a multi_select's values joined
 * with ", ", the rest as stored (values are stored normalised). Null when there is nothing to write.
 */
export function fieldText(type: CustomFieldType, value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  switch (type) {
    case CustomFieldType.MONEY:
      return formatMoney(toCents(value as number | string)!);
    case CustomFieldType.DATE:
      return formatDate(value as string);
    case CustomFieldType.BOOLEAN:
      return value ? 'Yes' : 'No';
    case CustomFieldType.MULTI_SELECT:
      return (value as string[]).length ? (value as string[]).join(', ') : null;
    default:
      return String(value);
  }
}
