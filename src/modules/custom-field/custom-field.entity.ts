import { Entity, Property } from '@mikro-orm/core';
import { ObjectType, registerEnumType } from 'type-graphql';
import { ShowsResource } from '../../schema/access';
import { ApiField } from '../../schema/fields';
import { TenantEntity, TenantScoped } from '../../data/base.entity';
import { GlobalId, Node } from '../../schema/global-id';

// A company's own field of one resource (docs/custom-fields.md).

export enum CustomFieldResource {
  CUSTOMER = 'customer',
  LOCATION = 'location',
  JOB = 'job',
  VISIT = 'visit',
  ESTIMATE = 'estimate',
  INVOICE = 'invoice',
}
registerEnumType(CustomFieldResource, { name: 'CustomFieldResource' });

export enum CustomFieldType {
  TEXT = 'text',
  NUMBER = 'number',
  MONEY = 'money',
  BOOLEAN = 'boolean',
  DATE = 'date',
  SELECT = 'select',
  MULTI_SELECT = 'multi_select',
  URL = 'url',
  EMAIL = 'email',
  PHONE = 'phone',
}
registerEnumType(CustomFieldType, { name: 'CustomFieldType' });

@ObjectType({ implements: Node })
@ShowsResource('custom_fields')
@GlobalId()
@TenantScoped()
@Entity({ tableName: 'custom_field_definitions' })
export class CustomFieldDefinition extends TenantEntity {
  @ApiField('resource', 'enum', { enum: CustomFieldResource }) @Property({ type: 'text' }) resource!: CustomFieldResource;
  @ApiField('key', 'string', { description: 'The key of its values in custom_fields; never changes' }) @Property({ type: 'text' }) key!: string;
  @ApiField('label', 'string') @Property({ type: 'text' }) label!: string;
  @ApiField('type', 'enum', { enum: CustomFieldType }) @Property({ type: 'text' }) type!: CustomFieldType;
  @ApiField('options', 'string', { list: true, nullable: true, description: 'The values a select or multi_select takes' })
  @Property({ type: 'json', nullable: true })
  options: string[] | null = null;
  @ApiField('required', 'boolean') @Property({ type: 'boolean' }) required = false;
  @ApiField('default', 'json', { nullable: true, jsonAny: true, description: "A new record's value when its create sends none (of the field's type)" })
  @Property({ type: 'json', nullable: true, fieldName: 'default_value' })
  defaultValue: unknown = null;
  @ApiField('show_on_documents', 'boolean') @Property({ type: 'boolean' }) showOnDocuments = false;
  @ApiField('position', 'int') @Property({ type: 'integer' }) position = 0;
}
