/**
 * Prints one plain closing line, `tests: N passed, N failed, N skipped`, after Jest's own
 * summary, so that tools reading the last line of a run need not know Jest's format.
 */
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const line = `tests: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${results.numPendingTests} skipped`;
    process.stdout.write(`\n${line}\n`);
  }
}
module.exports = SummaryReporter;
