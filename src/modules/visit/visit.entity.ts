import { Entity, ManyToOne, Property } from '@mikro-orm/core';
import { ObjectType, registerEnumType } from 'type-graphql';
import { ApiField } from '../../schema/fields';
import { TenantEntity, TenantScoped, TIMESTAMP } from '../../data/base.entity';
import { GlobalId, Node } from '../../schema/global-id';
import { Job } from '../job/job.entity';
import { DefaultOrder } from '../../schema/sorting';
import { CommittedListFilter } from '../../data/list-where';
import { calendarWhere } from './visit.calendar';

export enum VisitStatus {
  SCHEDULED = 'Scheduled',
  UNSCHEDULED = 'Unscheduled',
  EN_ROUTE = 'En Route',
  ON_SITE = 'On Site',
  COMPLETED = 'Completed',
  CANCELLED = 'Cancelled',
}
registerEnumType(VisitStatus, { name: 'VisitStatus' });

/** Statuses of a visit that is still to be done (the job's "next open visit", docs/visits.md). */
export const OPEN_STATUSES: readonly VisitStatus[] = [VisitStatus.SCHEDULED, VisitStatus.UNSCHEDULED, VisitStatus.EN_ROUTE, VisitStatus.ON_SITE];

// A fresh options object each time: MikroORM writes into the one it is given.
const text = () => ({ type: 'text', nullable: true }) as const;
const stamp = () => ({ ...TIMESTAMP, nullable: true });

/**
 * One trip to a job's site, with its crew. The table also has `period` (generated from starts_at
 * and ends_at), read only by SQL; visit_assignments mirrors the crew for the double-booking
 * constraint (migration 0013). Lists are by start, unscheduled last, then created_at and uuid
 * (docs/visits.md); the calendar of a technician's week is one of the committed statements.
 */
@DefaultOrder((col) => [`${col('startsAt')} asc nulls last`, `${col('createdAt')} asc`, `${col('uuid')} asc`])
@CommittedListFilter({
  name: "a user's visits in a range (the calendar: user_id, from, to)",
  args: {},
  where: (w, scope) => calendarWhere(scope, { userId: '00000000-0000-0000-0000-000000000000', from: new Date(0), to: new Date(1) })(w),
})
@ObjectType({ implements: Node })
@GlobalId()
@TenantScoped()
@Entity({ tableName: 'visits' })
export class Visit extends TenantEntity {
  @ManyToOne(() => Job, { fieldName: 'job_uuid' })
  job!: Job;

  @ApiField('job_uuid', 'uuid', { reads: ['job'] })
  get jobUuid(): string {
    return this.job?.uuid;
  }

  @ApiField('title', 'string', { nullable: true }) @Property(text()) title: string | null = null;
  @ApiField('instructions', 'text', { nullable: true }) @Property(text()) instructions: string | null = null;
  @ApiField('status', 'enum', { enum: VisitStatus }) @Property({ type: 'text' }) status: VisitStatus = VisitStatus.UNSCHEDULED;
  @ApiField('starts_at', 'datetime', { nullable: true }) @Property(stamp()) startsAt: Date | null = null;
  @ApiField('ends_at', 'datetime', { nullable: true }) @Property(stamp()) endsAt: Date | null = null;
  @ApiField('all_day', 'boolean') @Property({ type: 'boolean' }) allDay = false;
  @ApiField('visit_date', 'date', { nullable: true }) @Property({ type: 'string', columnType: 'date', nullable: true }) visitDate: string | null = null;
  @ApiField('assigned_user_ids', 'uuid', { list: true }) @Property({ type: 'text[]', columnType: 'uuid[]' }) assignedUserIds: string[] = [];
  @ApiField('completed_at', 'datetime', { nullable: true }) @Property(stamp()) completedAt: Date | null = null;
}
