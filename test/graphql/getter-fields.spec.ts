import 'reflect-metadata';
import { isObjectType, parse } from 'graphql';
import { getMetadataStorage, ObjectType, Query, Resolver, buildSchemaSync } from 'type-graphql';
import { ApiField } from '../../src/schema/fields';
import { jitGateway } from '../../src/graphql/executor';
import { getterOf, resolveGetterFields } from '../../src/graphql/getter-fields';
import { buildGraphQLSchema } from '../../src/graphql/schema';

// A getter that throws, read by graphql-jit below a field resolved asynchronously, used to escape as
// an unhandled rejection and leave the request without an answer (src/graphql/getter-fields.ts).
// With the getter's field given a resolver, the error is the field's, as graphql-js reports it.

@ObjectType()
class Gauge {
  @ApiField('name', 'string') name = 'boiler';

  @ApiField('reading', 'number', { nullable: true })
  get reading(): number {
    throw new Error('sensor offline');
  }
}

@Resolver(() => Gauge)
class GaugeResolver {
  @Query(() => Gauge)
  async gauge(): Promise<Gauge> {
    return new Gauge();
  }

  @Query(() => [Gauge])
  async gauges(): Promise<Gauge[]> {
    return [new Gauge(), new Gauge()];
  }
}

async function runCompiled(schema: ReturnType<typeof buildSchemaSync>, query: string) {
  const { executor } = await jitGateway(schema).load({} as never);
  const document = parse(query);
  const operation = document.definitions[0] as never;
  return executor!({ request: { variables: {} }, document, operation, operationName: null, context: {} } as never);
}

describe('getter-backed fields under graphql-jit', () => {
  it('answers with the getter error on the field instead of hanging', async () => {
    const schema = buildSchemaSync({ resolvers: [GaugeResolver], validate: false });
    expect(resolveGetterFields(schema)).toEqual(['Gauge.reading']);
    const one = await runCompiled(schema, '{ gauge { name reading } }');
    expect(one.data).toEqual({ gauge: { name: 'boiler', reading: null } });
    expect(one.errors?.map((e) => [e.message, e.path])).toEqual([['sensor offline', ['gauge', 'reading']]]);
    const many = await runCompiled(schema, '{ gauges { reading } }');
    expect(many.errors?.map((e) => e.path)).toEqual([
      ['gauges', 0, 'reading'],
      ['gauges', 1, 'reading'],
    ]);
  });

  it('gives every getter-backed field of the API schema a resolver', () => {
    const schema = buildGraphQLSchema();
    const storage = getMetadataStorage();
    const bare: string[] = [];
    let getters = 0;
    for (const objectType of storage.objectTypes) {
      const type = schema.getType(objectType.name);
      if (!type || !isObjectType(type)) continue;
      for (const f of storage.fields.filter((x) => x.target === objectType.target)) {
        if (!getterOf(objectType.target.prototype, f.name)) continue;
        getters++;
        if (!type.getFields()[f.schemaName]?.resolve) bare.push(`${type.name}.${f.schemaName}`);
      }
    }
    expect(getters).toBeGreaterThan(0);
    expect(bare).toEqual([]);
  });
});
