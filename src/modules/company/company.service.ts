import type { RequestContext } from '../../data/context';
import type { CompanySettingsInput } from './company.inputs';

export const companyService = {
  async me(ctx: RequestContext) {
    return ctx.company;
  },

  /** A trigger brings the visits' assignments in step (docs/visits.md); turning it on over existing overlaps is a 409. */
  async updateSettings(ctx: RequestContext, input: CompanySettingsInput) {
    if (input.preventDoubleBooking !== undefined) ctx.company.preventDoubleBooking = input.preventDoubleBooking;
    await ctx.em.flush();
    return ctx.company;
  },
};
