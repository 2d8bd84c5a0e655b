import { customFieldsIn, externalIdsIn } from '../custom-field/custom-data';
import { ArgsType, InputType } from 'type-graphql';
import { InputField } from '../../schema/fields';
import { PartialInput } from '../../schema/inputs';
import { US_STATE_CODES } from '../../domain/us-states';
import { isTimeZone } from '../../domain/values';
import { CustomFieldFilter, customFieldFilters } from '../custom-field/custom-field.inputs';
import { ListArgs } from '../../schema/pagination';
import { DEFAULT_TIMEZONE } from '../company/company.rules';

const opt = { nullable: true } as const;

@InputType('LocationCreateInput')
export class LocationCreateInput {
  @InputField('name', 'string', { required: true }) name!: string;
  @InputField('location_code', 'string', opt) locationCode?: string | null;
  @InputField('address1', 'string', { required: true }) address1!: string;
  @InputField('address2', 'string', opt) address2?: string | null;
  @InputField('city', 'string', { required: true }) city!: string;
  @InputField('state', 'string', {
    required: true,
    transform: (v: string) => v.toUpperCase(),
    check: (v) => (US_STATE_CODES.has(v) ? null : 'must be a two-letter US state code'),
  })
  state!: string;
  @InputField('zip', 'string', { required: true, check: (v) => (/^\d{5}(-\d{4})?$/.test(v) ? null : 'must be 12345 or 12345-6789') })
  zip!: string;
  @InputField('phone', 'phone', opt) phone?: string | null;
  @InputField('timezone', 'string', { default: DEFAULT_TIMEZONE, check: (v) => (isTimeZone(v) ? null : 'must be an IANA time zone name') })
  timezone?: string;
  @InputField('business_hours', 'json', opt) businessHours?: object | null;
  @InputField('default_tax_rules', 'json', opt) defaultTaxRules?: object | null;
  @InputField('service_types_offered', 'json', { nullable: true, jsonArray: true }) serviceTypesOffered?: object | null;
  @InputField('default_pricing_set_uuid', 'uuid', opt) defaultPricingSetUuid?: string | null;
  @InputField('is_primary', 'boolean', { default: false }) isPrimary?: boolean;
  @InputField('custom_fields', 'json', customFieldsIn()) customFields?: Record<string, unknown> | null;
  @InputField('external_ids', 'json', externalIdsIn()) externalIds?: Record<string, string | null> | null;
}

@InputType('LocationUpdateBase')
class LocationUpdateFields extends LocationCreateInput {
  @InputField('is_active', 'boolean') isActive?: boolean;
}

export const LocationUpdateInput = PartialInput(LocationUpdateFields, 'LocationUpdateInput');
export type LocationUpdateInput = InstanceType<typeof LocationUpdateInput>;

@ArgsType()
export class LocationListArgs extends ListArgs {
  @InputField('cf', 'object', customFieldFilters()) customFields?: CustomFieldFilter[];
}
