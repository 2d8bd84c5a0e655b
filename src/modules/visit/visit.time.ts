// Wall-clock dates and times in the company's time zone (docs/visits.md): a visit's visit_date,
// an all-day visit's bounds and the jobs' scheduled_date/scheduled_time_* mirror.

// A formatter per time zone, made once: making one costs far more than using it (a schedule's 730
// occurrences use them thousands of times).
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(key: string, make: () => Intl.DateTimeFormat): Intl.DateTimeFormat {
  let f = formatters.get(key);
  if (!f) formatters.set(key, (f = make()));
  return f;
}

// Offsets by time zone and minute (zones change offset on whole minutes); bounded.
const offsets = new Map<string, number>();

function offsetMs(timeZone: string, at: number): number {
  const key = `${timeZone} ${Math.floor(at / 60_000)}`;
  let v = offsets.get(key);
  if (v === undefined) {
    if (offsets.size >= 20_000) offsets.clear();
    offsets.set(key, (v = computeOffsetMs(timeZone, Math.floor(at / 60_000) * 60_000)));
  }
  return v;
}

function computeOffsetMs(timeZone: string, at: number): number {
  const f = formatter(`offset ${timeZone}`, () => new Intl.DateTimeFormat('en-US', {
    timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
  }));
  const parts = f.formatToParts(new Date(at));
  const get = (t: string) => Number(parts.find((p) => p.type === t)!.value);
  return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) - Math.floor(at / 1000) * 1000;
}

/**
 * The instant of a wall-clock time (`HH:MM`, default midnight) on a date in a time zone, as
 * PostgreSQL's `at time zone` reads it: a time that occurs twice (fall back) is the later instant
 * (standard time) unless `ambiguous` asks for the earlier (a schedule's occurrence); one skipped by
 * a spring-forward change takes the offset before the change (02:30 becomes 03:30).
 */
export function localInstant(date: string, timeZone: string, time = '00:00', ambiguous: 'later' | 'earlier' = 'later'): Date {
  const [y, m, d] = date.split('-').map(Number);
  const [hh, mm] = time.split(':').map(Number);
  const wall = Date.UTC(y, m - 1, d, hh, mm);
  const before = wall - offsetMs(timeZone, wall - 86_400_000);
  const after = wall - offsetMs(timeZone, wall + 86_400_000);
  const valid = [before, after].filter((c) => c + offsetMs(timeZone, c) === wall);
  if (!valid.length) return new Date(before);
  return new Date(ambiguous === 'later' ? Math.max(...valid) : Math.min(...valid));
}

/** The day after a date (YYYY-MM-DD). */
export function nextDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}

/** [start, end) of a whole local day: 23 or 25 hours on the days the clocks change. */
export function localDay(date: string, timeZone: string): { startsAt: Date; endsAt: Date } {
  return { startsAt: localInstant(date, timeZone), endsAt: localInstant(nextDate(date), timeZone) };
}

/** The local date and `HH:MM` of an instant in a time zone. */
export function localParts(at: Date, timeZone: string): { date: string; time: string } {
  const f = formatter(`parts ${timeZone}`, () => new Intl.DateTimeFormat('en-CA', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' }));
  const parts = f.formatToParts(at);
  const get = (t: string) => parts.find((p) => p.type === t)!.value;
  return { date: `${get('year')}-${get('month')}-${get('day')}`, time: `${get('hour')}:${get('minute')}` };
}
