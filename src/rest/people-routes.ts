import { DeleteResult, ListArgs } from '../schema/pagination';
import { ApiKey } from '../modules/api-key/api-key.entity';
import { ApiKeyCreateInput, ApiKeyListArgs, ApiKeyWithSecret } from '../modules/api-key/api-key.inputs';
import { apiKeyService } from '../modules/api-key/api-key.service';
import { User } from '../modules/user/user.entity';
import { UserCreateInput, UserUpdateInput } from '../modules/user/user.inputs';
import { userService } from '../modules/user/user.service';
import type { RouteDef } from './route';

const deleted = (message: string) => Object.assign(new DeleteResult(), { message });

// Users and API keys (docs/people-and-access.md): rows of the route table (src/rest/routes.ts).
export const peopleRoutes: RouteDef[] = [
  { method: 'GET', path: '/users', scope: 'users:read', summary: 'List users', plural: 'users', query: ListArgs, output: User, call: (ctx, a) => userService.list(ctx, a.query) },
  { method: 'GET', path: '/users/:id', scope: 'users:read', summary: 'Get a user', output: User, call: (ctx, a) => userService.get(ctx, a.params.id) },
  { method: 'POST', path: '/users', scope: 'users:write', summary: 'Create a user (owners and admins; only an owner makes owners)', body: UserCreateInput, output: User, creates: true, call: (ctx, a) => userService.create(ctx, a.body) },
  { method: 'PUT', path: '/users/:id', scope: 'users:write', summary: 'Update a user (the last active owner stays one)', body: UserUpdateInput, output: User, call: (ctx, a) => userService.update(ctx, a.params.id, a.body) },
  { method: 'DELETE', path: '/users/:id', scope: 'users:write', summary: "Deactivate a user: their keys stop at once", output: DeleteResult, call: async (ctx, a) => (await userService.deactivate(ctx, a.params.id), deleted('User deactivated')) },

  { method: 'GET', path: '/api_keys', scope: 'api_keys:read', summary: 'List API keys, newest first', plural: 'api_keys', exportable: false, query: ApiKeyListArgs, output: ApiKey, call: (ctx, a) => apiKeyService.list(ctx, a.query) },
  { method: 'GET', path: '/api_keys/:id', scope: 'api_keys:read', summary: 'Get an API key', output: ApiKey, call: (ctx, a) => apiKeyService.get(ctx, a.params.id) },
  {
    method: 'POST', path: '/api_keys', scope: 'api_keys:write', summary: 'Create an API key (the answer shows its secret, once); never with more rights than the calling key',
    body: ApiKeyCreateInput, output: ApiKeyWithSecret, creates: true,
    call: async (ctx, a) => {
      const { key, secret } = await apiKeyService.create(ctx, a.body);
      return Object.assign(new ApiKeyWithSecret(), key, { secret });
    },
  },
  { method: 'DELETE', path: '/api_keys/:id', scope: 'api_keys:write', summary: 'Revoke an API key: refused from the next request on, in every process', output: DeleteResult, call: async (ctx, a) => (await apiKeyService.revoke(ctx, a.params.id), deleted('API key revoked')) },
];
