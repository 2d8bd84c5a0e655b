// Date#toISOString for the timestamps REST writes, faster: a list page of 50 customers writes 150
// of them, and toISOString took ~0.5 µs each (~4× this). The day's text is kept per day (most
// timestamps of a page share a few days); the time of day is written from the milliseconds. Same
// text as toISOString for every instant (test/http/iso-time.spec.ts); instants outside years
// 1970–9999 go through toISOString itself.

const DAY_MS = 86_400_000;
/** Exclusive end of year 9999 (toISOString writes a six-digit, signed year after it). */
const END_MS = 253_402_300_800_000;
const MAX_DAYS = 4096;

const days = new Map<number, string>();
const TWO = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
const THREE = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));

/** `d.toISOString()`, the same text; throws RangeError for an invalid date as toISOString does. */
export function isoTime(d: Date): string {
  const t = d.getTime();
  if (!(t >= 0 && t < END_MS)) return d.toISOString();
  const day = Math.floor(t / DAY_MS);
  let prefix = days.get(day);
  if (prefix === undefined) {
    prefix = d.toISOString().slice(0, 11);
    if (days.size >= MAX_DAYS) days.clear();
    days.set(day, prefix);
  }
  let rest = t - day * DAY_MS;
  const ms = rest % 1000;
  rest = (rest - ms) / 1000;
  const s = rest % 60;
  rest = (rest - s) / 60;
  const m = rest % 60;
  const h = (rest - m) / 60;
  return `${prefix}${TWO[h]}:${TWO[m]}:${TWO[s]}.${THREE[ms]}Z`;
}
