import { GraphQLFieldResolver, GraphQLSchema, isObjectType } from 'graphql';
import { getMetadataStorage } from 'type-graphql';
import { fieldsOf } from '../schema/fields';
import { isMoneyField, withholdsMoney } from '../schema/withheld';
import type { RequestContext } from '../data/context';

/**
 * Money never reaches a technician (src/schema/withheld.ts): each output field declared of kind
 * `money` gets a resolver that answers null to a technician's request and reads the field for
 * anyone else, wherever the type appears in an operation. (A non-null money field, on a type
 * outside a technician's role, would then be an error of the field, never its value.)
 *
 * Returns the fields wrapped (`Type.field`), for the test that checks every money field is.
 */
export function withholdMoneyFields(schema: GraphQLSchema): string[] {
  const done: string[] = [];
  for (const objectType of getMetadataStorage().objectTypes) {
    const type = schema.getType(objectType.name);
    if (!type || !isObjectType(type)) continue;
    for (const meta of fieldsOf(objectType.target)) {
      const field = type.getFields()[meta.prop];
      if (!field || !isMoneyField(meta) || done.includes(`${type.name}.${field.name}`)) continue;
      const prop = meta.prop;
      const read: GraphQLFieldResolver<any, RequestContext> = field.resolve ?? ((source: Record<string, unknown>) => source[prop]);
      field.resolve = (source, args, ctx: RequestContext, info) => (withholdsMoney(ctx?.access) ? null : read(source, args, ctx, info));
      done.push(`${type.name}.${field.name}`);
    }
  }
  return done;
}
