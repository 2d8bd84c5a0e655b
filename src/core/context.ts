import type { EntityManager } from '@mikro-orm/postgresql';
import type { ApiKey } from '../modules/api-key/api-key.entity';
import type { Company } from '../modules/company/company.entity';
import type { User } from '../modules/user/user.entity';
import { Loaders } from '../graphql/loaders';

/** Built once per request by the auth middleware and shared by REST and GraphQL. */
export interface RequestContext {
  requestId: string;
  company: Company;
  user: User;
  apiKey: ApiKey;
  /** A fork of the global EntityManager, with the tenant filter bound to the company. */
  em: EntityManager;
  loaders: Loaders;
  /** Absolute base URL the request was addressed to (links such as photo_url). */
  baseUrl?: string;
}
