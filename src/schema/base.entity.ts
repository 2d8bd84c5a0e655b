import { randomUUID } from 'node:crypto';
import { Filter, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { ObjectType } from 'type-graphql';
import { ApiField } from './fields';
import type { Company } from '../modules/company/company.entity';

// Every company-owned entity carries `company` and this default filter; services still pass the
// company explicitly (tenancy in two layers).
export const TENANT_FILTER = 'tenant';
export const TenantScoped = () =>
  Filter({ name: TENANT_FILTER, cond: (args: { companyId: string }) => ({ company: args.companyId }), default: true });

export const TIMESTAMP = { type: 'Date', columnType: 'timestamptz(3)' } as const;

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
