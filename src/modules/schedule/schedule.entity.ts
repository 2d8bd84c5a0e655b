import { Entity, ManyToOne, Property } from '@mikro-orm/core';
import { ShowsResource } from '../../schema/access';
import { ObjectType } from 'type-graphql';
import { ApiField } from '../../schema/fields';
import { TenantEntity, TenantScoped } from '../../data/base.entity';
import { GlobalId, Node } from '../../schema/global-id';
import { Job } from '../job/job.entity';

// A fresh options object each time: MikroORM writes into the one it is given.
const text = () => ({ type: 'text', nullable: true }) as const;

/**
 * A job's recurrence (docs/recurring-work.md): its visits exist for every occurrence up to
 * `horizon_days` ahead, generated through `generated_through`. One live schedule per job.
 */
@ObjectType({ implements: Node })
// A schedule is part of its job: reading jobs reads it.
@ShowsResource('jobs')
@GlobalId()
@TenantScoped()
@Entity({ tableName: 'job_schedules' })
export class JobSchedule extends TenantEntity {
  @ManyToOne(() => Job, { fieldName: 'job_uuid' })
  job!: Job;

  @ApiField('job_uuid', 'uuid', { reads: ['job'] })
  get jobUuid(): string {
    return this.job?.uuid;
  }

  @ApiField('rrule', 'string') @Property({ type: 'text' }) rrule!: string;
  @ApiField('starts_on', 'date') @Property({ type: 'string', columnType: 'date' }) startsOn!: string;
  @ApiField('start_time', 'time', { nullable: true }) @Property(text()) startTime: string | null = null;
  @ApiField('duration_minutes', 'int', { nullable: true }) @Property({ type: 'integer', nullable: true }) durationMinutes: number | null = null;
  @ApiField('all_day', 'boolean') @Property({ type: 'boolean' }) allDay = false;
  @ApiField('assigned_user_ids', 'uuid', { list: true }) @Property({ type: 'text[]', columnType: 'uuid[]' }) assignedUserIds: string[] = [];
  @ApiField('title', 'string', { nullable: true }) @Property(text()) title: string | null = null;
  @ApiField('instructions', 'text', { nullable: true }) @Property(text()) instructions: string | null = null;
  @ApiField('horizon_days', 'int') @Property({ type: 'integer' }) horizonDays = 180;
  @ApiField('timezone', 'string') @Property({ type: 'text' }) timezone!: string;
  @ApiField('generated_through', 'date', { nullable: true, description: 'Visits exist for every occurrence up to this date' })
  @Property({ type: 'string', columnType: 'date', nullable: true })
  generatedThrough: string | null = null;
}
