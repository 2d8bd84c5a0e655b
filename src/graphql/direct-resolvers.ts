import { getNamedType, GraphQLSchema, isLeafType, isObjectType } from 'graphql';
import { getMetadataStorage } from 'type-graphql';

/**
 * The schema's field resolvers (the `@FieldResolver` methods of the resolver classes, relation
 * fields mostly) called directly, for those that need nothing of TypeGraphQL's handler: no
 * middleware, no auth roles, and only the root, the context, the info and arguments of scalar or
 * enum types (or lists of them) as parameters. The handler takes every call through its
 * middleware chain and, for each argument, the validation function, which is asynchronous
 * whatever it validates: two promises and a sort per call, for the payments of each invoice on
 * a page. Ours only validates input objects (src/graphql/schema.ts), so a scalar argument reaches
 * the method as the handler would have passed it. A root that is not an instance of the field's
 * class (which the handler would convert) goes through the handler.
 */
export function callFieldResolversDirectly(schema: GraphQLSchema, resolverClasses: readonly Function[]): number {
  const storage = getMetadataStorage() as any;
  const instances = new Map<Function, any>();
  let replaced = 0;
  for (const def of storage.fieldResolvers as any[]) {
    if (def.kind !== 'external' || !resolverClasses.includes(def.target)) continue;
    if (def.middlewares?.length || def.roles) continue;
    const objectClass = def.getObjectType?.();
    const typeName = storage.objectTypes.find((o: any) => o.target === objectClass)?.name;
    const type = typeName && schema.getType(typeName);
    const field = type && isObjectType(type) ? type.getFields()[def.schemaName] : undefined;
    const method = def.target.prototype[def.methodName];
    if (!field || typeof method !== 'function') continue;
    const params = [...(def.params as any[])].sort((a, b) => a.index - b.index);
    const readers: Array<(root: unknown, args: Record<string, unknown>, ctx: unknown, info: unknown) => unknown> = [];
    const rootClasses: Function[] = [];
    for (const p of params) {
      if (p.kind === 'root' && !p.propertyName) {
        const target = p.getType?.();
        if (typeof target === 'function') rootClasses.push(target);
        readers.push((root) => root);
      } else if (p.kind === 'context' && !p.propertyName) readers.push((_r, _a, ctx) => ctx);
      else if (p.kind === 'info') readers.push((_r, _a, _c, info) => info);
      else if (p.kind === 'arg' && field.args.some((a) => a.name === p.name && isLeafType(getNamedType(a.type)))) readers.push((_r, args) => args[p.name]);
      else break;
    }
    if (readers.length !== params.length) continue;
    let instance = instances.get(def.target);
    if (!instance) instances.set(def.target, (instance = new (def.target as new () => any)()));
    const handler = field.resolve!;
    field.resolve = (root, args, ctx, info) => {
      for (const cls of rootClasses) if (!(root instanceof cls)) return handler(root, args, ctx, info);
      const values = new Array(readers.length);
      for (let i = 0; i < readers.length; i++) values[i] = readers[i](root, args, ctx, info);
      return method.apply(instance, values);
    };
    replaced++;
  }
  return replaced;
}
