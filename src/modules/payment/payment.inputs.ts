import { externalIdsIn } from '../custom-field/custom-data';
import { ArgsType, InputType } from 'type-graphql';
import { InputField } from '../../schema/fields';
import { PartialInput } from '../../schema/inputs';
import { ListArgs } from '../../schema/pagination';
import { PaymentStatus, PaymentType } from './payment.entity';

const opt = { nullable: true } as const;

@InputType('PaymentCreateInput')
export class PaymentCreateInput {
  @InputField('invoice_uuid', 'uuid', { required: true }) invoiceUuid!: string;
  @InputField('payment_type', 'enum', { enum: PaymentType, required: true }) paymentType!: PaymentType;
  @InputField('amount', 'money', { required: true, check: (v) => (v > 0 ? null : 'must be greater than 0') }) amount!: number;
  @InputField('payment_date', 'date', { required: true }) paymentDate!: string;
  @InputField('payment_method', 'string', opt) paymentMethod?: string | null;
  @InputField('processing_fee', 'money', { default: 0, description: 'at most amount' }) processingFee?: number;
  @InputField('transaction_id', 'string', opt) transactionId?: string | null;
  @InputField('reference_number', 'string', opt) referenceNumber?: string | null;
  @InputField('authorization_code', 'string', opt) authorizationCode?: string | null;
  @InputField('payment_details', 'json', opt) paymentDetails?: object | null;
  @InputField('notes', 'text', opt) notes?: string | null;
  // 'Completed' (default) or 'Pending' on create; any status on update.
  @InputField('status', 'enum', { enum: PaymentStatus, default: 'Completed' }) status?: PaymentStatus;
  @InputField('processed_at', 'datetime', { nullable: true, description: "default: now when 'Completed'" }) processedAt?: Date | null;
  @InputField('external_ids', 'json', externalIdsIn()) externalIds?: Record<string, string | null> | null;
}

// invoice_uuid cannot change.
export const PaymentUpdateInput = PartialInput(PaymentCreateInput, 'PaymentUpdateInput', ['invoiceUuid']);
export type PaymentUpdateInput = InstanceType<typeof PaymentUpdateInput>;

@ArgsType()
export class PaymentListArgs extends ListArgs {
  @InputField('invoice_uuid', 'uuid') invoiceUuid?: string;
  @InputField('customer_uuid', 'uuid') customerUuid?: string;
  @InputField('payment_type', 'enum', { enum: PaymentType, list: true }) paymentType?: PaymentType[];
  @InputField('status', 'enum', { enum: PaymentStatus, list: true }) status?: PaymentStatus[];
}
