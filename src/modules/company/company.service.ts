import type { RequestContext } from '../../data/context';
import type { CompanySettingsInput } from './company.inputs';
import { readCompany } from '../../auth/authenticate';

export const companyService = {
  /** For a response only (a query, GET): read-only unless the request already made it managed. */
  async me(ctx: RequestContext) {
    return readCompany(ctx);
  },

  /** A trigger brings the visits' assignments in step (docs/visits.md); turning it on over existing overlaps is a 409. */
  async updateSettings(ctx: RequestContext, input: CompanySettingsInput) {
    if (input.preventDoubleBooking !== undefined) ctx.company.preventDoubleBooking = input.preventDoubleBooking;
    await ctx.em.flush();
    return ctx.company;
  },
};
