import type { RequestContext } from './context';
import { Location } from '../modules/location/location.entity';
import { companyTodayIn, DEFAULT_TIMEZONE } from '../modules/company/company.rules';

export { DEFAULT_TIMEZONE };

/** The company timezone: its primary location's, else DEFAULT_TIMEZONE (src/modules/company/company.rules.ts, docs/conventions.md). */
export async function companyTimezone(ctx: RequestContext): Promise<string> {
  const primary = await ctx.em.findOne(Location, { company: ctx.companyId, isPrimary: true, deletedAt: null }, { fields: ['timezone'] });
  return primary?.timezone ?? DEFAULT_TIMEZONE;
}

/** "Today" (default issue dates, overdue, expiry): the date in the company timezone (companyTodayIn). */
export async function companyToday(ctx: RequestContext, now = new Date()): Promise<string> {
  return companyTodayIn(await companyTimezone(ctx), now);
}
