import { InputType } from 'type-graphql';
import { InputField } from '../../schema/fields';
import { MAX_NUMBER, MAX_PADDING, PREFIX_PATTERN } from './numbering.format';

const numberCheck = (v: number) => (v >= 1 && v <= MAX_NUMBER ? null : `must be between 1 and ${MAX_NUMBER}`);

@InputType('NumberingKindInput')
export class NumberingKindInput {
  // Nullable so that "" (no prefix) survives the generic empty-string rule; null also means none.
  @InputField('prefix', 'string', {
    nullable: true,
    check: (v: string) => (PREFIX_PATTERN.test(v) ? null : 'must be 0–20 letters, digits or - _ / # .'),
  })
  prefix?: string | null;

  @InputField('padding', 'int', { check: (v: number) => (v >= 0 && v <= MAX_PADDING ? null : `must be between 0 and ${MAX_PADDING}`) })
  padding?: number;

  @InputField('next_number', 'int', { check: numberCheck }) nextNumber?: number;

  // One-time: the next document takes it; null clears a pending one.
  @InputField('override_number', 'int', { nullable: true, check: numberCheck }) overrideNumber?: number | null;
}

@InputType('NumberingUpdateInput')
export class NumberingUpdateInput {
  @InputField('invoice', 'object', { type: () => NumberingKindInput }) invoice?: NumberingKindInput;
  @InputField('estimate', 'object', { type: () => NumberingKindInput }) estimate?: NumberingKindInput;
}
