import { InputType, ObjectType } from 'type-graphql';
import { ApiField, InputField } from '../../schema/fields';
import { PartialInput } from '../../schema/inputs';
import { isTimeZone } from '../../domain/values';
import { InvoiceLineItemInput } from '../invoice/invoice.inputs';
import { ruleCheck } from '../schedule/schedule.inputs';

const opt = { nullable: true } as const;
const range = (lo: number, hi: number) => (v: number) => (Number.isInteger(v) && v >= lo && v <= hi ? null : `must be a whole number between ${lo} and ${hi}`);
const zoneCheck = (v: string) => (isTimeZone(v) ? null : 'must be an IANA time zone name');

@InputType('RecurringInvoiceCreateInput')
export class RecurringInvoiceCreateInput {
  @InputField('customer_uuid', 'uuid', { required: true }) customerUuid!: string;
  @InputField('job_uuid', 'uuid', { required: true, description: "The job the invoices bill (the customer's)" }) jobUuid!: string;
  @InputField('location_uuid', 'uuid', opt) locationUuid?: string | null;
  @InputField('rrule', 'string', { required: true, check: ruleCheck, description: 'RFC 5545 subset, as a job schedule takes' }) rrule!: string;
  @InputField('starts_on', 'date', { required: true }) startsOn!: string;
  @InputField('timezone', 'string', { check: zoneCheck, description: "Default: the company's time zone" }) timezone?: string;
  @InputField('line_items', 'object', { type: () => InvoiceLineItemInput, list: true, nullable: true }) lineItems?: InvoiceLineItemInput[] | null;
  @InputField('discount_amount', 'money', { default: 0 }) discountAmount?: number;
  @InputField('notes', 'text', opt) notes?: string | null;
  @InputField('terms', 'text', opt) terms?: string | null;
  @InputField('due_days', 'int', { default: 30, check: range(0, 365), description: 'due_date = issue_date + due_days' }) dueDays?: number;
  @InputField('auto_send', 'boolean', { default: false, description: "Mail each invoice to the customer when it is created" }) autoSend?: boolean;
}

export const RecurringInvoiceUpdateInput = PartialInput(RecurringInvoiceCreateInput, 'RecurringInvoiceUpdateInput');
export type RecurringInvoiceUpdateInput = InstanceType<typeof RecurringInvoiceUpdateInput>;

@InputType('RecurringInvoicePreviewInput')
export class RecurringInvoicePreviewInput extends RecurringInvoiceCreateInput {
  @InputField('limit', 'int', { default: 12, check: range(1, 500) }) limit?: number;
}

@ObjectType('RecurringInvoiceOccurrence')
export class RecurringInvoiceOccurrence {
  @ApiField('issue_date', 'date') issueDate!: string;
  @ApiField('due_date', 'date') dueDate!: string;
  @ApiField('total_amount', 'money') totalAmount!: number;
}

@ObjectType('RecurringInvoicePreview')
export class RecurringInvoicePreview {
  @ApiField('invoices', 'object', { type: () => RecurringInvoiceOccurrence, list: true }) invoices!: RecurringInvoiceOccurrence[];
}
