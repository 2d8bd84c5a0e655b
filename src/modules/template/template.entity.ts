import { externalIdsOut } from '../custom-field/custom-data';
import { Entity, Property } from '@mikro-orm/core';
import { ShowsResource } from '../../schema/access';
import { ObjectType, registerEnumType } from 'type-graphql';
import { ApiField } from '../../schema/fields';
import { Sortable } from '../../schema/sorting';
import { TenantEntity, TenantScoped } from '../../data/base.entity';
import { MoneyType } from '../../schema/money-type';
import { fromCents } from '../../domain/money';
import { DecimalNumberType } from './decimal-type';
import { GlobalId, Node } from '../../schema/global-id';

export enum TemplatePricingType {
  FLAT = 'flat',
  TIERED = 'tiered',
}
registerEnumType(TemplatePricingType, { name: 'TemplatePricingType' });

export type Tier = 'good' | 'better' | 'best';
export const TIERS: Tier[] = ['good', 'better', 'best'];

/** An add-on as stored (jsonb): price in integer cents. */
export interface StoredAddon {
  id: string;
  name: string;
  price_cents: number;
}

@ObjectType('TemplateAddon')
export class TemplateAddon {
  @ApiField('id', 'string') id!: string;
  @ApiField('name', 'string') name!: string;
  @ApiField('price', 'money') price!: number;
}

@ObjectType('TemplateTiers')
export class TemplateTiers {
  @ApiField('good', 'money', { nullable: true }) good!: number | null;
  @ApiField('better', 'money', { nullable: true }) better!: number | null;
  @ApiField('best', 'money', { nullable: true }) best!: number | null;
}

// A fresh options object each time: MikroORM writes into the one it is given.
const money = (fieldName: string) => ({ type: MoneyType, fieldName, nullable: true }) as const;

@ObjectType({ implements: Node })
@ShowsResource('templates')
@GlobalId()
@TenantScoped()
// The fields its lists sort by (docs/conventions.md, Lists).
@Sortable({ name: 'name', base_price: 'basePriceCents' })
@Entity({ tableName: 'templates' })
export class Template extends TenantEntity {
  @ApiField('name', 'string') @Property({ type: 'text' }) name!: string;
  @ApiField('description', 'text', { nullable: true }) @Property({ type: 'text', nullable: true }) description: string | null = null;

  @ApiField('pricing_type', 'enum', { enum: TemplatePricingType })
  @Property({ type: 'text' })
  pricingType!: TemplatePricingType;

  @Property(money('base_price')) basePriceCents: number | null = null;
  @Property(money('tier_good')) tierGoodCents: number | null = null;
  @Property(money('tier_better')) tierBetterCents: number | null = null;
  @Property(money('tier_best')) tierBestCents: number | null = null;
  @Property({ type: 'json', fieldName: 'addons' }) addonsStored: StoredAddon[] = [];
  @Property({ type: DecimalNumberType, columnType: 'numeric(7,4)', fieldName: 'tax_rate' }) taxRateValue = 0;

  @ApiField('base_price', 'money', { nullable: true, description: 'Flat pricing', reads: ['basePriceCents'] })
  get basePrice(): number | null {
    return this.basePriceCents === null ? null : fromCents(this.basePriceCents);
  }

  @ApiField('tiers', 'object', { nullable: true, type: () => TemplateTiers, description: 'Tiered pricing', reads: ['pricingType', 'tierBestCents', 'tierBetterCents', 'tierGoodCents'] })
  get tiers(): TemplateTiers | null {
    if (this.pricingType !== TemplatePricingType.TIERED) return null;
    const c = (v: number | null) => (v === null ? null : fromCents(v));
    return Object.assign(new TemplateTiers(), { good: c(this.tierGoodCents), better: c(this.tierBetterCents), best: c(this.tierBestCents) });
  }

  @ApiField('addons', 'object', { list: true, type: () => TemplateAddon, reads: ['addonsStored'] })
  get addons(): TemplateAddon[] {
    return this.addonsStored.map((a) => Object.assign(new TemplateAddon(), { id: a.id, name: a.name, price: fromCents(a.price_cents) }));
  }

  @ApiField('tax_rate', 'number', { description: 'Percent, 0–100', reads: ['taxRateValue'] })
  get taxRate(): number {
    return this.taxRateValue;
  }

  tierCents(tier: Tier): number | null {
    return { good: this.tierGoodCents, better: this.tierBetterCents, best: this.tierBestCents }[tier];
  }

  // External ids (docs/custom-fields.md).
  @ApiField('external_ids', 'json', externalIdsOut()) @Property({ type: 'json' }) externalIds: Record<string, string> = {};
}
