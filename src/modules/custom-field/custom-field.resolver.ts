import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../../data/context';
import { CrudResolver } from '../../graphql/crud-resolver';
import { Reads } from '../../schema/fields';
import { Customer } from '../customer/customer.entity';
import { Estimate } from '../estimate/estimate.entity';
import { Invoice } from '../invoice/invoice.entity';
import { Job } from '../job/job.entity';
import { Location } from '../location/location.entity';
import { Visit } from '../visit/visit.entity';
import { liveDefinitions } from './custom-data';
import { CustomFieldDefinition, CustomFieldResource } from './custom-field.entity';
import { CustomFieldCreateInput, CustomFieldListArgs, CustomFieldUpdateInput, CustomFieldValue } from './custom-field.inputs';
import { customFieldService } from './custom-field.service';

@Resolver(() => CustomFieldDefinition)
export class CustomFieldResolver extends CrudResolver({
  resource: 'custom_fields',
  entity: CustomFieldDefinition,
  single: 'customField',
  plural: 'customFields',
  service: customFieldService,
  create: CustomFieldCreateInput,
  update: CustomFieldUpdateInput,
  listArgs: CustomFieldListArgs,
}) {}

/**
 * `customFieldValues` of a record type: each live definition of its resource with the record's
 * value (null when unset), in the definitions' order; the definitions are read once per request.
 */
function valuesResolver(entity: new () => { customFields: Record<string, unknown> }, resource: CustomFieldResource): Function {
  @Resolver(() => entity)
  class Values {
    @FieldResolver(() => [CustomFieldValue], { description: "The record's custom fields with their types and definitions" })
    @Reads(() => entity, 'customFields')
    async customFieldValues(@Root() record: { customFields: Record<string, unknown> }, @Ctx() ctx: RequestContext): Promise<CustomFieldValue[]> {
      const defs = await liveDefinitions(ctx, resource);
      return defs.map((d) => Object.assign(new CustomFieldValue(), { key: d.key, type: d.type, value: record.customFields?.[d.key] ?? null, definition: d }));
    }
  }
  Object.defineProperty(Values, 'name', { value: `${entity.name}CustomFieldValuesResolver` });
  return Values;
}

export const customFieldValueResolvers: Function[] = [
  valuesResolver(Customer, CustomFieldResource.CUSTOMER),
  valuesResolver(Location, CustomFieldResource.LOCATION),
  valuesResolver(Job, CustomFieldResource.JOB),
  valuesResolver(Visit, CustomFieldResource.VISIT),
  valuesResolver(Estimate, CustomFieldResource.ESTIMATE),
  valuesResolver(Invoice, CustomFieldResource.INVOICE),
];
