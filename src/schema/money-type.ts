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
