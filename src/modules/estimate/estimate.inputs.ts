import { customFieldsIn, externalIdsIn } from '../custom-field/custom-data';
import { ArgsType, InputType } from 'type-graphql';
import { InputField } from '../../schema/fields';
import { decimalPlaces } from '../../domain/money';
import { ListArgs } from '../../schema/pagination';
import { isDateOnly, parseTimestamp } from '../../domain/values';
import { EstimateSelectedTier, EstimateStatus } from './estimate.entity';
import { CustomFieldFilter, customFieldFilters } from '../custom-field/custom-field.inputs';
import { adjustmentsToCents } from './estimate.pricing';

const opt = { nullable: true } as const;

const quantity = {
  default: 1,
  check: (v: number) => (v > 0 && v <= 9_999_999_999 && decimalPlaces(v) <= 4 ? null : 'must be greater than 0 with at most 4 decimals'),
} as const;
const selectedAddons = {
  nullable: true,
  list: true,
  description: 'Ids of the template add-ons to include',
  check: (v: unknown) => (Array.isArray(v) ? (v.length <= 100 ? null : 'must hold at most 100 ids') : 'must be an array of add-on ids'),
} as const;
const adjustments = {
  nullable: true,
  description: 'Amounts replacing the computed ones: base_amount, addons_amount, tax_amount',
  check: (v: Record<string, unknown>) => {
    const r = adjustmentsToCents(v);
    return typeof r === 'string' ? r : null;
  },
} as const;
// A timestamp, or a date meaning the end of that day in the company timezone.
const expiresAt = {
  nullable: true,
  description: 'RFC 3339 timestamp, or YYYY-MM-DD (end of that day in the company timezone); null never expires',
  check: (v: string) => (isDateOnly(v) || parseTimestamp(v) ? null : 'must be an RFC 3339 timestamp with an offset or a date YYYY-MM-DD'),
} as const;

// The preview takes the create body too (the same input gives the same numbers); only the pricing
// fields matter, the others are checked like create's and otherwise ignored.
@InputType('EstimatePreviewInput')
export class EstimatePreviewInput {
  @InputField('template_uuid', 'uuid', { required: true }) templateUuid!: string;
  @InputField('selected_tier', 'enum', { enum: EstimateSelectedTier, nullable: true }) selectedTier?: EstimateSelectedTier | null;
  @InputField('quantity', 'number', quantity) quantity?: number;
  @InputField('selected_addons', 'string', selectedAddons) selectedAddons?: string[] | null;
  @InputField('adjustments', 'json', adjustments) adjustments?: Record<string, number> | null;
  @InputField('customer_uuid', 'uuid') customerUuid?: string;
  @InputField('job_uuid', 'uuid', opt) jobUuid?: string | null;
  @InputField('location_uuid', 'uuid', opt) locationUuid?: string | null;
  @InputField('service_description', 'text', opt) serviceDescription?: string | null;
  @InputField('internal_notes', 'text', opt) internalNotes?: string | null;
  @InputField('customer_notes', 'text', opt) customerNotes?: string | null;
  @InputField('expires_at', 'string', expiresAt) expiresAt?: string | null;
}

@InputType('EstimateCreateInput')
export class EstimateCreateInput extends EstimatePreviewInput {
  @InputField('customer_uuid', 'uuid', { required: true }) declare customerUuid: string;
  @InputField('custom_fields', 'json', customFieldsIn()) customFields?: Record<string, unknown> | null;
  @InputField('external_ids', 'json', externalIdsIn()) externalIds?: Record<string, string | null> | null;
}

// The fields an update may change (docs/estimates-and-numbering.md); anything else is refused by name.
@InputType('EstimateUpdateInput')
export class EstimateUpdateInput {
  @InputField('status', 'enum', { enum: EstimateStatus }) status?: EstimateStatus;
  @InputField('response_notes', 'text', opt) responseNotes?: string | null;
  @InputField('service_description', 'text', opt) serviceDescription?: string | null;
  @InputField('internal_notes', 'text', opt) internalNotes?: string | null;
  @InputField('customer_notes', 'text', opt) customerNotes?: string | null;
  @InputField('expires_at', 'string', expiresAt) expiresAt?: string | null;
  @InputField('job_uuid', 'uuid', opt) jobUuid?: string | null;
  @InputField('location_uuid', 'uuid', opt) locationUuid?: string | null;
  @InputField('selected_tier', 'enum', { enum: EstimateSelectedTier, nullable: true }) selectedTier?: EstimateSelectedTier | null;
  @InputField('quantity', 'number', { check: quantity.check }) quantity?: number;
  @InputField('selected_addons', 'string', selectedAddons) selectedAddons?: string[] | null;
  @InputField('adjustments', 'json', adjustments) adjustments?: Record<string, number> | null;
  @InputField('custom_fields', 'json', customFieldsIn()) customFields?: Record<string, unknown> | null;
  @InputField('external_ids', 'json', externalIdsIn()) externalIds?: Record<string, string | null> | null;
}

@ArgsType()
export class EstimateListArgs extends ListArgs {
  @InputField('status', 'enum', { enum: EstimateStatus, list: true, description: 'One status or several (comma-separated in REST)' })
  status?: EstimateStatus[];
  @InputField('customer_uuid', 'uuid') customerUuid?: string;
  @InputField('job_uuid', 'uuid') jobUuid?: string;
  @InputField('search', 'string', { nullable: true, description: 'Substring of estimate_number, template_name or service_description' }) search?: string | null;
  @InputField('cf', 'object', customFieldFilters()) customFields?: CustomFieldFilter[];
}
