/**
 * Prints one plain closing line, `tests: N passed, N failed, N skipped`, after Jest's own
 * summary, so that tools reading the last line of a run need not know Jest's format. Above it,
 * each skipped test's full name, which says why it is skipped: Jest shows neither the names nor
 * the console output of a file whose tests are all skipped.
 */
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.testResults.flatMap((file) =>
      file.testResults.filter((test) => test.status === 'pending').map((test) => test.fullName),
    );
    for (const name of skipped) process.stdout.write(`\nskipped: ${name}`);
    const line = `tests: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${results.numPendingTests} skipped`;
    process.stdout.write(`\n${line}\n`);
  }
}
module.exports = SummaryReporter;
