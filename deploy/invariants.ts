// The scale test's checks and its table (deploy/scale-test.ts), pure functions tested in
// test/scale/invariants.spec.ts.

/** Numbers missing between the smallest and the largest (sorted). */
export function gaps(numbers: number[]): number[] {
  const have = new Set(numbers);
  if (!numbers.length) return [];
  const lo = Math.min(...numbers);
  const hi = Math.max(...numbers);
  const out: number[] = [];
  for (let n = lo; n <= hi; n++) if (!have.has(n)) out.push(n);
  // Numbering starts at 1: numbers below the smallest are gaps as well.
  for (let n = 1; n < lo; n++) out.push(n);
  return out.sort((a, b) => a - b);
}

/** Values present more than once, each once. */
export function duplicates<T>(values: T[]): T[] {
  const seen = new Set<T>();
  const twice = new Set<T>();
  for (const v of values) (seen.has(v) ? twice : seen).add(v);
  return [...twice];
}

export function ratio(a: number, b: number): string {
  return b > 0 ? (a / b).toFixed(2) : '–';
}

export interface Row {
  name: string;
  value: string;
  ok: boolean;
  note?: string;
}

/** One Markdown table: check, value, ✓/✗, note. */
export function renderTable(rows: Row[]): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  return ['| Check | Measured | | Note |', '|---|---|---|---|', ...rows.map((r) => `| ${esc(r.name)} | ${esc(r.value)} | ${r.ok ? '✓' : '✗'} | ${esc(r.note ?? '')} |`)].join('\n');
}
