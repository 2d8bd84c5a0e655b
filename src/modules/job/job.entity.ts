import { customFieldsOut, externalIdsOut, tagsOut } from '../custom-field/custom-data';
import { Entity, ManyToOne, Property } from '@mikro-orm/core';
import { ShowsResource } from '../../schema/access';
import { ObjectType, registerEnumType } from 'type-graphql';
import { ApiField } from '../../schema/fields';
import { byNumber, Sortable } from '../../schema/sorting';
import { TenantEntity, TenantScoped, TIMESTAMP } from '../../data/base.entity';
import { MoneyType } from '../../schema/money-type';
import { fromCents } from '../../domain/money';
import { Customer } from '../customer/customer.entity';
import { Location } from '../location/location.entity';
import { User } from '../user/user.entity';
import { GlobalId, Node } from '../../schema/global-id';

import { JobStatus } from './job.rules';

export { JobStatus };
registerEnumType(JobStatus, { name: 'JobStatus' });

export enum JobPriority {
  LOW = 'Low',
  NORMAL = 'Normal',
  HIGH = 'High',
  EMERGENCY = 'Emergency',
}
registerEnumType(JobPriority, { name: 'JobPriority' });

// A fresh options object each time: MikroORM writes into the one it is given.
const text = () => ({ type: 'text', nullable: true }) as const;
const stamp = () => ({ ...TIMESTAMP, nullable: true });

@ObjectType({ implements: Node })
@ShowsResource('jobs')
@GlobalId()
@TenantScoped()
// The fields its lists sort by (docs/conventions.md, Lists).
@Sortable({ job_number: byNumber('jobNumber'), title: 'title', status: 'status', scheduled_date: 'scheduledDate' })
@Entity({ tableName: 'jobs' })
export class Job extends TenantEntity {
  // Assigned at create from the per-company sequence ("1", "2", …); read-only.
  @ApiField('job_number', 'string', { nullable: true }) @Property(text()) jobNumber: string | null = null;

  @ManyToOne(() => Customer, { fieldName: 'customer_uuid' })
  customer!: Customer;

  @ApiField('customer_uuid', 'uuid', { reads: ['customer'] })
  get customerUuid(): string {
    return this.customer?.uuid;
  }

  @ManyToOne(() => Location, { fieldName: 'location_uuid', nullable: true })
  location: Location | null = null;

  @ApiField('location_uuid', 'uuid', { nullable: true, reads: ['location'] })
  get locationUuid(): string | null {
    return this.location?.uuid ?? null;
  }

  @ManyToOne(() => User, { fieldName: 'assigned_to_user_id', nullable: true })
  assignedTo: User | null = null;

  @ApiField('assigned_to_user_id', 'uuid', { nullable: true, reads: ['assignedTo'] })
  get assignedToUserId(): string | null {
    return this.assignedTo?.id ?? null;
  }

  @ApiField('title', 'string') @Property({ type: 'text' }) title!: string;
  @ApiField('description', 'text', { nullable: true }) @Property(text()) description: string | null = null;

  @ApiField('status', 'enum', { enum: JobStatus }) @Property({ type: 'text' }) status: JobStatus = JobStatus.NEW;
  @ApiField('priority', 'enum', { enum: JobPriority }) @Property({ type: 'text' }) priority: JobPriority = JobPriority.NORMAL;
  @ApiField('is_urgent', 'boolean') @Property({ type: 'boolean' }) isUrgent = false;
  @ApiField('is_emergency', 'boolean') @Property({ type: 'boolean' }) isEmergency = false;

  @ApiField('service_address1', 'string', { nullable: true }) @Property(text()) serviceAddress1: string | null = null;
  @ApiField('service_address2', 'string', { nullable: true }) @Property(text()) serviceAddress2: string | null = null;
  @ApiField('service_city', 'string', { nullable: true }) @Property(text()) serviceCity: string | null = null;
  @ApiField('service_state', 'string', { nullable: true }) @Property(text()) serviceState: string | null = null;
  @ApiField('service_zip', 'string', { nullable: true }) @Property(text()) serviceZip: string | null = null;

  @Property({ type: MoneyType, fieldName: 'estimated_amount', nullable: true }) estimatedAmountCents: number | null = null;
  @Property({ type: MoneyType, fieldName: 'actual_amount', nullable: true }) actualAmountCents: number | null = null;

  @ApiField('estimated_amount', 'money', { nullable: true, reads: ['estimatedAmountCents'] })
  get estimatedAmount(): number | null {
    return this.estimatedAmountCents === null ? null : fromCents(this.estimatedAmountCents);
  }

  @ApiField('actual_amount', 'money', { nullable: true, reads: ['actualAmountCents'] })
  get actualAmount(): number | null {
    return this.actualAmountCents === null ? null : fromCents(this.actualAmountCents);
  }

  @ApiField('scheduled_date', 'date', { nullable: true }) @Property({ type: 'string', columnType: 'date', nullable: true }) scheduledDate: string | null = null;
  @ApiField('scheduled_time_start', 'time', { nullable: true }) @Property(text()) scheduledTimeStart: string | null = null;
  @ApiField('scheduled_time_end', 'time', { nullable: true }) @Property(text()) scheduledTimeEnd: string | null = null;

  @ApiField('started_at', 'datetime', { nullable: true }) @Property(stamp()) startedAt: Date | null = null;
  @ApiField('completed_at', 'datetime', { nullable: true }) @Property(stamp()) completedAt: Date | null = null;
  @ApiField('invoiced_at', 'datetime', { nullable: true }) @Property(stamp()) invoicedAt: Date | null = null;
  @ApiField('paid_at', 'datetime', { nullable: true }) @Property(stamp()) paidAt: Date | null = null;

  @ApiField('internal_notes', 'text', { nullable: true }) @Property(text()) internalNotes: string | null = null;
  @ApiField('customer_notes', 'text', { nullable: true }) @Property(text()) customerNotes: string | null = null;

  // Custom data (docs/custom-fields.md): the company's fields, the values of deleted definitions kept apart, external ids.
  @ApiField('custom_fields', 'json', customFieldsOut()) @Property({ type: 'json' }) customFields: Record<string, unknown> = {};
  @Property({ type: 'json', fieldName: 'custom_fields_hidden' }) customFieldsHidden: Record<string, unknown> = {};
  @ApiField('external_ids', 'json', externalIdsOut()) @Property({ type: 'json' }) externalIds: Record<string, string> = {};
  @ApiField('tags', 'string', tagsOut()) @Property({ type: 'text[]' }) tags: string[] = [];
}
