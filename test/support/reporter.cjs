// Mocha's dot reporter plus one plain closing line, "mocha: N passed, N failed, N skipped", that CI reads.
const { reporters } = require('mocha');

class PlainSummary extends reporters.Dot {
  constructor(runner, options) {
    super(runner, options);
    runner.once('end', () => {
      const s = this.stats;
      process.stdout.write(`mocha: ${s.passes} passed, ${s.failures} failed, ${s.pending} skipped\n`);
    });
  }
}

module.exports = PlainSummary;
