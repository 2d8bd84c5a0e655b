import { randomUUID } from 'node:crypto';
import { Filter, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { ObjectType } from 'type-graphql';
import { ApiField } from '../schema/fields';
import type { Company } from '../modules/company/company.entity';

// Every company-owned entity carries `company` and these default filters; services still pass the
// company explicitly (tenancy in two layers, docs/architecture.md).
export const TENANT_FILTER = 'tenant';
/**
 * ORM reads of soft-deleted entities see the live rows only (deleted_at is null), unless a read
 * turns the filter off: `filters: false` or `{ live: false }`, which the deliberate exceptions do
 * (restore and its parents check, a visit read with its deleted ones, the loaders by id, which
 * show deleted targets, the document view). Not on relations (src/db/orm.ts): a record whose
 * customer was deleted is still found, with its customer.
 */
export const LIVE_FILTER = 'live';

const liveOnly = (_args: unknown, type: string, em: { getMetadata(): { find(name: string): { properties: object } | undefined } }, _o: unknown, entityName?: unknown) => {
  const name = typeof entityName === 'function' ? entityName.name : String(entityName);
  return type === 'read' && em.getMetadata().find(name)?.properties && 'deletedAt' in em.getMetadata().find(name)!.properties ? { deletedAt: null } : {};
};

export const TenantScoped = (): ClassDecorator => (target) => {
  Filter({ name: TENANT_FILTER, cond: (args: { companyId: string }) => ({ company: args.companyId }), default: true })(target);
  Filter({ name: LIVE_FILTER, cond: liveOnly as never, default: true, args: false })(target);
};

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
