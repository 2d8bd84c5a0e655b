import fs from 'node:fs';
import path from 'node:path';

// The suites (docs/testing.md, "Spec files and suites"): jest runs the files of test/suites, and
// each runs every spec file of one directory, in one module registry, each spec in a describe of
// its own path so that its hooks (its app, its database, its servers) stay its own. The app's
// modules then load once per directory instead of once per spec file.

const TEST_ROOT = path.join(__dirname, '..');

/** The spec files (`*.spec.ts`) of `dir` (relative to test/), by name. */
export function specFilesOf(dir: string): string[] {
  return fs
    .readdirSync(path.join(TEST_ROOT, dir))
    .filter((f) => f.endsWith('.spec.ts'))
    .sort();
}

/** Registers every spec file of `dir` (relative to test/) in the calling jest file. */
export function specs(dir: string): void {
  for (const file of specFilesOf(dir)) {
    describe(`${dir}/${file}`, () => {
      require(path.join(TEST_ROOT, dir, file));
    });
  }
}
