import { Entity, Formula, ManyToOne, Property } from '@mikro-orm/core';
import { ObjectType, registerEnumType } from 'type-graphql';
import { ApiField } from '../../schema/fields';
import { byNumber, Sortable } from '../../schema/sorting';
import { TenantEntity, TenantScoped } from '../../schema/base.entity';
import { MoneyType } from '../../schema/money-type';
import { fromCents } from '../../domain/money';
import { Customer } from '../customer/customer.entity';
import { Estimate } from '../estimate/estimate.entity';
import { Job } from '../job/job.entity';
import { Location } from '../location/location.entity';
import { GlobalId, Node } from '../../schema/global-id';

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

/**
 * "Today" in the company timezone (primary location's, else America/New_York), as SQL (docs/conventions.md),
 * for the company whose uuid the SQL expression `companyUuid` gives.
 */
export const companyTodaySqlOf = (companyUuid: string) =>
  `(now() at time zone coalesce((select l.timezone from locations l where l.company_uuid = ${companyUuid}
     and l.is_primary and l.deleted_at is null limit 1), 'America/New_York'))::date`;

/** The company's "today" of the invoice row under `invoiceAlias`. */
export const companyTodaySql = (invoiceAlias: string) => companyTodaySqlOf(`${invoiceAlias}.company_uuid`);

/** A stored line item as both surfaces show it: with its computed line total and tax. */
@ObjectType('InvoiceLineItem')
export class InvoiceLineItem {
  @ApiField('description', 'string', { nullable: true }) description!: string | null;
  @ApiField('quantity', 'number') quantity!: number;
  @ApiField('unit_price', 'money') unitPrice!: number;
  @ApiField('line_total', 'money') lineTotal!: number;
  @ApiField('tax_rate', 'number') taxRate!: number;
  @ApiField('tax_amount', 'money') taxAmount!: number;
}

const text = () => ({ type: 'text', nullable: true }) as const;
const money = (fieldName: string) => ({ type: MoneyType, fieldName });

@ObjectType({ implements: Node })
@GlobalId()
@TenantScoped()
// The fields its lists sort by (docs/conventions.md, Lists).
@Sortable({ invoice_number: byNumber('invoiceNumber'), issue_date: 'issueDate', due_date: 'dueDate', total_amount: 'totalAmountCents', balance_amount: 'balanceAmountCents' })
@Entity({ tableName: 'invoices' })
export class Invoice extends TenantEntity {
  @ApiField('invoice_number', 'string', { nullable: true }) @Property({ type: 'text' }) invoiceNumber!: string;

  @ManyToOne(() => Customer, { fieldName: 'customer_uuid' }) customer!: Customer;
  @ApiField('customer_uuid', 'uuid') get customerUuid(): string {
    return this.customer?.uuid;
  }

  @ManyToOne(() => Job, { fieldName: 'job_uuid', nullable: true }) job: Job | null = null;
  @ApiField('job_uuid', 'uuid', { nullable: true }) get jobUuid(): string | null {
    return this.job?.uuid ?? null;
  }

  @ManyToOne(() => Estimate, { fieldName: 'estimate_uuid', nullable: true }) estimate: Estimate | null = null;
  @ApiField('estimate_uuid', 'uuid', { nullable: true }) get estimateUuid(): string | null {
    return this.estimate?.uuid ?? null;
  }

  @ManyToOne(() => Location, { fieldName: 'location_uuid', nullable: true }) location: Location | null = null;
  @ApiField('location_uuid', 'uuid', { nullable: true }) get locationUuid(): string | null {
    return this.location?.uuid ?? null;
  }

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

  @ApiField('subtotal', 'money') get subtotal(): number {
    return fromCents(this.subtotalCents);
  }
  @ApiField('tax_amount', 'money') get taxAmount(): number {
    return fromCents(this.taxAmountCents);
  }
  @ApiField('discount_amount', 'money') get discountAmount(): number {
    return fromCents(this.discountAmountCents);
  }
  @ApiField('total_amount', 'money') get totalAmount(): number {
    return fromCents(this.totalAmountCents);
  }
  @ApiField('paid_amount', 'money') get paidAmount(): number {
    return fromCents(this.paidAmountCents);
  }
  @ApiField('balance_amount', 'money') get balanceAmount(): number {
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

  /** The company's "today", read with the row so that every read judges overdue alike. */
  @Formula((t) => `${companyTodaySql(t.alias)}::text`, { type: 'string', lazy: false })
  companyToday?: string;

  // A Pending invoice past its due date with a balance reads as 'Overdue'; a draft never does.
  @ApiField('status', 'enum', { enum: InvoiceStatus })
  get status(): InvoiceStatus {
    if (isOverdue(this.storedStatus, this.balanceAmountCents, this.dueDate, this.companyToday)) return InvoiceStatus.OVERDUE;
    return this.storedStatus;
  }
}

export function isOverdue(stored: InvoiceStatus, balanceCents: number, dueDate: string, today: string | undefined): boolean {
  return stored === InvoiceStatus.PENDING && balanceCents > 0 && !!today && dueDate < today;
}
