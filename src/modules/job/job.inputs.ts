import { customFieldsIn, externalIdsIn, tagsIn } from '../custom-field/custom-data';
import { ArgsType, InputType } from 'type-graphql';
import { InputField } from '../../schema/fields';
import { PartialInput } from '../../schema/inputs';
import { ListArgs } from '../../schema/pagination';
import { isDateOnly, parseTimestamp } from '../../domain/values';
import { CustomFieldFilter, customFieldFilters } from '../custom-field/custom-field.inputs';
import { JobPriority, JobStatus } from './job.entity';

const opt = { nullable: true } as const;

// scheduled_date takes YYYY-MM-DD or an RFC 3339 timestamp; the service keeps the date in the
// company timezone.
const scheduledDate = (v: string) => (isDateOnly(v) || parseTimestamp(v) ? null : 'must be a date YYYY-MM-DD or an RFC 3339 timestamp with an offset');

@InputType('JobCreateInput')
export class JobCreateInput {
  @InputField('customer_uuid', 'uuid', { required: true }) customerUuid!: string;
  @InputField('title', 'string', { required: true }) title!: string;
  @InputField('location_uuid', 'uuid', opt) locationUuid?: string | null;
  @InputField('assigned_to_user_id', 'uuid', opt) assignedToUserId?: string | null;
  @InputField('description', 'text', opt) description?: string | null;
  @InputField('status', 'enum', { enum: JobStatus, default: 'New' }) status?: JobStatus;
  @InputField('priority', 'enum', { enum: JobPriority, default: 'Normal' }) priority?: JobPriority;
  @InputField('is_urgent', 'boolean', { default: false }) isUrgent?: boolean;
  @InputField('is_emergency', 'boolean', { default: false }) isEmergency?: boolean;
  @InputField('service_address1', 'string', opt) serviceAddress1?: string | null;
  @InputField('service_address2', 'string', opt) serviceAddress2?: string | null;
  @InputField('service_city', 'string', opt) serviceCity?: string | null;
  @InputField('service_state', 'string', opt) serviceState?: string | null;
  @InputField('service_zip', 'string', opt) serviceZip?: string | null;
  @InputField('estimated_amount', 'money', opt) estimatedAmount?: number | null;
  @InputField('actual_amount', 'money', opt) actualAmount?: number | null;
  @InputField('scheduled_date', 'string', { ...opt, check: scheduledDate, description: 'YYYY-MM-DD, or a timestamp (its date in the company timezone)' })
  scheduledDate?: string | null;
  @InputField('scheduled_time_start', 'time', opt) scheduledTimeStart?: string | null;
  @InputField('scheduled_time_end', 'time', opt) scheduledTimeEnd?: string | null;
  @InputField('started_at', 'datetime', opt) startedAt?: Date | null;
  @InputField('completed_at', 'datetime', opt) completedAt?: Date | null;
  @InputField('invoiced_at', 'datetime', opt) invoicedAt?: Date | null;
  @InputField('paid_at', 'datetime', opt) paidAt?: Date | null;
  @InputField('internal_notes', 'text', opt) internalNotes?: string | null;
  @InputField('customer_notes', 'text', opt) customerNotes?: string | null;
  @InputField('custom_fields', 'json', customFieldsIn()) customFields?: Record<string, unknown> | null;
  @InputField('external_ids', 'json', externalIdsIn()) externalIds?: Record<string, string | null> | null;
  @InputField('tags', 'string', tagsIn()) tags?: string[] | null;
}

export const JobUpdateInput = PartialInput(JobCreateInput, 'JobUpdateInput');
export type JobUpdateInput = InstanceType<typeof JobUpdateInput>;

@ArgsType()
export class JobListArgs extends ListArgs {
  @InputField('status', 'enum', { enum: JobStatus, list: true, description: 'One status or several (comma-separated in REST)' })
  status?: JobStatus[];
  @InputField('location_uuid', 'uuid') locationUuid?: string;
  @InputField('customer_uuid', 'uuid') customerUuid?: string;
  @InputField('assigned_to_user_id', 'uuid') assignedToUserId?: string;
  @InputField('priority', 'enum', { enum: JobPriority, list: true, description: 'One priority or several (comma-separated in REST)' })
  priority?: JobPriority[];
  // An empty search is no search, as on customers.
  @InputField('search', 'string', { nullable: true, description: 'Substring of title, description or job_number' }) search?: string | null;
  @InputField('cf', 'object', customFieldFilters()) customFields?: CustomFieldFilter[];
  @InputField('tags', 'string', { list: true, description: 'Tags, comma-separated in REST: records with any of them (case-insensitive)' }) tags?: string[];
}
