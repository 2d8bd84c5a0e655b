import { MiddlewareFn, UseMiddleware } from 'type-graphql';
import type { RequestContext } from '../data/context';
import { AppError } from '../errors/app-error';
import type { Addon } from '../modules/company/company.entity';

/**
 * 403 ADDON_REQUIRED unless the company has the add-on. The services whose operations need one
 * (custom numbering, job photos) call it, so both surfaces enforce it alike; the REST row's `addon`
 * and the resolver's @RequireAddon run the same check earlier, before the body is validated, so a
 * company without the add-on gets 403 whatever it sends.
 */
export function requireAddon(ctx: RequestContext, addon: Addon): void {
  if (!ctx.company.addons.includes(addon)) {
    throw new AppError('ADDON_REQUIRED', `This operation requires the "${addon}" add-on`, undefined);
  }
}

export function RequireAddon(addon: Addon): MethodDecorator & PropertyDecorator {
  const check: MiddlewareFn<RequestContext> = ({ context }, next) => {
    requireAddon(context, addon);
    return next();
  };
  return UseMiddleware(check);
}
