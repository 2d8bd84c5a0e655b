import { occurrencesOf } from '../../../src/modules/schedule/schedule.generate';
import { occurrenceDates, parseRule } from '../../../src/modules/schedule/schedule.rrule';
import { localParts } from '../../../src/modules/visit/visit.time';
import { AppError } from '../../../src/errors/app-error';

// Expansion of the supported RRULE subset against known answers (docs/recurring-work.md).

const dates = (rule: string, startsOn: string, through: string) => occurrenceDates(parseRule(rule, startsOn), startsOn, through);
const NY = 'America/New_York';

describe('recurrence rules', () => {
  it('MONTHLY;BYMONTHDAY=31 skips the months without a 31st', () => {
    expect(dates('FREQ=MONTHLY;BYMONTHDAY=31', '2026-01-01', '2026-12-31')).toEqual(['2026-01-31', '2026-03-31', '2026-05-31', '2026-07-31', '2026-08-31', '2026-10-31', '2026-12-31']);
  });

  it('BYMONTHDAY=-1 is the last day of each month (leap years included)', () => {
    expect(dates('FREQ=MONTHLY;BYMONTHDAY=-1', '2027-11-01', '2028-04-30')).toEqual(['2027-11-30', '2027-12-31', '2028-01-31', '2028-02-29', '2028-03-31', '2028-04-30']);
  });

  it('BYDAY=2TU is the second Tuesday, BYDAY=-1FR the last Friday', () => {
    expect(dates('FREQ=MONTHLY;BYDAY=2TU', '2026-01-01', '2026-04-30')).toEqual(['2026-01-13', '2026-02-10', '2026-03-10', '2026-04-14']);
    expect(dates('FREQ=MONTHLY;BYDAY=-1FR', '2026-01-01', '2026-04-30')).toEqual(['2026-01-30', '2026-02-27', '2026-03-27', '2026-04-24']);
  });

  it('INTERVAL=3 takes every third period from the start', () => {
    expect(dates('FREQ=WEEKLY;INTERVAL=3;BYDAY=MO', '2026-01-05', '2026-03-31')).toEqual(['2026-01-05', '2026-01-26', '2026-02-16', '2026-03-09', '2026-03-30']);
    expect(dates('FREQ=MONTHLY;INTERVAL=3', '2026-01-15', '2026-12-31')).toEqual(['2026-01-15', '2026-04-15', '2026-07-15', '2026-10-15']);
  });

  it('COUNT and UNTIL end the rule (UNTIL includes its day)', () => {
    expect(dates('FREQ=WEEKLY;COUNT=3', '2026-01-01', '2027-01-01')).toEqual(['2026-01-01', '2026-01-08', '2026-01-15']);
    expect(dates('FREQ=DAILY;UNTIL=20260104', '2026-01-01', '2027-01-01')).toEqual(['2026-01-01', '2026-01-02', '2026-01-03', '2026-01-04']);
    expect(dates('FREQ=DAILY;UNTIL=20260103T120000Z', '2026-01-01', '2027-01-01')).toEqual(['2026-01-01', '2026-01-02', '2026-01-03']);
  });

  it('keeps 09:00 local every week across both daylight-saving changes in America/New_York', () => {
    const occ = occurrencesOf({ rrule: 'FREQ=WEEKLY;BYDAY=SU', startsOn: '2026-03-01', startTime: '09:00', durationMinutes: 60, allDay: false, timezone: NY }, '2026-03-01', '2026-11-15');
    expect(occ.length).toBe(38);
    expect(occ.every((o) => localParts(o.startsAt, NY).time === '09:00' && localParts(o.endsAt, NY).time === '10:00')).toBe(true);
    expect(occ.every((o) => localParts(o.startsAt, NY).date === o.occurrenceDate)).toBe(true);
    // Standard time before 8 March and after 1 November (UTC−5), daylight time between (UTC−4).
    expect(occ.map((o) => o.startsAt.toISOString()).filter((s) => s.endsWith('T14:00:00.000Z')).map((s) => s.slice(0, 10))).toEqual(['2026-03-01', '2026-11-01', '2026-11-08', '2026-11-15']);
    expect(occ[1].startsAt.toISOString()).toBe('2026-03-08T13:00:00.000Z');
  });

  it('moves a time skipped by spring-forward forward by the gap, and takes the first instant of a repeated one', () => {
    const shape = { rrule: 'FREQ=DAILY;COUNT=1', durationMinutes: 30, allDay: false, timezone: NY };
    const [spring] = occurrencesOf({ ...shape, startsOn: '2026-03-08', startTime: '02:30' }, '2026-03-08', '2026-03-08');
    expect(localParts(spring.startsAt, NY).time).toBe('03:30');
    expect(spring.startsAt.toISOString()).toBe('2026-03-08T07:30:00.000Z');
    const [fall] = occurrencesOf({ ...shape, startsOn: '2026-11-01', startTime: '01:30' }, '2026-11-01', '2026-11-01');
    expect(fall.startsAt.toISOString()).toBe('2026-11-01T05:30:00.000Z');
  });

  it('gives an all-day occurrence the whole local day (23 hours on the spring-forward day)', () => {
    const [d] = occurrencesOf({ rrule: 'FREQ=DAILY', startsOn: '2026-03-08', startTime: null, durationMinutes: null, allDay: true, timezone: NY }, '2026-03-08', '2026-03-08');
    expect(d.endsAt.getTime() - d.startsAt.getTime()).toBe(23 * 3600_000);
  });

  it.each(['FREQ=HOURLY', 'FREQ=DAILY;BYHOUR=9', 'FREQ=WEEKLY;BYDAY=2TU', 'FREQ=DAILY;COUNT=2;UNTIL=20270101', 'BYDAY=MO', 'FREQ=DAILY;;', 'FREQ=DAILY;INTERVAL=0', 'FREQ=DAILY;FREQ=WEEKLY'])('refuses %s naming rrule', (rule) => {
    let err: unknown;
    try {
      parseRule(rule, '2026-01-01');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).details).toEqual([expect.objectContaining({ field: 'rrule' })]);
  });
});
