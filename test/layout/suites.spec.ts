import fs from 'node:fs';
import path from 'node:path';

// Every spec file runs: each directory of test/ that holds spec files has its suite, which runs
// them all (test/helpers/specs.ts), and every suite names a directory that exists.

const TEST = path.join(__dirname, '..');

/** The directories of test/ that hold spec files, and the jest files (`*.test.ts`) outside test/suites. */
function walk(dir = '', found = { specDirs: new Set<string>(), stray: [] as string[] }) {
  for (const e of fs.readdirSync(path.join(TEST, dir), { withFileTypes: true })) {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory()) {
      if (e.name !== 'suites' && e.name !== 'node_modules') walk(rel, found);
    } else if (e.name.endsWith('.spec.ts')) found.specDirs.add(dir);
    else if (e.name.endsWith('.test.ts')) found.stray.push(rel);
  }
  return found;
}

test('each directory of spec files has the suite that runs them, and no spec is left to a suite file of its own', () => {
  const suites = fs
    .readdirSync(path.join(TEST, 'suites'))
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => fs.readFileSync(path.join(TEST, 'suites', f), 'utf8'));
  const named = suites.flatMap((text) => [...text.matchAll(/specs\('([^']+)'\)/g)].map((m) => m[1]));
  const { specDirs, stray } = walk();
  const dirs = [...specDirs].sort();
  expect(dirs.filter((d) => !named.includes(d))).toEqual([]);
  expect(named.filter((d) => !dirs.includes(d))).toEqual([]);
  // Nothing else under test/ is a jest file: a *.test.ts outside test/suites would never run.
  expect(stray).toEqual([]);
});
