import fs from 'node:fs';
import path from 'node:path';

// Every spec file runs: each directory of test/ that holds spec files has its suite, which runs
// them all (test/helpers/specs.ts), and every suite names a directory that exists.

const TEST = path.join(__dirname, '..');

function specDirs(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(path.join(TEST, dir), { withFileTypes: true })) {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory() && e.name !== 'suites' && e.name !== 'node_modules') specDirs(rel, out);
    else if (e.isFile() && e.name.endsWith('.spec.ts') && !out.includes(dir)) out.push(dir);
  }
  return out;
}

test('each directory of spec files has the suite that runs them, and no spec is left to a suite file of its own', () => {
  const suites = new Map(
    fs
      .readdirSync(path.join(TEST, 'suites'))
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => [f, fs.readFileSync(path.join(TEST, 'suites', f), 'utf8')] as const),
  );
  const named = [...suites.values()].flatMap((text) => [...text.matchAll(/specs\('([^']+)'\)/g)].map((m) => m[1]));
  const dirs = specDirs('').sort();
  expect(dirs.filter((d) => !named.includes(d))).toEqual([]);
  expect(named.filter((d) => !dirs.includes(d))).toEqual([]);
  // Nothing else under test/ is a jest file: a *.test.ts outside test/suites would never run.
  const stray: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(path.join(TEST, dir), { withFileTypes: true })) {
      const rel = dir ? `${dir}/${e.name}` : e.name;
      if (e.isDirectory() && e.name !== 'suites') walk(rel);
      else if (e.name.endsWith('.test.ts')) stray.push(rel);
    }
  };
  walk('');
  expect(stray).toEqual([]);
});
