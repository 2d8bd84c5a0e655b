import { Arg, Ctx, Field, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../data/context';
import { Needs } from '../../schema/access';
import { EXTERNAL_ID_RESOURCES, ExternalIdEntry } from './external-id.resources';
import { getByExternalId, Upserted, upsertByExternalId } from './external-id.service';

// GraphQL `<record>ByExternalId(source, id)` and `upsert<Record>ByExternalId(source, id, input)`
// of every resource with external ids (docs/custom-fields.md), the same services as REST.

const lower = (s: string) => s[0].toLowerCase() + s.slice(1);

function resolverOf(e: ExternalIdEntry): Function {
  const name = e.entity.name;
  const single = lower(name);
  @ObjectType(`${name}Upsert`, { description: `The ${single} an upsert by external id wrote` })
  class Result {
    @Field({ description: 'True when no record had the id and this one was created' }) created!: boolean;
  }
  Field(() => e.entity)(Result.prototype, single);

  @Resolver()
  class ExternalIds {
    @Needs(`${e.scope}:read`)
    @Query(() => e.entity, { name: `${single}ByExternalId`, description: `The ${single} holding this id of another system (source)` })
    byExternalId(@Ctx() ctx: RequestContext, @Arg('source') source: string, @Arg('id') id: string): Promise<unknown> {
      return getByExternalId(ctx, e.spec, source, id);
    }

    @Needs(`${e.scope}:write`)
    @Mutation(() => Result, { name: `upsert${name}ByExternalId`, description: e.spec.createRecord ? `Creates or updates the ${single} holding this id` : `Updates the ${single} holding this id` })
    async upsert(@Ctx() ctx: RequestContext, @Arg('source') source: string, @Arg('id') id: string, @Arg('input', () => e.spec.update) input: object): Promise<Result> {
      const out: Upserted<unknown> = await upsertByExternalId(ctx, e.spec, source, id, input);
      return Object.assign(new Result(), { created: out.created, [single]: out.record });
    }
  }
  Object.defineProperty(ExternalIds, 'name', { value: `${name}ExternalIdResolver` });
  return ExternalIds;
}

export const externalIdResolvers: Function[] = EXTERNAL_ID_RESOURCES.map(resolverOf);
