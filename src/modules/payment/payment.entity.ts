import { externalIdsOut } from '../custom-field/custom-data';
import { Entity, ManyToOne, Property } from '@mikro-orm/core';
import { ShowsResource } from '../../schema/access';
import { ObjectType, registerEnumType } from 'type-graphql';
import { ApiField } from '../../schema/fields';
import { byNumber, Sortable } from '../../schema/sorting';
import { TenantEntity, TenantScoped, TIMESTAMP } from '../../data/base.entity';
import { MoneyType } from '../../schema/money-type';
import { fromCents } from '../../domain/money';
import { Customer } from '../customer/customer.entity';
import { Invoice } from '../invoice/invoice.entity';
import { User } from '../user/user.entity';
import { GlobalId, Node } from '../../schema/global-id';

export enum PaymentType {
  CREDIT_CARD = 'credit_card',
  ACH = 'ach',
  CHECK = 'check',
  CASH = 'cash',
  OTHER = 'other',
}
registerEnumType(PaymentType, { name: 'PaymentType' });

export enum PaymentStatus {
  PENDING = 'Pending',
  COMPLETED = 'Completed',
  FAILED = 'Failed',
  REFUNDED = 'Refunded',
}
registerEnumType(PaymentStatus, { name: 'PaymentStatus' });

const text = () => ({ type: 'text', nullable: true }) as const;

@ObjectType({ implements: Node })
@ShowsResource('payments')
@GlobalId()
@TenantScoped()
// The fields its lists sort by (docs/conventions.md, Lists).
@Sortable({ payment_number: byNumber('paymentNumber'), amount: 'amountCents', payment_date: 'paymentDate' })
@Entity({ tableName: 'payments' })
export class Payment extends TenantEntity {
  // A per-company sequence ("1", "2", …) assigned at create; read-only.
  @ApiField('payment_number', 'string', { nullable: true }) @Property({ type: 'text' }) paymentNumber!: string;

  @ManyToOne(() => Invoice, { fieldName: 'invoice_uuid' }) invoice!: Invoice;
  @ApiField('invoice_uuid', 'uuid', { reads: ['invoice'] }) get invoiceUuid(): string {
    return this.invoice?.uuid;
  }

  // Always the invoice's customer.
  @ManyToOne(() => Customer, { fieldName: 'customer_uuid' }) customer!: Customer;
  @ApiField('customer_uuid', 'uuid', { reads: ['customer'] }) get customerUuid(): string {
    return this.customer?.uuid;
  }

  @ApiField('payment_type', 'enum', { enum: PaymentType }) @Property({ type: 'text' }) paymentType!: PaymentType;
  @ApiField('payment_method', 'string', { nullable: true }) @Property(text()) paymentMethod: string | null = null;

  @Property({ type: MoneyType, fieldName: 'amount' }) amountCents!: number;
  @Property({ type: MoneyType, fieldName: 'processing_fee' }) processingFeeCents = 0;
  // Refunded through Stripe (docs/payments.md); a Completed payment counts amount − refunded_amount.
  @Property({ type: MoneyType, fieldName: 'refunded_amount' }) refundedAmountCents = 0;

  @ApiField('amount', 'money', { reads: ['amountCents'] }) get amount(): number {
    return fromCents(this.amountCents);
  }
  @ApiField('processing_fee', 'money', { reads: ['processingFeeCents'] }) get processingFee(): number {
    return fromCents(this.processingFeeCents);
  }
  @ApiField('refunded_amount', 'money', { reads: ['refundedAmountCents'], description: 'Refunded through Stripe; fully refunded: status Refunded' }) get refundedAmount(): number {
    return fromCents(this.refundedAmountCents);
  }
  @ApiField('net_amount', 'money', { reads: ['amountCents', 'processingFeeCents'] }) get netAmount(): number {
    return fromCents(this.amountCents - this.processingFeeCents);
  }

  @ApiField('payment_date', 'date') @Property({ type: 'string', columnType: 'date' }) paymentDate!: string;
  @ApiField('transaction_id', 'string', { nullable: true }) @Property(text()) transactionId: string | null = null;
  @ApiField('reference_number', 'string', { nullable: true }) @Property(text()) referenceNumber: string | null = null;
  @ApiField('authorization_code', 'string', { nullable: true }) @Property(text()) authorizationCode: string | null = null;
  @ApiField('payment_details', 'json', { nullable: true }) @Property({ type: 'json', nullable: true }) paymentDetails: object | null = null;
  @ApiField('notes', 'text', { nullable: true }) @Property(text()) notes: string | null = null;

  @ApiField('status', 'enum', { enum: PaymentStatus }) @Property({ type: 'text' }) status: PaymentStatus = PaymentStatus.COMPLETED;
  @ApiField('processed_at', 'datetime', { nullable: true }) @Property({ ...TIMESTAMP, nullable: true }) processedAt: Date | null = null;

  // Null for a payment recorded from Stripe's events (no user made it).
  @ManyToOne(() => User, { fieldName: 'created_by_user_id', nullable: true }) createdBy: User | null = null;
  @ApiField('created_by_user_id', 'uuid', { reads: ['createdBy'], nullable: true }) get createdByUserId(): string | null {
    return this.createdBy?.id ?? null;
  }

  // External ids (docs/custom-fields.md).
  @ApiField('external_ids', 'json', externalIdsOut()) @Property({ type: 'json' }) externalIds: Record<string, string> = {};
}
