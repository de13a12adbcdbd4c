// Prints one line per test file with its counts, so a CI log shows how many contract tests ran
// against each engine (kafka-bus.int.test.ts → Kafka, mongo-store.int.test.ts → MongoDB/SecantusDB).
const path = require('node:path');

class FileCountsReporter {
  onRunComplete(_contexts, results) {
    console.log('\nTests per file:');
    for (const file of results.testResults) {
      const name = path.relative(process.cwd(), file.testFilePath);
      console.log(
        `  ${name}: ${file.numPassingTests} passed, ${file.numFailingTests} failed, ${file.numPendingTests} skipped`,
      );
    }
  }
}

module.exports = FileCountsReporter;
