import { Type } from '@mikro-orm/core';
import { centsToDecimal, toCents } from '../domain/money';

/**
 * numeric(12,2) in the database, integer cents in code. Entities keep `<name>Cents` properties of
 * this type and expose the dollar value to both surfaces through a getter declared with
 * ApiField('<rest_name>', 'money').
 */
export class MoneyType extends Type<number | null, string | null> {
  convertToDatabaseValue(value: number | null): string | null {
    return value === null || value === undefined ? null : centsToDecimal(value);
  }

  convertToJSValue(value: string | number | null): number | null {
    if (value === null || value === undefined) return null;
    if (typeof value === 'string') {
      const column = columnCents(value);
      if (column !== null) return column;
    }
    const cents = toCents(String(value));
    if (cents === null) throw new Error(`not a money value: ${value}`);
    return cents;
  }

  compareAsType(): string {
    return 'number';
  }

  getColumnType(): string {
    return 'numeric(12,2)';
  }
}

/**
 * The text PostgreSQL gives for a numeric(12,2) value (`-123.45`: digits, a point, two digits) as
 * cents, as toCents reads it; null for any other text (toCents then decides). Every money column of
 * a list page goes through here: toCents' regular expression cost ~9% of the server's CPU on a
 * REST page of 50 invoices (test/schema/money-type.spec.ts compares the two).
 */
export function columnCents(text: string): number | null {
  const n = text.length;
  const negative = text.charCodeAt(0) === 45;
  const start = negative ? 1 : 0;
  // At least one integer digit; at most 15 digits in all, so that the cents are a safe integer.
  if (n - start < 4 || n - start > 16 || text.charCodeAt(n - 3) !== 46) return null;
  let cents = 0;
  for (let i = start; i < n; i++) {
    if (i === n - 3) continue;
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return null;
    cents = cents * 10 + d;
  }
  return negative ? -cents : cents;
}
