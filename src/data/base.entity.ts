import { randomUUID } from 'node:crypto';
import { Filter, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { ObjectType } from 'type-graphql';
import { ApiField } from '../schema/fields';
import type { Company } from '../modules/company/company.entity';
import { TIMESTAMP } from './column-types';
import { LiveOnly } from './live-filter';

// Every company-owned entity carries `company` and these default filters (the tenant's rows, live
// ones: src/data/live-filter.ts); services still pass the company explicitly (tenancy in two layers).
export const TENANT_FILTER = 'tenant';
export { LIVE_FILTER } from './live-filter';
export const TenantScoped = (): ClassDecorator => (target) => {
  Filter({ name: TENANT_FILTER, cond: (args: { companyId: string }) => ({ company: args.companyId }), default: true })(target);
  LiveOnly()(target);
};

export { TIMESTAMP };

@ObjectType()
export abstract class TenantEntity {
  @ApiField('uuid', 'uuid')
  @PrimaryKey({ type: 'uuid' })
  uuid: string = randomUUID();

  @ManyToOne({ entity: 'Company', fieldName: 'company_uuid', hidden: true })
  company!: Company;

  @ApiField('created_at', 'datetime')
  @Property({ ...TIMESTAMP })
  createdAt: Date = new Date();

  @ApiField('updated_at', 'datetime')
  // The same instant as created_at until the record first changes.
  @Property({ ...TIMESTAMP, onUpdate: () => new Date() })
  updatedAt: Date = this.createdAt;

  @ApiField('deleted_at', 'datetime', { nullable: true })
  @Property({ ...TIMESTAMP, nullable: true })
  deletedAt: Date | null = null;
}
