import { Entity, Property } from '@mikro-orm/core';
import { ObjectType } from 'type-graphql';
import { ApiField } from '../../schema/fields';
import { Sortable } from '../../schema/sorting';
import { TenantEntity, TenantScoped } from '../../schema/base.entity';
import { GlobalId, Node } from '../../schema/global-id';

// A fresh options object each time: MikroORM writes into the one it is given.
const text = () => ({ type: 'text', nullable: true }) as const;
const json = () => ({ type: 'json', nullable: true }) as const;

@ObjectType({ implements: Node })
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
  @ApiField('timezone', 'string') @Property({ type: 'text' }) timezone = 'America/New_York';
  @ApiField('business_hours', 'json', { nullable: true }) @Property(json()) businessHours: object | null = null;
  @ApiField('default_tax_rules', 'json', { nullable: true }) @Property(json()) defaultTaxRules: object | null = null;
  @ApiField('service_types_offered', 'json', { nullable: true, jsonArray: true }) @Property(json()) serviceTypesOffered: object | null = null;
  @ApiField('default_pricing_set_uuid', 'uuid', { nullable: true }) @Property({ type: 'uuid', nullable: true }) defaultPricingSetUuid: string | null = null;
  @ApiField('is_primary', 'boolean') @Property({ type: 'boolean' }) isPrimary = false;
  @ApiField('is_active', 'boolean') @Property({ type: 'boolean' }) isActive = true;
}
