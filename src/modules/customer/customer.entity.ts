import { customFieldsOut, externalIdsOut, tagsOut } from '../custom-field/custom-data';
import { Entity, ManyToOne, Property } from '@mikro-orm/core';
import { ShowsResource } from '../../schema/access';
import { ObjectType, registerEnumType } from 'type-graphql';
import { ApiField } from '../../schema/fields';
import { Sortable } from '../../schema/sorting';
import { TenantEntity, TenantScoped } from '../../data/base.entity';
import { Location } from '../location/location.entity';
import { GlobalId, Node } from '../../schema/global-id';

export enum CustomerType {
  RESIDENTIAL = 'Residential',
  COMMERCIAL = 'Commercial',
}
registerEnumType(CustomerType, { name: 'CustomerType' });

export enum CustomerOnMyWayNotifyVia {
  EMAIL = 'email',
  SMS = 'sms',
  BOTH = 'both',
}
registerEnumType(CustomerOnMyWayNotifyVia, { name: 'CustomerOnMyWayNotifyVia' });

// A fresh options object each time: MikroORM writes into the one it is given.
const text = () => ({ type: 'text', nullable: true }) as const;

@ObjectType({ implements: Node })
@ShowsResource('customers')
@GlobalId()
@TenantScoped()
// The fields its lists sort by (docs/conventions.md, Lists).
@Sortable({ last_name: 'lastName', first_name: 'firstName', company_name: 'companyName', email: 'email' })
@Entity({ tableName: 'customers' })
export class Customer extends TenantEntity {
  @ApiField('first_name', 'string') @Property({ type: 'text' }) firstName!: string;
  @ApiField('last_name', 'string') @Property({ type: 'text' }) lastName!: string;
  @ApiField('company_name', 'string', { nullable: true }) @Property(text()) companyName: string | null = null;
  @ApiField('email', 'email', { nullable: true }) @Property(text()) email: string | null = null;
  @ApiField('phone', 'phone', { nullable: true }) @Property(text()) phone: string | null = null;

  @ApiField('customer_type', 'enum', { enum: CustomerType })
  @Property({ type: 'text' })
  customerType: CustomerType = CustomerType.RESIDENTIAL;

  @ApiField('is_vip', 'boolean') @Property({ type: 'boolean' }) isVip = false;

  @ApiField('physical_address1', 'string', { nullable: true }) @Property(text()) physicalAddress1: string | null = null;
  @ApiField('physical_address2', 'string', { nullable: true }) @Property(text()) physicalAddress2: string | null = null;
  @ApiField('physical_city', 'string', { nullable: true }) @Property(text()) physicalCity: string | null = null;
  @ApiField('physical_state', 'string', { nullable: true }) @Property(text()) physicalState: string | null = null;
  @ApiField('physical_zip', 'string', { nullable: true }) @Property(text()) physicalZip: string | null = null;
  @ApiField('billing_address1', 'string', { nullable: true }) @Property(text()) billingAddress1: string | null = null;
  @ApiField('billing_address2', 'string', { nullable: true }) @Property(text()) billingAddress2: string | null = null;
  @ApiField('billing_city', 'string', { nullable: true }) @Property(text()) billingCity: string | null = null;
  @ApiField('billing_state', 'string', { nullable: true }) @Property(text()) billingState: string | null = null;
  @ApiField('billing_zip', 'string', { nullable: true }) @Property(text()) billingZip: string | null = null;

  @ManyToOne(() => Location, { fieldName: 'primary_service_location_uuid', nullable: true })
  primaryServiceLocation: Location | null = null;

  @ApiField('primary_service_location_uuid', 'uuid', { nullable: true, reads: ['primaryServiceLocation'] })
  get primaryServiceLocationUuid(): string | null {
    return this.primaryServiceLocation?.uuid ?? null;
  }

  @ApiField('notes', 'text', { nullable: true }) @Property(text()) notes: string | null = null;
  @ApiField('internal_flags', 'json', { nullable: true }) @Property({ type: 'json', nullable: true }) internalFlags: object | null = null;

  @ApiField('on_my_way_notify_via', 'enum', { enum: CustomerOnMyWayNotifyVia, nullable: true })
  @Property(text())
  onMyWayNotifyVia: CustomerOnMyWayNotifyVia | null = null;

  // Custom data (docs/custom-fields.md): the company's fields, the values of deleted definitions kept apart, external ids.
  @ApiField('custom_fields', 'json', customFieldsOut()) @Property({ type: 'json' }) customFields: Record<string, unknown> = {};
  @Property({ type: 'json', fieldName: 'custom_fields_hidden' }) customFieldsHidden: Record<string, unknown> = {};
  @ApiField('external_ids', 'json', externalIdsOut()) @Property({ type: 'json' }) externalIds: Record<string, string> = {};
  @ApiField('tags', 'string', tagsOut()) @Property({ type: 'text[]' }) tags: string[] = [];
}
