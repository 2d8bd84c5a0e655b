import { InputType, ObjectType } from 'type-graphql';
import { ApiField, InputField } from '../../schema/fields';
import { isEmail } from '../../domain/values';

const ccCheck = (v: string[]) => (v.length <= 10 && v.every((a) => isEmail(a)) ? null : 'must be at most 10 valid email addresses');

@InputType('SendDocumentInput')
export class SendDocumentInput {
  @InputField('to', 'email', { description: "default: the customer's email" }) to?: string;
  @InputField('cc', 'string', { list: true, nullable: true, check: ccCheck, description: 'email addresses' }) cc?: string[] | null;
  @InputField('subject', 'string', { description: 'default: "Invoice INV-0042 from <company>"' }) subject?: string;
  @InputField('message', 'text', { description: 'the body, above the link to the document' }) message?: string;
}

export enum EmailStatus {
  SENT = 'sent',
  FAILED = 'failed',
}

/** One message of a document's mail history. */
@ObjectType('DocumentEmail')
export class DocumentEmail {
  @ApiField('uuid', 'uuid') uuid!: string;
  @ApiField('to', 'string') to!: string;
  @ApiField('cc', 'string', { list: true, nullable: true }) cc!: string[] | null;
  @ApiField('subject', 'string') subject!: string;
  @ApiField('status', 'string', { description: 'sent or failed' }) status!: EmailStatus;
  @ApiField('sent_at', 'datetime', { nullable: true }) sentAt!: Date | null;
  @ApiField('error', 'text', { nullable: true, description: 'why sending failed' }) error!: string | null;
}
