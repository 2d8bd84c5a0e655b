import { customFieldsOut, externalIdsOut } from '../custom-field/custom-data';
import { Entity, Property } from '@mikro-orm/core';
import { ShowsResource } from '../../schema/access';
import { ObjectType } from 'type-graphql';
import { ApiField } from '../../schema/fields';
import { Sortable } from '../../schema/sorting';
import { TenantEntity, TenantScoped } from '../../data/base.entity';
import { GlobalId, Node } from '../../schema/global-id';
import { DEFAULT_TIMEZONE } from '../company/company.rules';

// A fresh options object each time: MikroORM writes into the one it is given.
const text = () => ({ type: 'text', nullable: true }) as const;
const json = () => ({ type: 'json', nullable: true }) as const;

@ObjectType({ implements: Node })
@ShowsResource('locations')
@GlobalId()
@TenantScoped()
// The fields its lists sort by (docs/conventions.md, Lists).
@Sortable({ name: 'name', city: 'city', state: 'state', zip: 'zip' })
@Entity({ tableName: 'locations' })
export class Location extends TenantEntity {
  @ApiField('name', 'string') @Property({ type: 'text' }) name!: string;
  @ApiField('location_code', 'string', { nullable: true }) @Property(text()) locationCode: string | null = null;
  @ApiField('address1', 'string') @Property({ type: 'text' }) address1!: string;
  @ApiField('address2', 'string', { nullable: true }) @Property(text()) address2: string | null = null;
  @ApiField('city', 'string') @Property({ type: 'text' }) city!: string;
  @ApiField('state', 'string') @Property({ type: 'text' }) state!: string;
  @ApiField('zip', 'string') @Property({ type: 'text' }) zip!: string;
  @ApiField('phone', 'phone', { nullable: true }) @Property(text()) phone: string | null = null;
  @ApiField('timezone', 'string') @Property({ type: 'text' }) timezone = DEFAULT_TIMEZONE;
  @ApiField('business_hours', 'json', { nullable: true }) @Property(json()) businessHours: object | null = null;
  @ApiField('default_tax_rules', 'json', { nullable: true }) @Property(json()) defaultTaxRules: object | null = null;
  @ApiField('service_types_offered', 'json', { nullable: true, jsonArray: true }) @Property(json()) serviceTypesOffered: object | null = null;
  @ApiField('default_pricing_set_uuid', 'uuid', { nullable: true }) @Property({ type: 'uuid', nullable: true }) defaultPricingSetUuid: string | null = null;
  @ApiField('is_primary', 'boolean') @Property({ type: 'boolean' }) isPrimary = false;
  @ApiField('is_active', 'boolean') @Property({ type: 'boolean' }) isActive = true;

  // Custom data (docs/custom-fields.md): the company's fields, the values of deleted definitions kept apart, external ids.
  @ApiField('custom_fields', 'json', customFieldsOut()) @Property({ type: 'json' }) customFields: Record<string, unknown> = {};
  @Property({ type: 'json', fieldName: 'custom_fields_hidden' }) customFieldsHidden: Record<string, unknown> = {};
  @ApiField('external_ids', 'json', externalIdsOut()) @Property({ type: 'json' }) externalIds: Record<string, string> = {};
}
