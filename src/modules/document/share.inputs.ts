import { InputType, ObjectType } from 'type-graphql';
import { ApiField, InputField } from '../../schema/fields';

@InputType('ShareLinkInput')
export class ShareLinkInput {
  @InputField('expires_in_days', 'int', { default: 30, check: (v: number) => (v >= 1 && v <= 90 ? null : 'must be between 1 and 90'), description: '1–90 days' })
  expiresInDays?: number;
}

@ObjectType('ShareLink')
export class ShareLink {
  @ApiField('url', 'string', { description: 'Opens the customer page; no key needed' }) url!: string;
  @ApiField('expires_at', 'datetime') expiresAt!: Date;
}
