import { Entity, ManyToOne, Property } from '@mikro-orm/core';
import { ShowsResource } from '../../schema/access';
import { ObjectType, registerEnumType } from 'type-graphql';
import { ApiField } from '../../schema/fields';
import { TenantEntity, TenantScoped, TIMESTAMP } from '../../data/base.entity';
import { MoneyType } from '../../schema/money-type';
import { fromCents } from '../../domain/money';
import { GlobalId, Node } from '../../schema/global-id';
import { Customer } from '../customer/customer.entity';
import { Job } from '../job/job.entity';
import { Location } from '../location/location.entity';

export enum RecurringStatus {
  ACTIVE = 'active',
  PAUSED = 'paused',
  ENDED = 'ended',
}
registerEnumType(RecurringStatus, { name: 'RecurringInvoiceStatus' });

/** A line of the invoices an agreement creates, as sent (their totals are computed on each invoice). */
@ObjectType('RecurringInvoiceLine')
export class RecurringInvoiceLine {
  @ApiField('description', 'string', { nullable: true }) description!: string | null;
  @ApiField('quantity', 'number') quantity!: number;
  @ApiField('unit_price', 'money') unitPrice!: number;
  @ApiField('tax_rate', 'number') taxRate!: number;
}

// A fresh options object each time: MikroORM writes into the one it is given.
const text = () => ({ type: 'text', nullable: true }) as const;

/**
 * A service agreement (docs/recurring-work.md): on each occurrence of `rrule` (at 06:00 in its
 * time zone) one invoice is created from it. `next_issue_date`, `last_issued_at` and
 * `invoices_count` are kept by the background task.
 */
@ObjectType({ implements: Node })
@ShowsResource('recurring_invoices')
@GlobalId()
@TenantScoped()
@Entity({ tableName: 'recurring_invoices' })
export class RecurringInvoice extends TenantEntity {
  @ManyToOne(() => Customer, { fieldName: 'customer_uuid' }) customer!: Customer;
  @ApiField('customer_uuid', 'uuid', { reads: ['customer'] }) get customerUuid(): string {
    return this.customer?.uuid;
  }

  @ManyToOne(() => Location, { fieldName: 'location_uuid', nullable: true }) location: Location | null = null;
  @ApiField('location_uuid', 'uuid', { nullable: true, reads: ['location'] }) get locationUuid(): string | null {
    return this.location?.uuid ?? null;
  }

  @ManyToOne(() => Job, { fieldName: 'job_uuid' }) job!: Job;
  @ApiField('job_uuid', 'uuid', { reads: ['job'] }) get jobUuid(): string {
    return this.job?.uuid;
  }

  @ApiField('rrule', 'string') @Property({ type: 'text' }) rrule!: string;
  @ApiField('starts_on', 'date') @Property({ type: 'string', columnType: 'date' }) startsOn!: string;
  @ApiField('timezone', 'string') @Property({ type: 'text' }) timezone!: string;
  @ApiField('line_items', 'object', { type: () => RecurringInvoiceLine, list: true, nullable: true })
  @Property({ type: 'json', nullable: true })
  lineItems: RecurringInvoiceLine[] | null = null;

  @Property({ type: MoneyType, fieldName: 'discount_amount' }) discountAmountCents = 0;
  @ApiField('discount_amount', 'money', { reads: ['discountAmountCents'] }) get discountAmount(): number {
    return fromCents(this.discountAmountCents);
  }

  @ApiField('notes', 'text', { nullable: true }) @Property(text()) notes: string | null = null;
  @ApiField('terms', 'text', { nullable: true }) @Property(text()) terms: string | null = null;
  @ApiField('due_days', 'int') @Property({ type: 'integer' }) dueDays = 30;
  @ApiField('auto_send', 'boolean') @Property({ type: 'boolean' }) autoSend = false;
  @ApiField('status', 'enum', { enum: RecurringStatus }) @Property({ type: 'text' }) status: RecurringStatus = RecurringStatus.ACTIVE;
  @ApiField('next_issue_date', 'date', { nullable: true }) @Property({ type: 'string', columnType: 'date', nullable: true }) nextIssueDate: string | null = null;
  @ApiField('last_issued_at', 'datetime', { nullable: true }) @Property({ ...TIMESTAMP, nullable: true }) lastIssuedAt: Date | null = null;
  @ApiField('invoices_count', 'int') @Property({ type: 'integer' }) invoicesCount = 0;
}
