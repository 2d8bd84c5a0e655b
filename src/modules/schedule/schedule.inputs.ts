import { InputType, ObjectType } from 'type-graphql';
import { ApiField, InputField } from '../../schema/fields';
import { isTimeZone } from '../../domain/values';
import { AppError } from '../../errors/app-error';
import { parseRule } from './schedule.rrule';

/** The rule's message, or null when `rrule` is of the subset (docs/recurring-work.md). */
export function ruleCheck(v: string, input: { startsOn?: string }): string | null {
  try {
    parseRule(v, input.startsOn ?? '2000-01-01');
    return null;
  } catch (err) {
    return err instanceof AppError ? err.message.replace(/^rrule /, '') : 'is not a recurrence rule';
  }
}

const range = (lo: number, hi: number) => (v: number) => (Number.isInteger(v) && v >= lo && v <= hi ? null : `must be a whole number between ${lo} and ${hi}`);
const zoneCheck = (v: string) => (isTimeZone(v) ? null : 'must be an IANA time zone name');

/** A job's schedule: PUT /jobs/{uuid}/schedule, setJobSchedule, and the preview's body. */
@InputType('JobScheduleInput')
export class JobScheduleInput {
  @InputField('rrule', 'string', { required: true, check: ruleCheck, description: 'RFC 5545 subset: FREQ DAILY|WEEKLY|MONTHLY|YEARLY, INTERVAL, BYDAY (ordinals for monthly and yearly), BYMONTHDAY, BYMONTH, BYSETPOS, COUNT, UNTIL' })
  rrule!: string;
  @InputField('starts_on', 'date', { required: true }) startsOn!: string;
  @InputField('start_time', 'time', { nullable: true, description: 'Local time of each visit (with duration_minutes), unless all_day' }) startTime?: string | null;
  @InputField('duration_minutes', 'int', { nullable: true, check: range(1, 1440) }) durationMinutes?: number | null;
  @InputField('all_day', 'boolean', { default: false }) allDay?: boolean;
  @InputField('assigned_user_ids', 'uuid', { list: true, description: 'Users of the company' }) assignedUserIds?: string[];
  @InputField('title', 'string', { nullable: true }) title?: string | null;
  @InputField('instructions', 'text', { nullable: true }) instructions?: string | null;
  @InputField('horizon_days', 'int', { default: 180, check: range(7, 730), description: 'Visits exist this many days ahead' }) horizonDays?: number;
  @InputField('timezone', 'string', { check: zoneCheck, description: "Default: the company's time zone" }) timezone?: string;
}

@InputType('SchedulePreviewInput')
export class SchedulePreviewInput extends JobScheduleInput {
  @InputField('limit', 'int', { default: 50, check: range(1, 500) }) limit?: number;
}

@ObjectType('ScheduleOccurrence')
export class ScheduleOccurrence {
  @ApiField('occurrence_date', 'date') occurrenceDate!: string;
  @ApiField('starts_at', 'datetime') startsAt!: Date;
  @ApiField('ends_at', 'datetime') endsAt!: Date;
}

@ObjectType('SchedulePreview')
export class SchedulePreview {
  @ApiField('occurrences', 'object', { type: () => ScheduleOccurrence, list: true }) occurrences!: ScheduleOccurrence[];
}

