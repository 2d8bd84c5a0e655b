import { customFieldsIn, externalIdsIn } from '../custom-field/custom-data';
import { ArgsType, InputType, ObjectType, registerEnumType } from 'type-graphql';
import { ApiField, InputField } from '../../schema/fields';
import { PartialInput } from '../../schema/inputs';
import { decimalPlaces } from '../../domain/money';
import { ListArgs } from '../../schema/pagination';
import { CustomFieldFilter, customFieldFilters } from '../custom-field/custom-field.inputs';
import { InvoiceLineItem, InvoiceStatus, InvoiceType } from './invoice.entity';

export enum InvoiceStatusFilter {
  ALL = 'All',
  DRAFT = 'Draft',
  PENDING = 'Pending',
  PAID = 'Paid',
  OVERDUE = 'Overdue',
}
registerEnumType(InvoiceStatusFilter, { name: 'InvoiceStatusFilter' });

const opt = { nullable: true } as const;
const fourDecimals = (v: number) => (decimalPlaces(v) <= 4 ? null : 'must have at most 4 decimals');
const quantityCheck = (v: number) => (v > 0 ? fourDecimals(v) : 'must be greater than 0');
const rateCheck = (v: number) => (v >= 0 && v <= 100 ? fourDecimals(v) : 'must be between 0 and 100');
const progressCheck = (v: number) => (v > 0 && v <= 100 ? fourDecimals(v) : 'must be greater than 0 and at most 100');

@InputType('InvoiceLineItemInput')
export class InvoiceLineItemInput {
  @InputField('description', 'text', opt) description?: string | null;
  @InputField('quantity', 'number', { default: 1, check: quantityCheck }) quantity?: number;
  @InputField('unit_price', 'money', { required: true }) unitPrice!: number;
  @InputField('tax_rate', 'number', { nullable: true, default: 0, check: rateCheck, description: 'a percentage, 0–100' }) taxRate?: number | null;
  // Computed; accepted so that GET → edit → PUT works, and refused when they differ from the computation.
  @InputField('line_total', 'money', { description: 'read-only: quantity × unit_price' }) lineTotal?: number;
  @InputField('tax_amount', 'money', { description: 'read-only: line_total × tax_rate %' }) taxAmount?: number;
}

/** The fields every totals computation takes: preview, create and update alike. */
@InputType('InvoiceAmountsInput')
export class InvoiceAmountsInput {
  @InputField('line_items', 'object', { type: () => InvoiceLineItemInput, list: true, nullable: true }) lineItems?: InvoiceLineItemInput[] | null;
  @InputField('subtotal', 'money', { nullable: true, description: 'calculated from line_items when omitted' }) subtotal?: number | null;
  @InputField('tax_amount', 'money', { nullable: true, description: 'overrides the calculated tax' }) taxAmount?: number | null;
  @InputField('discount_amount', 'money', { default: 0 }) discountAmount?: number;
  @InputField('invoice_type', 'enum', { enum: InvoiceType, default: 'Full' }) invoiceType?: InvoiceType;
  @InputField('progress_percentage', 'number', { nullable: true, check: progressCheck, description: "required for 'Progress' invoices" })
  progressPercentage?: number | null;
}

// The preview also takes the create body (a dry run of create: the same input gives the same
// numbers). Only the amounts and the job count; references sent must be the company's and agree
// as on create; the other fields are checked like create's and otherwise ignored.
@InputType('InvoicePreviewInput')
export class InvoicePreviewInput extends InvoiceAmountsInput {
  @InputField('job_uuid', 'uuid', { nullable: true, description: 'its amounts are used when line_items is omitted' }) jobUuid?: string | null;
  @InputField('customer_uuid', 'uuid', opt) customerUuid?: string | null;
  @InputField('estimate_uuid', 'uuid', opt) estimateUuid?: string | null;
  @InputField('location_uuid', 'uuid', opt) locationUuid?: string | null;
  @InputField('issue_date', 'date') issueDate?: string;
  @InputField('due_date', 'date') dueDate?: string;
  @InputField('notes', 'text', opt) notes?: string | null;
  @InputField('terms', 'text', opt) terms?: string | null;
  @InputField('internal_notes', 'text', opt) internalNotes?: string | null;
  @InputField('status', 'enum', { enum: InvoiceStatus }) status?: InvoiceStatus;
}

@InputType('InvoiceCreateInput')
export class InvoiceCreateInput extends InvoiceAmountsInput {
  @InputField('job_uuid', 'uuid', { required: true }) jobUuid!: string;
  @InputField('customer_uuid', 'uuid', { required: true }) customerUuid!: string;
  @InputField('due_date', 'date', { required: true }) dueDate!: string;
  @InputField('estimate_uuid', 'uuid', opt) estimateUuid?: string | null;
  @InputField('location_uuid', 'uuid', opt) locationUuid?: string | null;
  @InputField('issue_date', 'date', { description: 'default: today in the company timezone' }) issueDate?: string;
  @InputField('notes', 'text', opt) notes?: string | null;
  @InputField('terms', 'text', opt) terms?: string | null;
  @InputField('internal_notes', 'text', opt) internalNotes?: string | null;
  // Only 'Pending' (default) or 'Draft' on create; by hand on update ('Overdue' never): see the service.
  @InputField('status', 'enum', { enum: InvoiceStatus, default: 'Pending' }) status?: InvoiceStatus;
  @InputField('custom_fields', 'json', customFieldsIn()) customFields?: Record<string, unknown> | null;
  @InputField('external_ids', 'json', externalIdsIn()) externalIds?: Record<string, string | null> | null;
}

export const InvoiceUpdateInput = PartialInput(InvoiceCreateInput, 'InvoiceUpdateInput');
export type InvoiceUpdateInput = InstanceType<typeof InvoiceUpdateInput>;

@ArgsType()
export class InvoiceListArgs extends ListArgs {
  @InputField('status', 'enum', { enum: InvoiceStatusFilter, list: true, description: "'All' is no filter" }) status?: InvoiceStatusFilter[];
  @InputField('customer_uuid', 'uuid') customerUuid?: string;
  @InputField('job_uuid', 'uuid') jobUuid?: string;
  @InputField('search', 'string', { nullable: true, description: 'matches invoice_number' }) search?: string | null;
  @InputField('cf', 'object', customFieldFilters()) customFields?: CustomFieldFilter[];
}

@ObjectType('InvoicePreviewTotals')
export class InvoicePreviewTotals {
  @ApiField('subtotal', 'money') subtotal!: number;
  @ApiField('tax_amount', 'money') taxAmount!: number;
  @ApiField('discount_amount', 'money') discountAmount!: number;
  @ApiField('total_amount', 'money') totalAmount!: number;
  @ApiField('balance_amount', 'money') balanceAmount!: number;
}

@ObjectType('InvoicePreviewBreakdown')
export class InvoicePreviewBreakdown {
  @ApiField('line_items', 'object', { type: () => InvoiceLineItem, list: true }) lineItems!: InvoiceLineItem[];
}

@ObjectType('InvoicePreview')
export class InvoicePreview {
  @ApiField('preview', 'object', { type: () => InvoicePreviewTotals }) preview!: InvoicePreviewTotals;
  @ApiField('breakdown', 'object', { type: () => InvoicePreviewBreakdown }) breakdown!: InvoicePreviewBreakdown;
}
