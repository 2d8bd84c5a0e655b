import { customFieldsOut, externalIdsOut } from '../custom-field/custom-data';
import { Entity, ManyToOne, Property } from '@mikro-orm/core';
import { ShowsResource } from '../../schema/access';
import { ObjectType, registerEnumType } from 'type-graphql';
import { ApiField } from '../../schema/fields';
import { byNumber, Sortable } from '../../schema/sorting';
import { TenantEntity, TenantScoped, TIMESTAMP } from '../../data/base.entity';
import { MoneyType } from '../../schema/money-type';
import { fromCents } from '../../domain/money';
import { Customer } from '../customer/customer.entity';
import { Job } from '../job/job.entity';
import { Location } from '../location/location.entity';
import { Template } from '../template/template.entity';
import { DecimalNumberType } from '../template/decimal-type';
import { User } from '../user/user.entity';
import type { PricingSnapshot } from './estimate.pricing';
import { GlobalId, Node } from '../../schema/global-id';
import { isExpired } from './estimate.rules';

/** An acceptance signed through a customer link. */
export interface EstimateAcceptance {
  signer_name: string;
  selected_tier: string | null;
  ip: string | null;
  user_agent: string | null;
  accepted_at: string;
}

export enum EstimateStatus {
  PENDING = 'Pending',
  ACCEPTED = 'Accepted',
  DECLINED = 'Declined',
  EXPIRED = 'Expired',
}
registerEnumType(EstimateStatus, { name: 'EstimateStatus' });

export enum EstimatePricingType {
  FLAT = 'flat',
  TIERED = 'tiered',
}
registerEnumType(EstimatePricingType, { name: 'EstimatePricingType' });

export enum EstimateSelectedTier {
  GOOD = 'good',
  BETTER = 'better',
  BEST = 'best',
}
registerEnumType(EstimateSelectedTier, { name: 'EstimateSelectedTier' });

// A fresh options object each time: MikroORM writes into the one it is given.
const text = () => ({ type: 'text', nullable: true }) as const;
const money = (fieldName: string) => ({ type: MoneyType, fieldName }) as const;

@ObjectType({ implements: Node })
@ShowsResource('estimates')
@GlobalId()
@TenantScoped()
// The fields its lists sort by (docs/conventions.md, Lists).
@Sortable({ estimate_number: byNumber('estimateNumber'), total_amount: 'totalAmountCents', expires_at: 'expiresAt' })
@Entity({ tableName: 'estimates' })
export class Estimate extends TenantEntity {
  @ApiField('estimate_number', 'string') @Property({ type: 'text' }) estimateNumber!: string;

  @ManyToOne(() => Customer, { fieldName: 'customer_uuid' }) customer!: Customer;
  @ManyToOne(() => Job, { fieldName: 'job_uuid', nullable: true }) job: Job | null = null;
  @ManyToOne(() => Template, { fieldName: 'template_uuid' }) template!: Template;
  @ManyToOne(() => Location, { fieldName: 'location_uuid', nullable: true }) location: Location | null = null;
  @ManyToOne(() => User, { fieldName: 'created_by_user_id', nullable: true }) createdBy: User | null = null;

  @ApiField('customer_uuid', 'uuid', { reads: ['customer'] }) get customerUuid(): string {
    return this.customer?.uuid;
  }
  @ApiField('job_uuid', 'uuid', { nullable: true, reads: ['job'] }) get jobUuid(): string | null {
    return this.job?.uuid ?? null;
  }
  @ApiField('template_uuid', 'uuid', { reads: ['template'] }) get templateUuid(): string {
    return this.template?.uuid;
  }
  @ApiField('location_uuid', 'uuid', { nullable: true, reads: ['location'] }) get locationUuid(): string | null {
    return this.location?.uuid ?? null;
  }
  @ApiField('created_by_user_id', 'uuid', { nullable: true, reads: ['createdBy'] }) get createdByUserId(): string | null {
    return this.createdBy?.id ?? null;
  }

  /** The stored status; 'Expired' is computed at read time from expires_at. */
  @Property({ type: 'text', fieldName: 'status' }) storedStatus: EstimateStatus = EstimateStatus.PENDING;

  // A pending estimate past expires_at reads (and filters) as 'Expired'; nothing is written.
  @ApiField('status', 'enum', { enum: EstimateStatus, reads: ['storedStatus', 'expiresAt'] })
  get status(): EstimateStatus {
    return this.isExpired() ? EstimateStatus.EXPIRED : this.storedStatus;
  }

  /** isExpired of estimate.rules.ts on this record. */
  isExpired(now = new Date()): boolean {
    return isExpired(this.storedStatus, this.expiresAt, now);
  }

  @ApiField('template_name', 'string') @Property({ type: 'text' }) templateName!: string;
  @ApiField('pricing_type', 'enum', { enum: EstimatePricingType }) @Property({ type: 'text' }) pricingType!: EstimatePricingType;
  @ApiField('selected_tier', 'enum', { enum: EstimateSelectedTier, nullable: true }) @Property(text()) selectedTier: EstimateSelectedTier | null = null;

  @Property(money('base_amount')) baseAmountCents = 0;
  @Property(money('addons_amount')) addonsAmountCents = 0;
  @Property(money('tax_amount')) taxAmountCents = 0;
  @Property(money('total_amount')) totalAmountCents = 0;
  @ApiField('base_amount', 'money', { reads: ['baseAmountCents'] }) get baseAmount(): number {
    return fromCents(this.baseAmountCents);
  }
  @ApiField('addons_amount', 'money', { reads: ['addonsAmountCents'] }) get addonsAmount(): number {
    return fromCents(this.addonsAmountCents);
  }
  @ApiField('tax_amount', 'money', { reads: ['taxAmountCents'] }) get taxAmount(): number {
    return fromCents(this.taxAmountCents);
  }
  @ApiField('total_amount', 'money', { reads: ['totalAmountCents'] }) get totalAmount(): number {
    return fromCents(this.totalAmountCents);
  }

  @ApiField('quantity', 'number') @Property({ type: DecimalNumberType, columnType: 'numeric(14,4)' }) quantity = 1;
  @ApiField('selected_addons', 'string', { list: true, nullable: true }) @Property({ type: 'json', nullable: true }) selectedAddons: string[] | null = null;
  @ApiField('adjustments', 'json', { nullable: true }) @Property({ type: 'json', nullable: true }) adjustments: Record<string, number> | null = null;
  /** The template's prices, add-ons and tax rate at create: recomputation uses these. */
  @Property({ type: 'json' }) pricingSnapshot!: PricingSnapshot;

  @ApiField('service_description', 'text', { nullable: true }) @Property(text()) serviceDescription: string | null = null;
  @ApiField('internal_notes', 'text', { nullable: true }) @Property(text()) internalNotes: string | null = null;
  @ApiField('customer_notes', 'text', { nullable: true }) @Property(text()) customerNotes: string | null = null;
  @ApiField('response_notes', 'text', { nullable: true }) @Property(text()) responseNotes: string | null = null;
  @ApiField('expires_at', 'datetime', { nullable: true }) @Property({ ...TIMESTAMP, nullable: true }) expiresAt: Date | null = null;
  /** Set when the customer accepts through a link (docs/documents.md); read-only on both surfaces. */
  @ApiField('acceptance', 'json', { nullable: true, description: 'signer_name, selected_tier, ip, user_agent, accepted_at' })
  @Property({ type: 'json', nullable: true })
  acceptance: EstimateAcceptance | null = null;
  @ApiField('responded_at', 'datetime', { nullable: true }) @Property({ ...TIMESTAMP, nullable: true }) respondedAt: Date | null = null;

  // Custom data (docs/custom-fields.md): the company's fields, the values of deleted definitions kept apart, external ids.
  @ApiField('custom_fields', 'json', customFieldsOut()) @Property({ type: 'json' }) customFields: Record<string, unknown> = {};
  @Property({ type: 'json', fieldName: 'custom_fields_hidden' }) customFieldsHidden: Record<string, unknown> = {};
  @ApiField('external_ids', 'json', externalIdsOut()) @Property({ type: 'json' }) externalIds: Record<string, string> = {};
}
