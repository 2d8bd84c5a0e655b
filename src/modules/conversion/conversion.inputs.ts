import { InputType, ObjectType } from 'type-graphql';
import { ApiField, InputField } from '../../schema/fields';
import { decimalPlaces } from '../../domain/money';
import { isDateOnly, parseTimestamp } from '../../domain/values';
import { Estimate } from '../estimate/estimate.entity';
import { InvoiceType } from '../invoice/invoice.entity';
import { Job, JobPriority } from '../job/job.entity';

const opt = { nullable: true } as const;
const scheduledDate = (v: string) => (isDateOnly(v) || parseTimestamp(v) ? null : 'must be a date YYYY-MM-DD or an RFC 3339 timestamp with an offset');
const progressCheck = (v: number) => (v > 0 && v <= 100 ? (decimalPlaces(v) <= 4 ? null : 'must have at most 4 decimals') : 'must be greater than 0 and at most 100');

/** The job fields a conversion may set; the rest comes from the estimate (docs/documents.md). */
@InputType('ConvertEstimateInput')
export class ConvertEstimateInput {
  @InputField('title', 'string', { description: "default: the estimate's template name" }) title?: string;
  @InputField('description', 'text', opt) description?: string | null;
  @InputField('scheduled_date', 'string', { ...opt, check: scheduledDate, description: 'YYYY-MM-DD, or a timestamp (its date in the company timezone)' }) scheduledDate?: string | null;
  @InputField('scheduled_time_start', 'time', opt) scheduledTimeStart?: string | null;
  @InputField('scheduled_time_end', 'time', opt) scheduledTimeEnd?: string | null;
  @InputField('assigned_to_user_id', 'uuid', opt) assignedToUserId?: string | null;
  @InputField('priority', 'enum', { enum: JobPriority, default: 'Normal' }) priority?: JobPriority;
}

/** The invoice fields of a job's invoice; lines and amounts come from the job or its estimate. */
@InputType('InvoiceJobInput')
export class InvoiceJobInput {
  @InputField('due_date', 'date', { description: "default: 30 days after the company's today" }) dueDate?: string;
  @InputField('invoice_type', 'enum', { enum: InvoiceType, default: 'Full' }) invoiceType?: InvoiceType;
  @InputField('progress_percentage', 'number', { nullable: true, check: progressCheck, description: "required for 'Progress' invoices" }) progressPercentage?: number | null;
  @InputField('notes', 'text', opt) notes?: string | null;
}

@ObjectType('EstimateConversion')
export class EstimateConversion {
  @ApiField('job', 'object', { type: () => Job }) job!: Job;
  @ApiField('estimate', 'object', { type: () => Estimate }) estimate!: Estimate;
}
