import { isoTime } from '../../src/rest/iso-time';

// isoTime (src/rest/iso-time.ts) writes what Date#toISOString writes, for every instant.

const END = 253_402_300_800_000; // 10000-01-01T00:00:00.000Z
const DAY = 86_400_000;

/** The instants whose text differs: [instant, isoTime's, toISOString's], the first 20 of them. */
let wrong: Array<[number, string, string]> = [];

// Compared in the loop and asserted once per test: 70,000 expect() calls cost more than the checks.
function check(t: number): void {
  const d = new Date(t);
  const got = isoTime(d);
  const want = d.toISOString();
  if (got !== want && wrong.length < 20) wrong.push([t, got, want]);
}

beforeEach(() => {
  wrong = [];
});

test('the same text as toISOString at the edges of its fast range and of days', () => {
  for (const t of [0, 1, 999, 1000, 59_999, 60_000, 3_599_999, 3_600_000, DAY - 1, DAY, DAY + 1, END - 1, END, END + 1, -1, -DAY, -62_198_755_200_000, 8.64e15, -8.64e15]) check(t);
  for (let day = 0; day < 20_000; day += 97) for (const ms of [0, 1, 43_200_000, DAY - 1]) check(day * DAY + ms);
  // Leap days, and the last day of leap and common years.
  for (const s of ['2024-02-29T23:59:59.999Z', '2000-02-29T00:00:00.000Z', '2023-12-31T23:59:59.999Z', '2100-03-01T12:34:56.789Z']) check(Date.parse(s));
  expect(wrong).toEqual([]);
});

test('the same text for random instants, over more days than it keeps', () => {
  let seed = 42;
  const next = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648);
  for (let i = 0; i < 50_000; i++) check(Math.floor(next() * next() * END * 1.01));
  // Repeated days after the kept days were dropped.
  for (let i = 0; i < 10_000; i++) check(1_700_000_000_000 + (i % 5000) * DAY + i);
  expect(wrong).toEqual([]);
});

test('an invalid date throws as toISOString does', () => {
  expect(() => isoTime(new Date(NaN))).toThrow(RangeError);
});
