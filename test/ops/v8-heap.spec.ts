import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { pretenuringNamed } from '../../src/ops/v8-heap';

// V8's allocation-site pretenuring is off in the server's and the worker's processes unless node's
// command line names it (src/ops/v8-heap.ts, docs/access-and-operations.md "V8's heap"). What
// V8 decides is read from its own trace (--trace-pretenuring-statistics), over a workload whose
// objects, all made at one place, outlive young collections: V8 moves that place to the old
// generation unless pretenuring is off.

const ROOT = path.resolve(__dirname, '../..');
// The compiled files the entry points run; the global setup builds them (scripts/build.js).
const START = path.join(ROOT, 'dist/src/ops/v8-heap-start.js');
const WORKLOAD = `const ring = new Array(200000);
function make(i) { return { i, a: 'x' + i, b: [i] }; }
for (let i = 0; i < 4000000; i++) ring[i % ring.length] = make(i);`;

// V8 moves a place to the old generation only at a young collection made when the young generation
// is at its largest; below that it only marks it "maybe tenure". The young generation grows there
// from 1 MB as objects survive, at a pace that depends on the machine and its load (once, on a busy CI
// machine, the control saw no decision: most likely the workload ended before it got there). So every
// run fixes it at 16 MB from the start: smaller than what the ring keeps alive, so what it makes
// survives, and its largest size, so every young collection can decide.
const YOUNG = ['--min-semi-space-size=16', '--max-semi-space-size=16'];

/** The number of places V8 decided to pretenure, running the workload with these node arguments. */
async function tenured(args: string[]): Promise<number> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--trace-pretenuring-statistics', ...YOUNG, ...args, '-e', WORKLOAD], { cwd: ROOT, maxBuffer: 64 << 20 });
  return stdout.split('\n').filter((l) => /=> tenure\b/.test(l)).length;
}

it('V8 pretenures the workload by default (the control), and not once the start file has run', async () => {
  expect(await tenured([])).toBeGreaterThan(0);
  expect(await tenured(['-r', START])).toBe(0);
});

it("a command line that names pretenuring keeps its choice", async () => {
  expect(await tenured(['--allocation-site-pretenuring', '-r', START])).toBeGreaterThan(0);
  expect(await tenured(['--no-allocation-site-pretenuring'])).toBe(0);
});

it.each([
  [[], false],
  [['--max-old-space-size=160'], false],
  [['--allocation-site-pretenuring'], true],
  [['--no-allocation-site-pretenuring'], true],
  [['--no-allocation_site_pretenuring'], true],
  [['--allocation-site-pretenuring-x'], false],
])('pretenuringNamed(%j) is %s', (argv, named) => {
  expect(pretenuringNamed(argv as string[])).toBe(named);
});

it.each(['main.js', 'worker.js'])('dist/src/%s loads the start file before anything else', (file) => {
  const text = fs.readFileSync(path.join(ROOT, 'dist/src', file), 'utf8');
  expect(/require\("([^"]+)"\)/.exec(text)?.[1]).toBe('./ops/v8-heap-start');
});
