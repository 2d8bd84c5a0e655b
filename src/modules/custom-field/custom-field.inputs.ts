import { ArgsType, Field, InputType, ObjectType } from 'type-graphql';
import { InputField } from '../../schema/fields';
import { Needs } from '../../schema/access';
import { PartialInput } from '../../schema/inputs';
import { ListArgs } from '../../schema/pagination';
import { JSONScalar } from '../../schema/scalars';
import { CustomFieldDefinition, CustomFieldResource, CustomFieldType } from './custom-field.entity';

export const KEY = /^[a-z][a-z0-9_]{0,39}$/;

const options = (v: string[]): string | null => {
  const trimmed = v.map((o) => o.trim());
  if (trimmed.length < 1 || trimmed.length > 100) return 'must be 1–100 options';
  if (trimmed.some((o) => o === '')) return 'must not hold an empty option';
  if (new Set(trimmed).size !== trimmed.length) return 'must be distinct';
  return null;
};

@InputType('CustomFieldCreateInput')
export class CustomFieldCreateInput {
  @InputField('resource', 'enum', { enum: CustomFieldResource, required: true }) resource!: CustomFieldResource;
  @InputField('key', 'string', { required: true, description: '^[a-z][a-z0-9_]{0,39}$, unique per resource; never changes', check: (v) => (KEY.test(v) ? null : 'must match ^[a-z][a-z0-9_]{0,39}$') })
  key!: string;
  @InputField('label', 'string', { required: true }) label!: string;
  @InputField('type', 'enum', { enum: CustomFieldType, required: true, description: 'Never changes' }) type!: CustomFieldType;
  @InputField('options', 'string', { list: true, nullable: true, description: 'select and multi_select: 1–100 distinct values', check: options }) options?: string[] | null;
  @InputField('required', 'boolean', { default: false, description: 'A create must give a value (or the field a default); an update may not clear it' }) required?: boolean;
  @InputField('default', 'json', { nullable: true, jsonAny: true, description: "A new record's value when its create sends none, of the field's type" }) defaultValue?: unknown;
  @InputField('show_on_documents', 'boolean', { default: false, description: "Printed on the record's PDF and customer page" }) showOnDocuments?: boolean;
  @InputField('position', 'int', { default: 0, description: 'Order among the resource’s fields (then by key)' }) position?: number;
}

export const CustomFieldUpdateInput = PartialInput(CustomFieldCreateInput, 'CustomFieldUpdateInput');
export type CustomFieldUpdateInput = InstanceType<typeof CustomFieldUpdateInput>;

@ArgsType()
export class CustomFieldListArgs extends ListArgs {
  @InputField('resource', 'enum', { enum: CustomFieldResource, list: true, description: 'One resource or several (comma-separated in REST)' })
  resource?: CustomFieldResource[];
}

/** A record's value of one custom field, with its definition (GraphQL `customFieldValues`). */
@ObjectType({ description: 'The value of one custom field of a record, with its type' })
export class CustomFieldValue {
  @Field() key!: string;
  @Field(() => CustomFieldType) type!: CustomFieldType;
  @Field(() => JSONScalar, { nullable: true, description: 'Of the type: a string, number, boolean, list of strings, or null when unset' }) value!: unknown;
  // Shown with the record, to whoever reads it (docs/people-and-access.md): no custom_fields:read needed.
  @Needs() @Field(() => CustomFieldDefinition) definition!: CustomFieldDefinition;
}

/** One filter of a list by a custom field (REST `cf.<key>=a,b`, `cf.<key>[gte]=…`). */
@InputType('CustomFieldFilter', { description: 'A list filter by a custom field: `values` (any of them; selects, booleans, text exact) or bounds (number, money, date)' })
export class CustomFieldFilter {
  @InputField('key', 'string', { required: true }) key!: string;
  @InputField('values', 'string', { list: true, description: 'Any of these values' }) values?: string[];
  @InputField('gte', 'string') gte?: string;
  @InputField('lte', 'string') lte?: string;
  @InputField('gt', 'string') gt?: string;
  @InputField('lt', 'string') lt?: string;
}

/** The `cf` filters of a list of a resource with custom fields (docs/custom-fields.md). */
export const customFieldFilters = () =>
  ({ list: true, type: () => CustomFieldFilter, prefixed: true, description: 'Filters by custom fields: cf.<key>=a,b (any of; selects, booleans, text exact), cf.<key>[gte|lte|gt|lt]=… (number, money, date)' }) as const;

/** The record an external id names (REST `?source=…&id=…` of /<plural>/by_external_id). */
@ArgsType()
export class ExternalIdArgs {
  @InputField('source', 'string', { required: true, description: 'The other system: ^[a-z][a-z0-9_]{0,31}$' }) source!: string;
  @InputField('id', 'string', { required: true, description: "The record's id there: 1–255 characters" }) id!: string;
}
