import { Entity, ManyToOne, Property } from '@mikro-orm/core';
import { ObjectType, registerEnumType } from 'type-graphql';
import { ApiField } from '../../schema/fields';
import { byNumber, Sortable } from '../../schema/sorting';
import { TenantEntity, TenantScoped, TIMESTAMP } from '../../schema/base.entity';
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
@GlobalId()
@TenantScoped()
// The fields its lists sort by (docs/conventions.md, Lists).
@Sortable({ payment_number: byNumber('paymentNumber'), amount: 'amountCents', payment_date: 'paymentDate' })
@Entity({ tableName: 'payments' })
export class Payment extends TenantEntity {
  // A per-company sequence ("1", "2", …) assigned at create; read-only.
  @ApiField('payment_number', 'string', { nullable: true }) @Property({ type: 'text' }) paymentNumber!: string;

  @ManyToOne(() => Invoice, { fieldName: 'invoice_uuid' }) invoice!: Invoice;
  @ApiField('invoice_uuid', 'uuid') get invoiceUuid(): string {
    return this.invoice?.uuid;
  }

  // Always the invoice's customer.
  @ManyToOne(() => Customer, { fieldName: 'customer_uuid' }) customer!: Customer;
  @ApiField('customer_uuid', 'uuid') get customerUuid(): string {
    return this.customer?.uuid;
  }

  @ApiField('payment_type', 'enum', { enum: PaymentType }) @Property({ type: 'text' }) paymentType!: PaymentType;
  @ApiField('payment_method', 'string', { nullable: true }) @Property(text()) paymentMethod: string | null = null;

  @Property({ type: MoneyType, fieldName: 'amount' }) amountCents!: number;
  @Property({ type: MoneyType, fieldName: 'processing_fee' }) processingFeeCents = 0;

  @ApiField('amount', 'money') get amount(): number {
    return fromCents(this.amountCents);
  }
  @ApiField('processing_fee', 'money') get processingFee(): number {
    return fromCents(this.processingFeeCents);
  }
  @ApiField('net_amount', 'money') get netAmount(): number {
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

  @ManyToOne(() => User, { fieldName: 'created_by_user_id' }) createdBy!: User;
  @ApiField('created_by_user_id', 'uuid') get createdByUserId(): string {
    return this.createdBy?.id;
  }
}
