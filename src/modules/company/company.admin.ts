import type { EntityManager } from '@mikro-orm/postgresql';
import { generateApiKey, hashApiKey } from '../../auth/api-key';
import { canonicalCidr } from '../../auth/ip-allow-list';
import { USAGE_PERIODS } from '../../auth/usage-limit';
import { AppError } from '../../errors/app-error';
import { isEmail, isUuid } from '../../domain/values';
import { isKeyScope, type KeyScope } from '../../domain/scopes';
import { ApiKey, UsagePeriod } from '../api-key/api-key.entity';
import { User, UserRole } from '../user/user.entity';
import { ADDONS, Company } from './company.entity';

// Operator actions behind the admin CLI and the demo seed. They run on an EntityManager without a
// request context, so every query names its company explicitly and switches the tenant filter off.

const NO_FILTERS = { filters: false } as const;

export function parseAddons(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const list = raw.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = list.filter((a) => !(ADDONS as readonly string[]).includes(a));
  if (unknown.length) throw AppError.field('addons', `has unknown add-on(s) ${unknown.join(', ')}; known: ${ADDONS.join(', ')}`);
  return [...new Set(list)];
}

export interface KeyOptions {
  allowIps?: string[];
  usageLimit?: number;
  usagePeriod?: UsagePeriod;
}

export async function createCompany(em: EntityManager, o: { name: string; email: string; addons?: string[] }) {
  if (!o.name?.trim()) throw AppError.field('name', 'is required');
  if (!o.email || !isEmail(o.email.trim())) throw AppError.field('email', 'must be a valid email address');
  return em.transactional(async (tx) => {
    const company = new Company();
    company.name = o.name.trim();
    company.email = o.email.trim().toLowerCase();
    if (o.addons) company.addons = o.addons;
    const user = new User();
    user.company = company;
    user.firstName = 'Account';
    user.lastName = 'Owner';
    user.email = company.email;
    // A company's first user is its owner.
    user.role = UserRole.OWNER;
    tx.persist([company, user]);
    await tx.flush();
    const { apiKey, key } = await issueKey(tx, company, user, {});
    return { company, user, key, apiKey };
  });
}

export async function createUser(em: EntityManager, o: { companyUuid: string; firstName: string; lastName: string; email?: string; role?: UserRole }) {
  const company = await findCompany(em, o.companyUuid);
  if (!o.firstName?.trim()) throw AppError.field('first-name', 'is required');
  if (!o.lastName?.trim()) throw AppError.field('last-name', 'is required');
  if (o.email && !isEmail(o.email.trim())) throw AppError.field('email', 'must be a valid email address');
  const user = new User();
  user.company = company;
  user.firstName = o.firstName.trim();
  user.lastName = o.lastName.trim();
  user.email = o.email?.trim().toLowerCase() || null;
  if (o.role !== undefined && !Object.values(UserRole).includes(o.role)) throw AppError.field('role', `must be one of ${Object.values(UserRole).join(', ')}`);
  // The first user of a company is its owner (a company made by create-company has one already).
  const first = !(await em.count(User, { company }, NO_FILTERS));
  user.role = first ? UserRole.OWNER : (o.role ?? UserRole.OFFICE);
  await em.persistAndFlush(user);
  return user;
}

export async function createKey(em: EntityManager, o: { companyUuid: string; userId?: string; name?: string; scopes?: string[] } & KeyOptions) {
  const options = keyOptions(o);
  const bad = o.scopes?.find((s) => !isKeyScope(s));
  if (bad !== undefined) throw AppError.field('scopes', `has "${bad}", which is not a scope (<resource>:read, <resource>:write, *:read or *)`);
  const company = await findCompany(em, o.companyUuid);
  if (o.userId !== undefined && !isUuid(o.userId)) throw AppError.field('user', 'must be a user id (a UUID)');
  const user = o.userId
    ? await em.findOne(User, { id: o.userId.toLowerCase(), company }, NO_FILTERS)
    : await em.findOne(User, { company }, { ...NO_FILTERS, orderBy: { createdAt: 'asc', id: 'asc' } });
  if (!user) throw AppError.field('user', 'does not match any user of this company');
  return issueKey(em, company, user, { ...options, name: o.name, scopes: o.scopes as KeyScope[] | undefined });
}

/** Validates the access rules of a new key; fields are named by their CLI flags. */
export function keyOptions(o: KeyOptions): KeyOptions {
  const allowIps = o.allowIps?.map((raw) => {
    const cidr = canonicalCidr(String(raw));
    if (!cidr) throw AppError.field('allow-ip', `has "${raw}", which is not an IPv4 or IPv6 address or CIDR range`);
    return cidr;
  });
  if ((o.usageLimit === undefined) !== (o.usagePeriod === undefined)) {
    throw AppError.field('usage-limit', 'and usage-period go together');
  }
  if (o.usageLimit !== undefined && (!Number.isSafeInteger(o.usageLimit) || o.usageLimit < 1 || o.usageLimit > 2_147_483_647)) {
    throw AppError.field('usage-limit', 'must be a whole number from 1 to 2147483647');
  }
  if (o.usagePeriod !== undefined && !USAGE_PERIODS.includes(o.usagePeriod)) {
    throw AppError.field('usage-period', `must be one of ${USAGE_PERIODS.join(', ')}`);
  }
  return { allowIps: allowIps && [...new Set(allowIps)], usageLimit: o.usageLimit, usagePeriod: o.usagePeriod };
}

async function issueKey(em: EntityManager, company: Company, user: User, o: KeyOptions & { name?: string; scopes?: KeyScope[] }) {
  const apiKey = generateApiKey();
  const key = new ApiKey();
  key.company = company;
  key.user = user;
  key.keyHash = hashApiKey(apiKey);
  key.keyPrefix = apiKey.slice(0, 8);
  key.allowedIps = o.allowIps?.length ? o.allowIps : null;
  key.usageLimit = o.usageLimit ?? null;
  key.usagePeriod = o.usagePeriod ?? null;
  key.name = o.name?.trim() || null;
  if (o.scopes?.length) key.scopes = [...new Set(o.scopes)];
  await em.persistAndFlush(key);
  return { apiKey, key };
}

export async function revokeKey(em: EntityManager, id: string) {
  // A key id that is not a UUID names no key (never a database error).
  const key = isUuid(id) ? await em.findOne(ApiKey, { id: id.toLowerCase() }, NO_FILTERS) : null;
  if (!key) throw AppError.notFound('API key');
  key.revokedAt ??= new Date();
  await em.flush();
  return key;
}

export async function setAddons(em: EntityManager, companyUuid: string, addons: string[]) {
  const company = await findCompany(em, companyUuid);
  company.addons = addons;
  await em.flush();
  return company;
}

export async function listKeys(em: EntityManager, companyUuid: string) {
  const company = await findCompany(em, companyUuid);
  return em.find(ApiKey, { company }, { ...NO_FILTERS, orderBy: { createdAt: 'asc' } });
}

export async function findCompany(em: EntityManager, uuid: string): Promise<Company> {
  const company = isUuid(uuid) ? await em.findOne(Company, { uuid: uuid.toLowerCase() }, NO_FILTERS) : null;
  if (!company) throw AppError.notFound('Company');
  return company;
}

/** Key as listed by the CLI: never the secret or its hash. */
export function keyView(k: ApiKey) {
  return {
    id: k.id,
    company_uuid: k.company.uuid,
    user_id: k.user.id,
    key_prefix: k.keyPrefix,
    name: k.name,
    scopes: k.scopes,
    allowed_ips: k.allowedIps,
    usage_limit: k.usageLimit,
    usage_period: k.usagePeriod,
    created_at: k.createdAt.toISOString(),
    revoked_at: k.revokedAt?.toISOString() ?? null,
  };
}
