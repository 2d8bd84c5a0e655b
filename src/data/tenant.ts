import type { Caller } from '../domain/scopes';

// Tenancy and liveness by construction (docs/architecture.md, Tenancy). A request's tenant scope
// is built once, by authentication (src/auth/authenticate.ts): the RequestContext carries it as
// `companyId`, and every other holder of a company (the share page's public-link context, the
// loaders) is a TenantScope too. The ORM's tenant filter scopes em.find* to it; statements written
// by hand take their company and liveness conditions from the helpers below.
// test/reliability/tenant-statements.spec.ts records every statement of one request per route
// (REST and GraphQL) and fails when one on a company table does not carry the company.

/**
 * Whose rows a piece of work may read and write: one company; for a technician's request, only
 * the records in their reach (`access`, src/data/reach.ts).
 */
export interface TenantScope {
  readonly companyId: string;
  /** Who is asking (the request context's): a technician's reads are held to their reach. */
  readonly access?: Pick<Caller, 'role' | 'userId'>;
}

/** The conditions of a hand-written statement and their parameters. */
export interface Conditions {
  sql: string;
  params: unknown[];
}

const col = (alias: string | null, column: string) => (alias ? `${alias}.${column}` : column);

/**
 * `<alias>.company_uuid = ?` (the scope's company) and, unless `deleted` is 'any', `<alias>.deleted_at is null`:
 * the conditions every hand-written statement on a company table starts with.
 */
export function scopedWhere(scope: TenantScope, alias: string | null = null, { deleted = 'live' }: { deleted?: 'live' | 'any' } = {}): Conditions {
  const sql = `${col(alias, 'company_uuid')} = ?` + (deleted === 'live' ? ` and ${isLive(alias)}` : '');
  return { sql, params: [scope.companyId] };
}

/** `<alias>.company_uuid = ?` alone, its parameter the scope's company (a table with no deleted_at). */
export function companyIs(scope: TenantScope, alias: string | null = null): Conditions {
  return scopedWhere(scope, alias, { deleted: 'any' });
}

/** `<alias>.company_uuid = ?` of a statement written once (a constant): its parameter is the scope's companyId, passed first. */
export function companyCondition(alias: string | null = null): string {
  return `${col(alias, 'company_uuid')} = ?`;
}

/** `<alias>.deleted_at is null`: the live rows. */
export function isLive(alias: string | null = null): string {
  return `${col(alias, 'deleted_at')} is null`;
}

/** An ORM `where` held to the scope's company: for the reads that run without the tenant filter (the share page, row locks). */
export function ofCompany<W extends object>(scope: TenantScope, where: W): W & { company: string } {
  return { ...where, company: scope.companyId };
}
