import { randomUUID } from 'node:crypto';
import { ShowsResource } from '../../schema/access';
import { Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { ObjectType } from 'type-graphql';
import { ApiField } from '../../schema/fields';
import { TIMESTAMP } from '../../data/column-types';
import { GlobalId, Node } from '../../schema/global-id';

export const ADDONS = ['custom_numbering', 'job_photos'] as const;
export type Addon = (typeof ADDONS)[number];

/** The company's settings, changed by PUT /companies/me/settings (GraphQL updateCompanySettings). */
@ObjectType()
export class CompanySettings {
  @ApiField('prevent_double_booking', 'boolean', { description: 'Refuse a user on two overlapping visits (docs/visits.md)' })
  preventDoubleBooking!: boolean;
}

@ObjectType({ implements: Node })
@ShowsResource('company')
@GlobalId()
@Entity({ tableName: 'companies' })
export class Company {
  @ApiField('uuid', 'uuid')
  @PrimaryKey({ type: 'uuid' })
  uuid: string = randomUUID();

  @ApiField('name', 'string')
  @Property({ type: 'text' })
  name!: string;

  @ApiField('email', 'email')
  @Property({ type: 'text' })
  email!: string;

  @ApiField('phone', 'phone', { nullable: true })
  @Property({ type: 'text', nullable: true })
  phone: string | null = null;

  @ApiField('address_line_1', 'string', { nullable: true })
  @Property({ type: 'text', nullable: true })
  addressLine1: string | null = null;

  @ApiField('address_line_2', 'string', { nullable: true })
  @Property({ type: 'text', nullable: true })
  addressLine2: string | null = null;

  @ApiField('city', 'string', { nullable: true })
  @Property({ type: 'text', nullable: true })
  city: string | null = null;

  @ApiField('state', 'string', { nullable: true })
  @Property({ type: 'text', nullable: true })
  state: string | null = null;

  @ApiField('postal_code', 'string', { nullable: true })
  @Property({ type: 'text', nullable: true })
  postalCode: string | null = null;

  @ApiField('country', 'string', { nullable: true })
  @Property({ type: 'text', nullable: true })
  country: string | null = null;

  // Shown as settings.prevent_double_booking (docs/visits.md); read by the visit_assignments triggers.
  @Property({ type: 'boolean' })
  preventDoubleBooking = true;

  @ApiField('settings', 'object', { type: () => CompanySettings, reads: ['preventDoubleBooking'] })
  get settings(): CompanySettings {
    return Object.assign(new CompanySettings(), { preventDoubleBooking: this.preventDoubleBooking });
  }

  @Property({ type: 'text[]' })
  addons: string[] = [...ADDONS];

  @Property({ ...TIMESTAMP })
  createdAt: Date = new Date();

  // The same instant as created_at until the record first changes.
  @Property({ ...TIMESTAMP, onUpdate: () => new Date() })
  updatedAt: Date = this.createdAt;

  hasAddon(addon: Addon): boolean {
    return this.addons.includes(addon);
  }
}
