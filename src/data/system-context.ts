import type { EntityManager } from '@mikro-orm/postgresql';
import { Company } from '../modules/company/company.entity';
import type { ApiKey } from '../modules/api-key/api-key.entity';
import type { User } from '../modules/user/user.entity';
import { TENANT_FILTER } from './base.entity';
import type { RequestContext } from './context';
import { callerOf } from '../domain/scopes';
import { Loaders } from './loaders';

/**
 * The context of work the system does for a company (the background tasks, docs/recurring-work.md):
 * the company's tenant scope on `em`, no key and no user. Its changes' events carry the system as
 * actor (no actor is set on `em`). Services that need a user or a key are not called with it.
 */
const SYSTEM = callerOf('system', 'owner', ['*']);

export function systemContext(em: EntityManager, companyId: string, requestId = 'system'): RequestContext {
  em.setFilterParams(TENANT_FILTER, { companyId });
  const key = { id: 'system', allowedIps: null, usageLimit: null, usagePeriod: null, lastUsedAt: null } as unknown as RequestContext['key'];
  return {
    requestId,
    companyId,
    key,
    // The system acts with the company's whole rights and reaches every record (no user).
    access: SYSTEM,
    company: em.getReference(Company, companyId),
    user: undefined as unknown as User,
    apiKey: undefined as unknown as ApiKey,
    em,
    loaders: new Loaders(em, { companyId }),
  };
}
