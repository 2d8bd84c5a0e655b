import { isDateOnly, parseTimestamp } from '../../domain/values';

/** Offset (ms) of a time zone from UTC at an instant. */
function offsetAt(timeZone: string, at: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
  }).formatToParts(new Date(at));
  const get = (t: string) => Number(parts.find((p) => p.type === t)!.value);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return wall - Math.floor(at / 1000) * 1000;
}

/** The last millisecond of a date (YYYY-MM-DD) in a time zone. */
export function endOfDayIn(timeZone: string, ymd: string): Date {
  const [y, m, d] = ymd.split('-').map(Number);
  const nextMidnightWall = Date.UTC(y, m - 1, d + 1);
  let at = nextMidnightWall - offsetAt(timeZone, nextMidnightWall);
  at = nextMidnightWall - offsetAt(timeZone, at); // once more across a DST change
  return new Date(at - 1);
}

/** expires_at as sent: a timestamp, or a date meaning the end of that day in `timeZone`. */
export function parseExpiry(value: string, timeZone: string): Date {
  return isDateOnly(value) ? endOfDayIn(timeZone, value) : parseTimestamp(value)!;
}
