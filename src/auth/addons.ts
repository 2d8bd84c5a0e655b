import type { RequestContext } from '../core/context';
import { AppError } from '../errors/app-error';
import type { Addon } from '../modules/company/company.entity';

/**
 * 403 ADDON_REQUIRED unless the company has the add-on. Called by the services whose operations
 * need one (custom numbering, job photos), so both surfaces enforce it alike.
 */
export function requireAddon(ctx: RequestContext, addon: Addon): void {
  if (!ctx.company.addons.includes(addon)) {
    throw new AppError('ADDON_REQUIRED', `This operation requires the "${addon}" add-on`, undefined);
  }
}
