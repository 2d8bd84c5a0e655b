import { ArgsType } from 'type-graphql';
import { InputField } from '../../schema/fields';

@ArgsType()
export class EventFeedArgs {
  @InputField('after', 'string', { description: 'A cursor (next_cursor of a page, or events/head); none: from the oldest kept event' })
  after?: string;

  @InputField('types', 'string', { description: 'Comma-separated types or patterns: invoice.*,payment.created (default: every type)' })
  types?: string;

  @InputField('limit', 'int', { default: 100, check: (v) => (v >= 1 ? null : 'must be at least 1'), description: 'At most 1000 (larger is clamped)' })
  limit?: number;
}
