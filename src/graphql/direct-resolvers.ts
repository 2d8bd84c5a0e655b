import { getNamedType, GraphQLSchema, isLeafType, isObjectType } from 'graphql';
import { getMetadataStorage } from 'type-graphql';

/**
 * Field resolvers called directly, opted in one by one with `@DirectCall()` on the
 * `@FieldResolver` method (docs/benchmark.md, "Field resolvers called directly", has the
 * measurement). TypeGraphQL's handler takes every call through its middleware chain and, for each
 * argument, the asynchronous validation function: two promises and a sort per call, for the
 * payments of each invoice on a page. Called directly, the method gets the root, the context, the
 * info and its scalar or enum arguments as the handler would pass them (ours validates only input
 * objects, src/graphql/schema.ts). A root that is not an instance of the field's class (which the
 * handler would convert) still goes through the handler.
 *
 * Nothing changes path silently: a field marked `@DirectCall()` that has a middleware or auth
 * roles, or takes any other parameter, stops the schema build with an error naming it; so does a
 * schema built with global middlewares.
 */
const marked = new Map<Function, Set<string>>();

/** Opts a `@FieldResolver` method in to being called directly (see above). */
export function DirectCall(): MethodDecorator {
  return (target, prop) => {
    const cls = target.constructor;
    if (!marked.has(cls)) marked.set(cls, new Set());
    marked.get(cls)!.add(String(prop));
  };
}

export function callFieldResolversDirectly(schema: GraphQLSchema, resolverClasses: readonly Function[], globalMiddlewares: readonly unknown[] = []): number {
  const storage = getMetadataStorage() as any;
  const instances = new Map<Function, any>();
  const pending = new Set([...marked].filter(([cls]) => resolverClasses.includes(cls)).flatMap(([cls, names]) => [...names].map((n) => `${cls.name}.${n}`)));
  if (pending.size && globalMiddlewares.length) throw new Error(`@DirectCall: the schema has global middlewares, which direct calls would skip (${[...pending].join(', ')})`);
  for (const def of storage.fieldResolvers as any[]) {
    if (!resolverClasses.includes(def.target) || !marked.get(def.target)?.has(def.methodName)) continue;
    const where = `${def.target.name}.${def.methodName}`;
    const refuse = (why: string): never => {
      throw new Error(`@DirectCall on ${where}: ${why}; remove @DirectCall to run it through TypeGraphQL's handler`);
    };
    if (def.kind !== 'external') refuse('not a @FieldResolver');
    if (def.middlewares?.length || def.roles) refuse('it has middleware or auth roles, which a direct call would skip');
    const objectClass = def.getObjectType?.();
    const typeName = storage.objectTypes.find((o: any) => o.target === objectClass)?.name;
    const type = typeName && schema.getType(typeName);
    const field = type && isObjectType(type) ? type.getFields()[def.schemaName] : undefined;
    const method = def.target.prototype[def.methodName];
    if (!field || typeof method !== 'function') return refuse('its field is not in the schema');
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
      else refuse(`parameter ${p.index} is not the root, the context, the info or a scalar argument`);
    }
    let instance = instances.get(def.target);
    if (!instance) instances.set(def.target, (instance = new (def.target as new () => any)()));
    const handler = field.resolve!;
    field.resolve = (root, args, ctx, info) => {
      for (const cls of rootClasses) if (!(root instanceof cls)) return handler(root, args, ctx, info);
      const values = new Array(readers.length);
      for (let i = 0; i < readers.length; i++) values[i] = readers[i](root, args, ctx, info);
      return method.apply(instance, values);
    };
    pending.delete(where);
  }
  if (pending.size) throw new Error(`@DirectCall on ${[...pending].join(', ')}: not a @FieldResolver of the schema`);
  return [...marked].filter(([cls]) => resolverClasses.includes(cls)).reduce((n, [, names]) => n + names.size, 0);
}
