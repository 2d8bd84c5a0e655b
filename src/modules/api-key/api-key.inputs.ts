import { ArgsType, InputType, ObjectType } from 'type-graphql';
import { ApiField, InputField } from '../../schema/fields';
import { Needs } from '../../schema/access';
import { isKeyScope } from '../../domain/scopes';
import { ApiKey, ApiKeyUsagePeriod } from './api-key.entity';
import { User } from '../user/user.entity';

const scopesCheck = (v: string[]) => {
  if (!v.length || v.length > 64) return 'must list 1 to 64 scopes';
  const bad = v.find((s) => !isKeyScope(s));
  return bad === undefined ? null : `has "${bad}", which is not a scope (<resource>:read, <resource>:write, *:read or *)`;
};

@InputType('ApiKeyCreateInput')
export class ApiKeyCreateInput {
  @InputField('name', 'string', { nullable: true }) name?: string | null;
  @InputField('user_id', 'uuid', { nullable: true, description: 'The user the key acts as (default: the caller’s); not one of a higher role' }) userId?: string | null;
  @InputField('scopes', 'string', { list: true, default: ['*'], check: scopesCheck, description: 'Narrow the user’s role; only scopes the calling key holds itself' }) scopes?: string[];
  @InputField('allowed_ips', 'string', { list: true, nullable: true, description: 'IPv4 and IPv6 addresses and CIDR ranges' }) allowedIps?: string[] | null;
  @InputField('usage_limit', 'int', { nullable: true, description: 'Requests per usage_period' }) usageLimit?: number | null;
  @InputField('usage_period', 'enum', { enum: ApiKeyUsagePeriod, nullable: true }) usagePeriod?: ApiKeyUsagePeriod | null;
}

/** page and limit (keys are few; newest first). */
@ArgsType()
export class ApiKeyListArgs {
  @InputField('page', 'int', { check: (v) => (v >= 1 ? null : 'must be at least 1') }) page?: number;
  @InputField('limit', 'int', { check: (v) => (v >= 1 ? null : 'must be at least 1') }) limit?: number;
}

/** REST: the new key with its secret (the create answer only). */
export class ApiKeyWithSecret extends ApiKey {
  @ApiField('secret', 'string', { graphql: false, description: 'fsk_…: shown only in this response' }) secret!: string;
}

/** GraphQL: createApiKey. */
@ObjectType()
export class ApiKeySecret {
  @ApiField('key', 'object', { type: () => ApiKey }) key!: ApiKey;
  @ApiField('secret', 'string', { description: 'fsk_…: shown only in this answer' }) secret!: string;
}

/** GraphQL `me`: the caller's own user and key, which need no scope. */
@ObjectType()
export class Me {
  @Needs() @ApiField('user', 'object', { type: () => User }) user!: User;
  @Needs() @ApiField('key', 'object', { type: () => ApiKey }) key!: ApiKey;
}
