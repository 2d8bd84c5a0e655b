import type { RequestContext } from './context';
import { Location } from '../modules/location/location.entity';
import { dateIn } from '../domain/values';

export const DEFAULT_TIMEZONE = 'America/New_York';

/** The company timezone: its primary location's, else America/New_York (docs/conventions.md). */
export async function companyTimezone(ctx: RequestContext): Promise<string> {
  const primary = await ctx.em.findOne(Location, { company: ctx.company, isPrimary: true, deletedAt: null }, { fields: ['timezone'] });
  return primary?.timezone ?? DEFAULT_TIMEZONE;
}

/** "Today" (default issue dates, overdue, expiry): the date in the company timezone. */
export async function companyToday(ctx: RequestContext, now = new Date()): Promise<string> {
  return dateIn(await companyTimezone(ctx), now);
}
