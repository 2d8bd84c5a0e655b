import { InputType } from 'type-graphql';
import { fieldsOf, InputField } from './fields';

/**
 * The update input of a resource: the create input's fields, all optional (a PUT is a partial
 * update), minus `omit`. Rules travel with the field declarations, so create and update validate
 * alike.
 */
export function PartialInput<T>(base: new () => T, name: string, omit: string[] = []): new () => Partial<T> {
  @InputType(name)
  class Update {}
  // The class goes by its GraphQL name, so that the OpenAPI document names each resource's
  // update body apart (its schemas are keyed by class name).
  Object.defineProperty(Update, 'name', { value: name });
  for (const meta of fieldsOf(base)) {
    if (meta.io !== 'in' || omit.includes(meta.prop)) continue;
    const { prop, restName, kind, io: _io, ...options } = meta;
    InputField(restName, kind, { ...options, required: false })(Update.prototype, prop);
  }
  return Update as new () => Partial<T>;
}
