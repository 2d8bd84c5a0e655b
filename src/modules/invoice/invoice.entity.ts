import { customFieldsOut, externalIdsOut } from '../custom-field/custom-data';
import { Entity, Formula, ManyToOne, Property } from '@mikro-orm/core';
import { ShowsResource } from '../../schema/access';
import { ObjectType, registerEnumType } from 'type-graphql';
import { ApiField } from '../../schema/fields';
import { byNumber, Sortable } from '../../schema/sorting';
import { TenantEntity, TenantScoped } from '../../data/base.entity';
import { MoneyType } from '../../schema/money-type';
import { fromCents, MAX_CENTS } from '../../domain/money';
import { Customer } from '../customer/customer.entity';
import { Estimate } from '../estimate/estimate.entity';
import { Job } from '../job/job.entity';
import { Location } from '../location/location.entity';
import { GlobalId, Node } from '../../schema/global-id';
import { invoiceTodaySql, isOverdue } from './invoice.rules';

export enum InvoiceStatus {
  DRAFT = 'Draft',
  PENDING = 'Pending',
  PAID = 'Paid',
  OVERDUE = 'Overdue',
}
registerEnumType(InvoiceStatus, { name: 'InvoiceStatus' });

export enum InvoiceType {
  FULL = 'Full',
  PARTIAL = 'Partial',
  PROGRESS = 'Progress',
}
registerEnumType(InvoiceType, { name: 'InvoiceType' });

/** A stored line item as both surfaces show it: with its computed line total and tax. */
@ObjectType('InvoiceLineItem')
export class InvoiceLineItem {
  @ApiField('description', 'string', { nullable: true }) description!: string | null;
  @ApiField('quantity', 'number') quantity!: number;
  // Negative only on a line that deducts a paid deposit (docs/payments.md).
  @ApiField('unit_price', 'money', { min: -fromCents(MAX_CENTS), description: 'negative on a deducted deposit line' }) unitPrice!: number;
  @ApiField('line_total', 'money', { min: -fromCents(MAX_CENTS), description: 'negative on a deducted deposit line' }) lineTotal!: number;
  @ApiField('tax_rate', 'number') taxRate!: number;
  @ApiField('tax_amount', 'money') taxAmount!: number;
}

const text = () => ({ type: 'text', nullable: true }) as const;
const money = (fieldName: string) => ({ type: MoneyType, fieldName });

@ObjectType({ implements: Node })
@ShowsResource('invoices')
@GlobalId()
@TenantScoped()
// The fields its lists sort by (docs/conventions.md, Lists).
@Sortable({ invoice_number: byNumber('invoiceNumber'), issue_date: 'issueDate', due_date: 'dueDate', total_amount: 'totalAmountCents', balance_amount: 'balanceAmountCents' })
@Entity({ tableName: 'invoices' })
export class Invoice extends TenantEntity {
  @ApiField('invoice_number', 'string', { nullable: true }) @Property({ type: 'text' }) invoiceNumber!: string;

  @ManyToOne(() => Customer, { fieldName: 'customer_uuid' }) customer!: Customer;
  @ApiField('customer_uuid', 'uuid', { reads: ['customer'] }) get customerUuid(): string {
    return this.customer?.uuid;
  }

  @ManyToOne(() => Job, { fieldName: 'job_uuid', nullable: true }) job: Job | null = null;
  @ApiField('job_uuid', 'uuid', { nullable: true, reads: ['job'] }) get jobUuid(): string | null {
    return this.job?.uuid ?? null;
  }

  @ManyToOne(() => Estimate, { fieldName: 'estimate_uuid', nullable: true }) estimate: Estimate | null = null;
  @ApiField('estimate_uuid', 'uuid', { nullable: true, reads: ['estimate'] }) get estimateUuid(): string | null {
    return this.estimate?.uuid ?? null;
  }

  @ManyToOne(() => Location, { fieldName: 'location_uuid', nullable: true }) location: Location | null = null;
  @ApiField('location_uuid', 'uuid', { nullable: true, reads: ['location'] }) get locationUuid(): string | null {
    return this.location?.uuid ?? null;
  }

  // Created by a service agreement (docs/recurring-work.md); unique with issue_date.
  @ApiField('recurring_invoice_uuid', 'uuid', { nullable: true }) @Property({ type: 'uuid', nullable: true }) recurringInvoiceUuid: string | null = null;

  @ApiField('invoice_type', 'enum', { enum: InvoiceType }) @Property({ type: 'text' }) invoiceType: InvoiceType = InvoiceType.FULL;
  @ApiField('progress_percentage', 'number', { nullable: true })
  @Property({ type: 'double', runtimeType: 'number', columnType: 'numeric(7,4)', nullable: true })
  progressPercentage: number | null = null;

  @ApiField('issue_date', 'date') @Property({ type: 'string', columnType: 'date' }) issueDate!: string;
  @ApiField('due_date', 'date') @Property({ type: 'string', columnType: 'date' }) dueDate!: string;

  @Property(money('subtotal')) subtotalCents = 0;
  @Property(money('tax_amount')) taxAmountCents = 0;
  @Property(money('discount_amount')) discountAmountCents = 0;
  @Property(money('total_amount')) totalAmountCents = 0;
  @Property(money('paid_amount')) paidAmountCents = 0;
  @Property(money('balance_amount')) balanceAmountCents = 0;

  @ApiField('subtotal', 'money', { reads: ['subtotalCents'] }) get subtotal(): number {
    return fromCents(this.subtotalCents);
  }
  @ApiField('tax_amount', 'money', { reads: ['taxAmountCents'] }) get taxAmount(): number {
    return fromCents(this.taxAmountCents);
  }
  @ApiField('discount_amount', 'money', { reads: ['discountAmountCents'] }) get discountAmount(): number {
    return fromCents(this.discountAmountCents);
  }
  @ApiField('total_amount', 'money', { reads: ['totalAmountCents'] }) get totalAmount(): number {
    return fromCents(this.totalAmountCents);
  }
  @ApiField('paid_amount', 'money', { reads: ['paidAmountCents'] }) get paidAmount(): number {
    return fromCents(this.paidAmountCents);
  }
  @ApiField('balance_amount', 'money', { reads: ['balanceAmountCents'] }) get balanceAmount(): number {
    return fromCents(this.balanceAmountCents);
  }

  /** Stored with each line's computed line_total and tax_amount (dollars, as on the wire). */
  @ApiField('line_items', 'object', { type: () => InvoiceLineItem, list: true, nullable: true })
  @Property({ type: 'json', nullable: true })
  lineItems: InvoiceLineItem[] | null = null;

  @ApiField('notes', 'text', { nullable: true }) @Property(text()) notes: string | null = null;
  @ApiField('terms', 'text', { nullable: true }) @Property(text()) terms: string | null = null;
  @ApiField('internal_notes', 'text', { nullable: true }) @Property(text()) internalNotes: string | null = null;

  /** Draft, Pending or Paid as stored; 'Overdue' is derived in `status`. */
  @Property({ type: 'text', fieldName: 'status' }) storedStatus: InvoiceStatus = InvoiceStatus.PENDING;

  /** The company's "today", read with the row so that every read judges overdue alike (invoice.rules.ts). */
  @Formula((t) => `${invoiceTodaySql(t.alias)}::text`, { type: 'string', lazy: false })
  companyToday?: string;

  // A Pending invoice past its due date with a balance reads as 'Overdue' (isOverdue, invoice.rules.ts).
  @ApiField('status', 'enum', { enum: InvoiceStatus, reads: ['balanceAmountCents', 'companyToday', 'dueDate', 'storedStatus'] })
  get status(): InvoiceStatus {
    if (isOverdue(this.storedStatus, this.balanceAmountCents, this.dueDate, this.companyToday)) return InvoiceStatus.OVERDUE;
    return this.storedStatus;
  }

  // Custom data (docs/custom-fields.md): the company's fields, the values of deleted definitions kept apart, external ids.
  @ApiField('custom_fields', 'json', customFieldsOut()) @Property({ type: 'json' }) customFields: Record<string, unknown> = {};
  @Property({ type: 'json', fieldName: 'custom_fields_hidden' }) customFieldsHidden: Record<string, unknown> = {};
  @ApiField('external_ids', 'json', externalIdsOut()) @Property({ type: 'json' }) externalIds: Record<string, string> = {};
}
