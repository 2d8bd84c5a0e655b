import type { Request, Response } from 'express';
import type { RequestContext } from '../data/context';
import { AppError } from '../errors/app-error';
import { clientAddress, ipAllowed } from './ip-allow-list';
import { countRequest } from './usage-limit';
import { markKeyUsed } from './last-used';

/**
 * The checks after the key is known (docs/access-and-operations.md), in order: the IP allow-list, then the usage
 * limit; between them the key is marked used (last_used_at, src/auth/last-used.ts). A request refused by the allow-list is not counted; every other one is, refused or not,
 * and responses of a limited key carry the RateLimit headers either way.
 */
export async function enforceAccess(ctx: RequestContext, req: Request, res: Response, trustProxy: boolean): Promise<void> {
  const key = ctx.key;
  if (key.allowedIps?.length) {
    const address = clientAddress(req, trustProxy);
    if (!ipAllowed(address, key.allowedIps)) {
      throw new AppError('IP_RESTRICTED', `This API key may not be used from ${address ?? 'an unknown address'}`);
    }
  }
  // Outside the transaction of anything the request does, so a refused or failed request marks it too.
  await markKeyUsed(() => ctx.em, key, ctx.companyId);
  if (key.usageLimit && key.usagePeriod) {
    const usage = await countRequest(ctx.em, key.id, key.usageLimit, key.usagePeriod);
    res.setHeader('RateLimit-Limit', String(usage.limit));
    res.setHeader('RateLimit-Remaining', String(usage.remaining));
    res.setHeader('RateLimit-Reset', String(usage.resetSeconds));
    if (usage.exceeded) {
      res.setHeader('Retry-After', String(usage.resetSeconds));
      throw new AppError(
        'USAGE_LIMIT_EXCEEDED',
        `Usage limit exceeded: this API key allows ${usage.limit} requests per ${key.usagePeriod}; the window resets in ${usage.resetSeconds} s`,
      );
    }
  }
}
