import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../data/context';
import { findActive, ListInclude, listPage, restoreRecord, softDelete } from '../../data/crud';
import { ListArgs } from '../../schema/pagination';
import { toCents } from '../../domain/money';
import { AppError } from '../../errors/app-error';
import { StoredAddon, Template, TemplatePricingType } from './template.entity';
import { applyCustomData } from '../custom-field/custom-data';
import { TemplateCreateInput, TemplateUpdateInput } from './template.inputs';

const cents = (v: number | null | undefined): number | null => (v === null || v === undefined ? null : toCents(v));

/**
 * Copies the sent fields onto the template and checks the merged record: flat needs base_price,
 * tiered at least one tier price; the other pricing type's fields are cleared (and refused when
 * sent with a value).
 */
function apply(template: Template, input: TemplateCreateInput | TemplateUpdateInput): void {
  if (input.name !== undefined) template.name = input.name!;
  if (input.description !== undefined) template.description = input.description ?? null;
  if (input.pricingType !== undefined) template.pricingType = input.pricingType!;
  if (input.taxRate !== undefined) template.taxRateValue = input.taxRate!;
  if (input.basePrice !== undefined) template.basePriceCents = cents(input.basePrice);
  if (input.tiers !== undefined) {
    const t = input.tiers;
    // A tiers object replaces the prices it names; null clears them all.
    if (t === null) template.tierGoodCents = template.tierBetterCents = template.tierBestCents = null;
    else {
      if (t.good !== undefined) template.tierGoodCents = cents(t.good);
      if (t.better !== undefined) template.tierBetterCents = cents(t.better);
      if (t.best !== undefined) template.tierBestCents = cents(t.best);
    }
  }
  if (input.addons !== undefined) template.addonsStored = addonsOf(input.addons!);

  if (template.pricingType === TemplatePricingType.FLAT) {
    if (input.tiers) throw AppError.field('tiers', 'applies to tiered pricing only');
    if (template.basePriceCents === null) throw AppError.field('basePrice', 'is required for flat pricing');
    template.tierGoodCents = template.tierBetterCents = template.tierBestCents = null;
  } else {
    if (input.basePrice !== undefined && input.basePrice !== null) throw AppError.field('basePrice', 'applies to flat pricing only');
    template.basePriceCents = null;
    if (template.tierGoodCents === null && template.tierBetterCents === null && template.tierBestCents === null) {
      throw AppError.field('tiers', 'needs at least one of good, better, best for tiered pricing');
    }
  }
}

function addonsOf(list: { id?: string; name: string; price: number }[]): StoredAddon[] {
  const seen = new Set<string>();
  return list.map((a, i) => {
    const id = a.id ?? randomUUID();
    if (seen.has(id)) throw AppError.field(`addons[${i}].id`, `"${id}" is used by another add-on of this template`);
    seen.add(id);
    return { id, name: a.name, price_cents: toCents(a.price)! };
  });
}

export const templateService = {
  list(ctx: RequestContext, args: ListArgs, include?: ListInclude) {
    return listPage(ctx, Template, args, undefined, include);
  },

  get(ctx: RequestContext, uuid: string) {
    return findActive(ctx, Template, uuid, 'Template');
  },

  async create(ctx: RequestContext, input: TemplateCreateInput) {
    const template = new Template();
    template.company = ctx.company;
    apply(template, input);
    await applyCustomData(ctx, null, template, input, true);
    ctx.em.persist(template);
    await ctx.em.flush();
    return template;
  },

  async update(ctx: RequestContext, uuid: string, input: TemplateUpdateInput) {
    const template = await this.get(ctx, uuid);
    apply(template, input);
    await applyCustomData(ctx, null, template, input, false);
    await ctx.em.flush();
    return template;
  },

  async remove(ctx: RequestContext, uuid: string) {
    return softDelete(ctx, await this.get(ctx, uuid), 'Template');
  },

  restore(ctx: RequestContext, uuid: string) {
    return restoreRecord(ctx, Template, uuid, 'Template');
  },
};
