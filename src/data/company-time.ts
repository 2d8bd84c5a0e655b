import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from './context';
import { Location } from '../modules/location/location.entity';
import { companyTodayIn, DEFAULT_TIMEZONE } from '../modules/company/company.rules';

export { DEFAULT_TIMEZONE };

/**
 * The timezone of the company `companyUuid`: its primary, live location's, else DEFAULT_TIMEZONE
 * (docs/conventions.md): the TS form of companyTimezoneSql (src/modules/company/company.rules.ts).
 * The company is a condition, so it reads alike in a request and outside one (the share page).
 */
export async function companyTimezoneOf(em: EntityManager, companyUuid: string): Promise<string> {
  const primary = await em.findOne(Location, { company: companyUuid, isPrimary: true, deletedAt: null }, { filters: false, fields: ['timezone'] });
  return primary?.timezone ?? DEFAULT_TIMEZONE;
}

/** The request's company timezone (companyTimezoneOf). */
export function companyTimezone(ctx: RequestContext): Promise<string> {
  return companyTimezoneOf(ctx.em, ctx.companyId);
}

/** "Today" (default issue dates, overdue, expiry): the date in the company timezone (companyTodayIn). */
export async function companyToday(ctx: RequestContext, now = new Date()): Promise<string> {
  return companyTodayIn(await companyTimezone(ctx), now);
}
