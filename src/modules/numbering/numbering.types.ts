import { ObjectType } from 'type-graphql';
import { ShowsResource } from '../../schema/access';
import { ApiField } from '../../schema/fields';

@ObjectType()
export class NumberingKindSettings {
  @ApiField('prefix', 'string') prefix!: string;
  @ApiField('padding', 'int') padding!: number;
  @ApiField('next_number', 'int', { description: 'The counter' }) nextNumber!: number;
  @ApiField('next_number_formatted', 'string', { description: 'The number the next document will get' }) nextNumberFormatted!: string;
  @ApiField('has_override', 'boolean', { description: 'A one-time override is pending' }) hasOverride!: boolean;
}

@ObjectType()
@ShowsResource('numbering')
export class NumberingSettings {
  @ApiField('invoice', 'object', { type: () => NumberingKindSettings }) invoice!: NumberingKindSettings;
  @ApiField('estimate', 'object', { type: () => NumberingKindSettings }) estimate!: NumberingKindSettings;
}

/** REST response of PUT /numbering: the spec's message, plus the new settings. */
export class NumberingUpdateResult extends NumberingSettings {
  @ApiField('message', 'string', { graphql: false }) message!: string;
}
