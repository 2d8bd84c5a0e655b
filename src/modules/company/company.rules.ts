import { dateIn } from '../../domain/values';

// "Today" for a company (docs/conventions.md, "Company time"), once in each form: TypeScript for
// records in hand, SQL for statements that judge many rows at once. test/modules/company/
// company-rules.spec.ts evaluates both over the same locations and instants.

/** The time zone of a company without a live primary location. */
export const DEFAULT_TIMEZONE = 'America/New_York';

/** TS form: the company's "today" given its primary location's time zone (none: the default). */
export function companyTodayIn(primaryTimezone: string | null | undefined, now: Date = new Date()): string {
  return dateIn(primaryTimezone ?? DEFAULT_TIMEZONE, now);
}

/** SQL form of the time zone: the primary, live location's of the company `companyUuid` (an SQL expression), else the default. */
export const companyTimezoneSql = (companyUuid: string): string =>
  `coalesce((select l.timezone from locations l where l.company_uuid = ${companyUuid} and l.is_primary and l.deleted_at is null limit 1), '${DEFAULT_TIMEZONE}')`;

/** SQL form of "today" (a date) for the company `companyUuid`, at the instant `now` (an SQL timestamptz; the statement's now() unless given). */
export const companyTodaySql = (companyUuid: string, now = 'now()'): string => `(${now} at time zone ${companyTimezoneSql(companyUuid)})::date`;
