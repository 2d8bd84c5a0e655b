import { customFieldsIn, externalIdsIn } from '../custom-field/custom-data';
import { ArgsType, InputType, registerEnumType } from 'type-graphql';
import { InputField } from '../../schema/fields';
import { PartialInput } from '../../schema/inputs';
import { ListArgs } from '../../schema/pagination';
import { CustomFieldFilter, customFieldFilters } from '../custom-field/custom-field.inputs';
import { VisitStatus } from './visit.entity';

const opt = { nullable: true } as const;

@InputType('VisitCreateInput')
export class VisitCreateInput {
  @InputField('title', 'string', opt) title?: string | null;
  @InputField('instructions', 'text', opt) instructions?: string | null;
  @InputField('status', 'enum', { enum: VisitStatus, description: 'Default: Scheduled when the visit has a time, else Unscheduled' }) status?: VisitStatus;
  @InputField('starts_at', 'datetime', { ...opt, description: 'With ends_at (both or neither)' }) startsAt?: Date | null;
  @InputField('ends_at', 'datetime', { ...opt, description: 'After starts_at' }) endsAt?: Date | null;
  @InputField('all_day', 'boolean', { description: 'With visit_date: the whole day in the company time zone' }) allDay?: boolean;
  @InputField('visit_date', 'date', opt) visitDate?: string | null;
  @InputField('assigned_user_ids', 'uuid', { list: true, description: 'Users of the company' }) assignedUserIds?: string[];
  @InputField('custom_fields', 'json', customFieldsIn()) customFields?: Record<string, unknown> | null;
  @InputField('external_ids', 'json', externalIdsIn()) externalIds?: Record<string, string | null> | null;
}

export const VisitUpdateInput = PartialInput(VisitCreateInput, 'VisitUpdateInput');
export type VisitUpdateInput = InstanceType<typeof VisitUpdateInput>;

export enum AssignMode {
  REPLACE = 'replace',
  ADD = 'add',
  REMOVE = 'remove',
}
registerEnumType(AssignMode, { name: 'AssignMode' });

@InputType('VisitAssignInput')
export class VisitAssignInput {
  @InputField('user_ids', 'uuid', { list: true, required: true }) userIds!: string[];
  @InputField('mode', 'enum', { enum: AssignMode, default: 'replace' }) mode?: AssignMode;
}

@InputType('VisitCompleteInput')
export class VisitCompleteInput {
  @InputField('completed_at', 'datetime', { description: 'Default: now' }) completedAt?: Date;
}

@ArgsType()
export class VisitListArgs extends ListArgs {
  @InputField('from', 'datetime', { description: 'Visits ending after this instant (half-open [from, to))' }) from?: Date;
  @InputField('to', 'datetime', { description: 'Visits starting before this instant' }) to?: Date;
  @InputField('user_id', 'uuid') userId?: string;
  @InputField('status', 'enum', { enum: VisitStatus, list: true, description: 'One status or several (comma-separated in REST)' }) status?: VisitStatus[];
  @InputField('job_uuid', 'uuid') jobUuid?: string;
  @InputField('cf', 'object', customFieldFilters()) customFields?: CustomFieldFilter[];
}

@ArgsType()
export class UserVisitsArgs {
  @InputField('from', 'datetime') from?: Date;
  @InputField('to', 'datetime') to?: Date;
}
