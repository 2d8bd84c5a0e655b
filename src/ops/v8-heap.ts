import v8 from 'node:v8';

// V8's allocation-site pretenuring (docs/benchmark.md, the design measurement of that name): V8
// counts, per place in the code that makes objects, how many of them survive a young-generation
// collection, and from a place whose objects mostly survive it makes them in the old generation
// from then on. Under load, what survives a collection is the requests in flight, so the places
// that make a request's rows and records were moved to the old generation: each of them then
// lived until a full collection, and kept alive the young objects it pointed to (the rows'
// strings), which were copied out of the young generation. A page of 50 customers cost ~0.3 ms
// more CPU for it.

const NAMED = /^--(no-)?allocation[-_]site[-_]pretenuring$/;

/** Whether node's command line decides pretenuring itself (`--allocation-site-pretenuring` or `--no-…`). */
export function pretenuringNamed(execArgv: readonly string[]): boolean {
  return execArgv.some((a) => NAMED.test(a));
}

/**
 * Turns V8's allocation-site pretenuring off for this process, unless node's command line names
 * it (then that choice stands). True when it was turned off here. Run before the server's code
 * is loaded (src/ops/v8-heap-start.ts), so that no place was moved before.
 */
export function tuneHeap(execArgv: readonly string[] = process.execArgv): boolean {
  if (pretenuringNamed(execArgv)) return false;
  v8.setFlagsFromString('--no-allocation-site-pretenuring');
  return true;
}
