import 'reflect-metadata';
import { Arg, Field, FieldResolver, InputType, ObjectType, Query, Resolver, Root, UseMiddleware, buildSchemaSync } from 'type-graphql';
import { callFieldResolversDirectly, DirectCall } from '../../src/graphql/direct-resolvers';

// A field resolver marked @DirectCall() that a direct call would change (a middleware it would skip,
// an input object it would not convert) stops the schema build, naming it: nothing changes path silently.

@ObjectType()
class Thing {
  @Field() name!: string;
}

@InputType()
class Filter {
  @Field() text!: string;
}

@Resolver(() => Thing)
class ThingResolver {
  @Query(() => Thing)
  thing(): Thing {
    return Object.assign(new Thing(), { name: 'a' });
  }

  @FieldResolver(() => String)
  @UseMiddleware(async (_data, next) => next())
  @DirectCall()
  guarded(@Root() thing: Thing): string {
    return thing.name;
  }
}

@Resolver(() => Thing)
class FilteredResolver {
  @FieldResolver(() => String)
  @DirectCall()
  filtered(@Root() thing: Thing, @Arg('filter', () => Filter) filter: Filter): string {
    return thing.name + filter.text;
  }
}

@Resolver(() => Thing)
class PlainResolver {
  @FieldResolver(() => String)
  @DirectCall()
  plain(@Root() thing: Thing, @Arg('suffix', () => String) suffix: string): string {
    return thing.name + suffix;
  }
}

it('refuses a marked field with a middleware or an input-object argument, and calls a plain one directly', () => {
  // The schema needs a query (ThingResolver's); only the classes named second are looked at.
  const build = (checked: Function, globalMiddlewares: unknown[] = []) =>
    callFieldResolversDirectly(buildSchemaSync({ resolvers: [ThingResolver, FilteredResolver, PlainResolver], validate: false }), [checked], globalMiddlewares);
  expect(() => build(ThingResolver)).toThrow('@DirectCall on ThingResolver.guarded: it has middleware');
  expect(() => build(FilteredResolver)).toThrow('@DirectCall on FilteredResolver.filtered: parameter 1');
  expect(() => build(PlainResolver, [() => undefined])).toThrow('global middlewares');
  expect(build(PlainResolver)).toBe(1);
});
