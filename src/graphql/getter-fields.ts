import { GraphQLSchema, isObjectType } from 'graphql';
import { getMetadataStorage } from 'type-graphql';

/**
 * Output fields backed by a getter get an explicit resolver that reads the getter.
 *
 * Output fields are declared simple (src/schema/fields.ts): graphql's default resolver reads the
 * property off the object. graphql-jit (src/graphql/executor.ts) compiles such a field into an
 * inline property read, outside the error handling it gives resolvers; when that read is a getter
 * that throws, below a field resolved asynchronously, the error escapes as an unhandled rejection
 * and the response never completes: the request hangs until the client gives up. With a resolver,
 * graphql-jit catches the error as graphql-js does: the field is null (or its nullable parent) and
 * the error is in `errors` with its path. Plain properties cannot throw and keep the inline read.
 *
 * Returns the fields given a resolver (`Type.field`), for the test that checks every getter is
 * covered (test/graphql/getter-fields.spec.ts).
 */
export function resolveGetterFields(schema: GraphQLSchema): string[] {
  const storage = getMetadataStorage();
  const done: string[] = [];
  for (const objectType of storage.objectTypes) {
    const type = schema.getType(objectType.name);
    if (!type || !isObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      if (field.resolve) continue;
      const prop = propertyOf(storage.fields, objectType.target, field.name);
      if (!getterOf(objectType.target.prototype, prop)) continue;
      field.resolve = (source: Record<string, unknown>) => source[prop];
      done.push(`${type.name}.${field.name}`);
    }
  }
  return done;
}

/** The class property behind a GraphQL field name (its own or an ancestor's declaration). */
function propertyOf(fields: ReadonlyArray<{ target: Function; schemaName: string; name: string }>, target: Function, schemaName: string): string {
  for (let cls: Function | null = target; cls && cls !== Function.prototype; cls = Object.getPrototypeOf(cls)) {
    const hit = fields.find((f) => f.target === cls && f.schemaName === schemaName);
    if (hit) return hit.name;
  }
  return schemaName;
}

/** Whether `prop` is an accessor with a getter anywhere on the prototype chain. */
export function getterOf(proto: object | null, prop: string): boolean {
  for (let p = proto; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    const d = Object.getOwnPropertyDescriptor(p, prop);
    if (d) return typeof d.get === 'function';
  }
  return false;
}
