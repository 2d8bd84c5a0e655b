import type { UsagePeriod } from '../../src/modules/api-key/api-key.entity';
import { createKey } from '../../src/modules/company/company.admin';
import type { Tenant, TestApp } from './app';

/** Another key of a tenant's company, with access rules, as the admin CLI would issue it. */
export async function keyWith(t: TestApp, tenant: Tenant, o: { allowIps?: string[]; usageLimit?: number; usagePeriod?: UsagePeriod }) {
  const { apiKey, key } = await createKey(t.orm.em.fork(), { companyUuid: tenant.companyUuid, ...o });
  return { key: apiKey, id: key.id, companyUuid: tenant.companyUuid, userId: tenant.userId };
}
