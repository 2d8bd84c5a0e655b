// How documents write amounts and dates (docs/documents.md): pure, so a PDF and the customer page
// show the same text, and the same record always gives the same bytes.

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
