// What the benchmark scripts share: their numeric command-line options and a rate of calls.

/** `--<name> <n>` from the command line, or `fallback`. */
export function numberArg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

/** Makes `n` calls, at most `inFlight` at once; the calls per second. */
export async function rate(n: number, inFlight: number, call: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const start = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < n) await call(next++);
    }),
  );
  return n / (Number(process.hrtime.bigint() - start) / 1e9);
}
