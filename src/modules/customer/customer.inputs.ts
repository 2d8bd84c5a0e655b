import { customFieldsIn, externalIdsIn, tagsIn } from '../custom-field/custom-data';
import { ArgsType, InputType, registerEnumType } from 'type-graphql';
import { InputField } from '../../schema/fields';
import { PartialInput } from '../../schema/inputs';
import { ListArgs } from '../../schema/pagination';
import { CustomFieldFilter, customFieldFilters } from '../custom-field/custom-field.inputs';
import { CustomerOnMyWayNotifyVia, CustomerType } from './customer.entity';

export enum CustomerFilter {
  ALL = 'all',
  RESIDENTIAL = 'residential',
  COMMERCIAL = 'commercial',
  VIP = 'vip',
}
registerEnumType(CustomerFilter, { name: 'CustomerFilter' });

const opt = { nullable: true } as const;

@InputType('CustomerCreateInput')
export class CustomerCreateInput {
  @InputField('first_name', 'string', { required: true }) firstName!: string;
  @InputField('last_name', 'string', { required: true }) lastName!: string;
  @InputField('company_name', 'string', opt) companyName?: string | null;
  @InputField('email', 'email', opt) email?: string | null;
  @InputField('phone', 'phone', opt) phone?: string | null;
  @InputField('customer_type', 'enum', { enum: CustomerType, default: 'Residential' }) customerType?: CustomerType;
  @InputField('is_vip', 'boolean', { default: false }) isVip?: boolean;
  @InputField('physical_address1', 'string', opt) physicalAddress1?: string | null;
  @InputField('physical_address2', 'string', opt) physicalAddress2?: string | null;
  @InputField('physical_city', 'string', opt) physicalCity?: string | null;
  @InputField('physical_state', 'string', opt) physicalState?: string | null;
  @InputField('physical_zip', 'string', opt) physicalZip?: string | null;
  @InputField('billing_address1', 'string', opt) billingAddress1?: string | null;
  @InputField('billing_address2', 'string', opt) billingAddress2?: string | null;
  @InputField('billing_city', 'string', opt) billingCity?: string | null;
  @InputField('billing_state', 'string', opt) billingState?: string | null;
  @InputField('billing_zip', 'string', opt) billingZip?: string | null;
  @InputField('primary_service_location_uuid', 'uuid', opt) primaryServiceLocationUuid?: string | null;
  @InputField('notes', 'text', opt) notes?: string | null;
  @InputField('internal_flags', 'json', opt) internalFlags?: object | null;
  @InputField('on_my_way_notify_via', 'enum', { enum: CustomerOnMyWayNotifyVia, nullable: true }) onMyWayNotifyVia?: CustomerOnMyWayNotifyVia | null;
  @InputField('custom_fields', 'json', customFieldsIn()) customFields?: Record<string, unknown> | null;
  @InputField('external_ids', 'json', externalIdsIn()) externalIds?: Record<string, string | null> | null;
  @InputField('tags', 'string', tagsIn()) tags?: string[] | null;
}

export const CustomerUpdateInput = PartialInput(CustomerCreateInput, 'CustomerUpdateInput');
export type CustomerUpdateInput = InstanceType<typeof CustomerUpdateInput>;

@ArgsType()
export class CustomerListArgs extends ListArgs {
  // Like every type filter: one value or several (comma-separated in REST), any of which matches.
  @InputField('filter', 'enum', { enum: CustomerFilter, list: true, description: 'One filter or several (comma-separated in REST); a customer matching any is listed' })
  filter?: CustomerFilter[];
  // An empty search is no search.
  @InputField('search', 'string', { nullable: true }) search?: string | null;
  @InputField('cf', 'object', customFieldFilters()) customFields?: CustomFieldFilter[];
  @InputField('tags', 'string', { list: true, description: 'Tags, comma-separated in REST: records with any of them (case-insensitive)' }) tags?: string[];
}
