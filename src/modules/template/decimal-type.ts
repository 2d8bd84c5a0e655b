import { Type } from '@mikro-orm/core';

/**
 * numeric(p,4) columns holding rates and quantities (at most 4 decimals, docs/conventions.md) as JS
 * numbers. PostgreSQL returns numeric as text; the shortest form of a ≤4-decimal value parses
 * exactly back, and money code scales it with toScaled().
 */
export class DecimalNumberType extends Type<number | null, string | null> {
  constructor(private readonly column = 'numeric(14,4)') {
    super();
  }

  convertToDatabaseValue(value: number | null): string | null {
    return value === null || value === undefined ? null : String(value);
  }

  convertToJSValue(value: string | number | null): number | null {
    return value === null || value === undefined ? null : Number(value);
  }

  compareAsType(): string {
    return 'number';
  }

  getColumnType(): string {
    return this.column;
  }
}
