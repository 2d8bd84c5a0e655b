import type { RequestContext } from '../../data/context';
import { generateApiKey, hashApiKey } from '../../auth/api-key';
import { ROLE_RANK, rightsOf, type KeyScope } from '../../domain/scopes';
import { isUuid } from '../../domain/values';
import { AppError } from '../../errors/app-error';
import { pageOf, pageWindow } from '../../schema/pagination';
import { keyOptions } from '../company/company.admin';
import { User, UserRole } from '../user/user.entity';
import { ApiKey } from './api-key.entity';
import type { ApiKeyCreateInput, ApiKeyListArgs } from './api-key.inputs';

// Keys over the API (api_keys:write: owners and admins, docs/people-and-access.md). A key never
// mints a key with more rights than its own: not for a user of a higher role than its user's, and
// not with a scope it does not hold itself (400). Revoking takes effect on the next request in
// every process (the change empties every key cache, src/auth/key-cache.ts).
export const apiKeyService = {
  async list(ctx: RequestContext, args: ApiKeyListArgs) {
    const { page, limit, offset } = pageWindow(args);
    const [items, total] = await ctx.em.findAndCount(ApiKey, { company: ctx.companyId }, { orderBy: { createdAt: 'desc', id: 'desc' }, limit, offset, filters: false, populate: ['user'] });
    return pageOf(items, total, page, limit);
  },

  async get(ctx: RequestContext, id: string) {
    const key = isUuid(id) ? await ctx.em.findOne(ApiKey, { id: id.toLowerCase(), company: ctx.companyId }, { filters: false, populate: ['user'] }) : null;
    if (!key) throw AppError.notFound('API key');
    return key;
  },

  async create(ctx: RequestContext, input: ApiKeyCreateInput): Promise<{ key: ApiKey; secret: string }> {
    const user = input.userId ? await ctx.em.findOne(User, { id: input.userId.toLowerCase(), company: ctx.companyId }) : ctx.user;
    if (!user || !user.active) throw AppError.field('userId', 'does not match any active user of this company');
    if (ROLE_RANK[user.role] > ROLE_RANK[ctx.access.role]) throw AppError.field('userId', `is a user of a higher role (${user.role}) than this key's user`);
    const scopes = [...new Set(input.scopes ?? ['*'])] as KeyScope[];
    // What the new key may do, its user's role narrowed by its scopes, must be within what this key may do.
    const beyond = rightsOf(user.role, scopes).beyond(ctx.access.rights);
    if (beyond) throw AppError.field('scopes', `would give the key ${beyond}, which this key does not have`);
    const options = apiOptions(input);
    const secret = generateApiKey();
    const key = new ApiKey();
    key.company = ctx.company;
    key.user = user;
    key.name = input.name ?? null;
    key.scopes = scopes;
    key.keyHash = hashApiKey(secret);
    key.keyPrefix = secret.slice(0, 8);
    key.allowedIps = options.allowIps?.length ? options.allowIps : null;
    key.usageLimit = options.usageLimit ?? null;
    key.usagePeriod = options.usagePeriod ?? null;
    await ctx.em.persistAndFlush(key);
    return { key, secret };
  },

  /** Revokes the key (DELETE, revokeApiKey): refused on the next request, in every process. */
  async revoke(ctx: RequestContext, id: string) {
    const key = await this.get(ctx, id);
    // Only an owner touches an owner's keys (an admin may do everything but change an owner).
    if (key.user.role === UserRole.OWNER && ctx.access.role !== 'owner' && key.user.id !== ctx.access.userId) {
      throw new AppError('PERMISSION_DENIED', "This API key may not do this: only an owner may revoke an owner's key", [{ field: 'id', message: "only an owner may revoke an owner's key" }]);
    }
    key.revokedAt ??= new Date();
    await ctx.em.flush();
    return key;
  },
};

// keyOptions (shared with the admin CLI) names fields by the CLI's flags.
const FLAGS: Record<string, string> = { 'allow-ip': 'allowedIps', 'usage-limit': 'usageLimit', 'usage-period': 'usagePeriod' };

function apiOptions(input: ApiKeyCreateInput) {
  try {
    return keyOptions({ allowIps: input.allowedIps ?? undefined, usageLimit: input.usageLimit ?? undefined, usagePeriod: input.usagePeriod ?? undefined });
  } catch (err) {
    const detail = err instanceof AppError ? err.details?.[0] : undefined;
    const field = detail && FLAGS[detail.field];
    if (!field) throw err;
    throw AppError.field(field, detail.message.slice(detail.field.length + 1));
  }
}
