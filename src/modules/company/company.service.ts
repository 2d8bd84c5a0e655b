import type { RequestContext } from '../../core/context';

export const companyService = {
  async me(ctx: RequestContext) {
    return ctx.company;
  },
};
