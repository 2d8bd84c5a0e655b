import type { RequestContext } from '../data/context';
import type { Scope } from '../domain/scopes';
import { AppError } from '../errors/app-error';

/** Declared scopes as a list (a route or field names one, or several when it writes several resources). */
export function scopeList(scope: Scope | readonly Scope[]): readonly Scope[] {
  return typeof scope === 'string' ? [scope] : scope;
}

/** The first declared scope the caller lacks, or null (its role narrowed by its key's scopes). */
export function missingScope(ctx: Pick<RequestContext, 'access'>, scope: Scope | readonly Scope[]): Scope | null {
  const rights = ctx.access.rights;
  if (typeof scope === 'string') return rights.allows(scope) ? null : scope;
  for (const s of scope) if (!rights.allows(s)) return s;
  return null;
}

/** 403 PERMISSION_DENIED naming the scope the caller lacks (docs/people-and-access.md). */
export function requireScope(ctx: Pick<RequestContext, 'access'>, scope: Scope | readonly Scope[]): void {
  const missing = missingScope(ctx, scope);
  if (missing) throw AppError.permissionDenied(missing);
}
