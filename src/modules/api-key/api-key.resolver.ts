import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../../data/context';
import { Needs } from '../../schema/access';
import { Page, PageType } from '../../schema/pagination';
import { UUIDScalar } from '../../schema/scalars';
import { ApiKey } from './api-key.entity';
import { ApiKeyCreateInput, ApiKeyListArgs, ApiKeySecret, Me } from './api-key.inputs';
import { apiKeyService } from './api-key.service';

const ApiKeyPage = PageType(ApiKey);

@Resolver(() => ApiKey)
export class ApiKeyResolver {
  @Needs()
  @Query(() => Me, { description: 'The caller: its user and key' })
  me(@Ctx() ctx: RequestContext): Me {
    return Object.assign(new Me(), { user: ctx.user, key: ctx.apiKey });
  }

  @Needs('api_keys:read')
  @Query(() => ApiKeyPage)
  apiKeys(@Ctx() ctx: RequestContext, @Args(() => ApiKeyListArgs) args: ApiKeyListArgs): Promise<Page<ApiKey>> {
    return apiKeyService.list(ctx, args);
  }

  @Needs('api_keys:read')
  @Query(() => ApiKey)
  apiKey(@Ctx() ctx: RequestContext, @Arg('id', () => UUIDScalar) id: string): Promise<ApiKey> {
    return apiKeyService.get(ctx, id);
  }

  @Needs('api_keys:write')
  @Mutation(() => ApiKeySecret, { description: 'The secret is shown only in this answer' })
  async createApiKey(@Ctx() ctx: RequestContext, @Arg('input', () => ApiKeyCreateInput) input: ApiKeyCreateInput): Promise<ApiKeySecret> {
    return Object.assign(new ApiKeySecret(), await apiKeyService.create(ctx, input));
  }

  @Needs('api_keys:write')
  @Mutation(() => ApiKey, { description: 'Refused from the next request on, in every process' })
  revokeApiKey(@Ctx() ctx: RequestContext, @Arg('id', () => UUIDScalar) id: string): Promise<ApiKey> {
    return apiKeyService.revoke(ctx, id);
  }
}
