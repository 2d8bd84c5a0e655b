import { Frequency, Options, RRule } from 'rrule';
import { AppError } from '../../errors/app-error';

// Recurrence rules (docs/recurring-work.md): the RFC 5545 subset a schedule or an agreement takes,
// checked here and expanded by the rrule library over calendar dates only. Occurrences are dates;
// their local times are applied afterwards in the schedule's time zone, so a rule never sees an
// offset and 09:00 stays 09:00 across daylight-saving changes.

const PARTS = new Set(['FREQ', 'INTERVAL', 'BYDAY', 'BYMONTHDAY', 'BYMONTH', 'BYSETPOS', 'COUNT', 'UNTIL']);
const FREQS = new Set(['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY']);

export type Rule = RRule;

const toDate = (d: string) => new Date(`${d}T00:00:00.000Z`);
const fromDate = (d: Date) => d.toISOString().slice(0, 10);

/** Parses `text` against the subset and anchors it at `startsOn`; anything else is 400 naming `field`. */
export function parseRule(text: string, startsOn: string, field = 'rrule'): Rule {
  const bad = (why: string) => AppError.field(field, `${why} (FREQ DAILY, WEEKLY, MONTHLY or YEARLY; INTERVAL, BYDAY, BYMONTHDAY, BYMONTH, BYSETPOS, COUNT, UNTIL)`);
  const body = text.trim().replace(/^RRULE:/i, '');
  const seen = new Map<string, string>();
  for (const part of body.split(';')) {
    const m = /^([A-Z]+)=([A-Za-z0-9,+-]+)$/.exec(part.trim());
    if (!m) throw bad(`has a malformed part "${part}"`);
    if (!PARTS.has(m[1])) throw bad(`has ${m[1]}, which is not supported`);
    if (seen.has(m[1])) throw bad(`has ${m[1]} twice`);
    seen.set(m[1], m[2]);
  }
  const freq = seen.get('FREQ');
  if (!freq || !FREQS.has(freq)) throw bad('needs FREQ');
  if (seen.has('COUNT') && seen.has('UNTIL')) throw bad('has both COUNT and UNTIL');
  if (/[0-9]/.test(seen.get('BYDAY') ?? '') && freq !== 'MONTHLY' && freq !== 'YEARLY') throw bad('has BYDAY ordinals, which only monthly and yearly rules take');
  const until = seen.get('UNTIL');
  if (until && !/^\d{8}(T\d{6}Z?)?$/.test(until)) throw bad('has an UNTIL that is not a date (YYYYMMDD)');
  let options: Partial<Options>;
  try {
    options = RRule.parseString(body);
  } catch (err) {
    throw bad(err instanceof Error ? err.message : 'is not a recurrence rule');
  }
  if (options.count !== undefined && options.count !== null && options.count < 1) throw bad('has a COUNT below 1');
  if (options.interval !== undefined && options.interval < 1) throw bad('has an INTERVAL below 1');
  // UNTIL is a date in the schedule's calendar: the whole day counts.
  const untilDate = until ? toDate(`${until.slice(0, 4)}-${until.slice(4, 6)}-${until.slice(6, 8)}`) : null;
  return new RRule({ ...options, freq: options.freq as Frequency, dtstart: toDate(startsOn), until: untilDate, tzid: null });
}

/** The occurrence dates in [from, through] (YYYY-MM-DD), at most `limit`. */
export function occurrenceDates(rule: Rule, from: string, through: string, limit = Infinity): string[] {
  if (through < from) return [];
  return rule.between(toDate(from), toDate(through), true, (_d, i) => i < limit).map(fromDate);
}

/** The first occurrence on or after `from`, or null when the rule has ended (COUNT or UNTIL). */
export function nextOccurrence(rule: Rule, from: string): string | null {
  const d = rule.after(toDate(from), true);
  return d ? fromDate(d) : null;
}

/** A date plus `days` (YYYY-MM-DD). */
export function addDays(date: string, days: number): string {
  return fromDate(new Date(toDate(date).getTime() + days * 86_400_000));
}
