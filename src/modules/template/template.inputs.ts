import { externalIdsIn } from '../custom-field/custom-data';
import { InputType } from 'type-graphql';
import { InputField } from '../../schema/fields';
import { PartialInput } from '../../schema/inputs';
import { decimalPlaces } from '../../domain/money';
import { TemplatePricingType } from './template.entity';

const opt = { nullable: true } as const;

/** tax_rate: a percentage 0–100 with at most 4 decimals (docs/conventions.md). */
export const rateCheck = (v: number) => (v >= 0 && v <= 100 && decimalPlaces(v) <= 4 ? null : 'must be between 0 and 100 with at most 4 decimals');

@InputType('TemplateAddonInput')
export class TemplateAddonInput {
  @InputField('id', 'string', { description: 'Assigned when omitted; unique in the template' }) id?: string;
  @InputField('name', 'string', { required: true }) name!: string;
  @InputField('price', 'money', { required: true }) price!: number;
}

@InputType('TemplateTiersInput')
export class TemplateTiersInput {
  @InputField('good', 'money', opt) good?: number | null;
  @InputField('better', 'money', opt) better?: number | null;
  @InputField('best', 'money', opt) best?: number | null;
}

@InputType('TemplateCreateInput')
export class TemplateCreateInput {
  @InputField('name', 'string', { required: true }) name!: string;
  @InputField('description', 'text', opt) description?: string | null;
  @InputField('pricing_type', 'enum', { enum: TemplatePricingType, required: true }) pricingType!: TemplatePricingType;
  @InputField('base_price', 'money', { ...opt, description: 'Required for flat pricing' }) basePrice?: number | null;
  @InputField('tiers', 'object', { ...opt, type: () => TemplateTiersInput, description: 'Tiered pricing: at least one price' })
  tiers?: TemplateTiersInput | null;
  @InputField('addons', 'object', {
    list: true,
    type: () => TemplateAddonInput,
    check: (v: TemplateAddonInput[]) => (v.length <= 100 ? null : 'must hold at most 100 add-ons'),
  })
  addons?: TemplateAddonInput[];
  @InputField('tax_rate', 'number', { default: 0, check: rateCheck }) taxRate?: number;
  @InputField('external_ids', 'json', externalIdsIn()) externalIds?: Record<string, string | null> | null;
}

export const TemplateUpdateInput = PartialInput(TemplateCreateInput, 'TemplateUpdateInput');
export type TemplateUpdateInput = InstanceType<typeof TemplateUpdateInput>;
