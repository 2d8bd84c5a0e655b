// Estimate expiry (docs/estimates-and-numbering.md), once in each form: TypeScript for a record in
// hand (Estimate.status, the answer on the share page), SQL for the list's status filter. Both are
// evaluated over the same fixtures in test/modules/estimate/estimate-rules.spec.ts.

/** Expired, TS form: a 'Pending' estimate whose expires_at is at or before `now`; nothing is written. */
export function isExpired(stored: string, expiresAt: Date | null, now: Date = new Date()): boolean {
  return stored === 'Pending' && expiresAt !== null && now.getTime() >= expiresAt.getTime();
}

/** Expired, SQL form, on the estimate row under `alias` at the instant `now` (an SQL timestamptz, e.g. a `?` parameter). Never null. */
export const expiredSql = (alias: string, now: string): string =>
  `(${alias}.status = 'Pending' and ${alias}.expires_at is not null and ${alias}.expires_at <= ${now})`;

/**
 * The status a list filters by, as SQL over `alias` at `now`: 'Expired' is stored 'Expired' (older
 * rows) or a pending estimate past its expiry; 'Pending' one that is not.
 */
export function statusFilterSql(status: string, alias: string, now: string): string {
  if (status === 'Pending') return `(${alias}.status = 'Pending' and not ${expiredSql(alias, now)})`;
  if (status === 'Expired') return `(${alias}.status = 'Expired' or ${expiredSql(alias, now)})`;
  return `${alias}.status = '${status.replace(/'/g, "''")}'`;
}
