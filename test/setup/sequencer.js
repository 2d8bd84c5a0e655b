// The order of the suites (docs/testing.md, "Order"): the longest first, so that no worker starts
// a long suite while the others are finishing. jest's sequencer knows a suite's time from its own
// cache of the last run on this machine; a clean clone (CI) has none, and all the suites' files
// are the same size, so the times measured in a full run (test/suites/durations.json) stand in.
//
// Refresh that file from a run's report:
//   npx jest --json --outputFile=/tmp/run.json && node test/setup/sequencer.js /tmp/run.json
const fs = require('node:fs');
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const DURATIONS = path.join(__dirname, '../suites/durations.json');

class LongestFirst extends Sequencer {
  constructor(...args) {
    super(...args);
    this.measured = JSON.parse(fs.readFileSync(DURATIONS, 'utf8'));
  }

  /** The suite's time in ms: jest's cached one, else the one measured (seconds in the file). */
  time(test) {
    const seconds = this.measured[path.basename(test.path)];
    return super.time(test) ?? (seconds === undefined ? undefined : seconds * 1000);
  }
}

module.exports = LongestFirst;

if (require.main === module) {
  const report = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
  const rows = report.testResults
    .map((r) => [path.basename(r.name), Math.round((r.endTime - r.startTime) / 1000)])
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  fs.writeFileSync(DURATIONS, JSON.stringify(Object.fromEntries(rows), null, 2) + '\n');
  console.log(`${rows.length} suites written to ${path.relative(process.cwd(), DURATIONS)}`);
}
