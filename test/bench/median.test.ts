import { expect } from 'chai';
import { medianRow, medianRows, type BenchRow, type Figures } from '../../scripts/bench/lib.js';

const figures = (rps: number): Figures => ({ rps, mean: 1, p50: 1, p99: 2, unexpected: 0 });

/** A run of a throughput comparison (higher is better) or, with `target` '≤ 2.0', of a time or latency one. */
function run(ratio: number, overrides: Partial<BenchRow> = {}): BenchRow {
  const target = overrides.target ?? '≥ 0.50';
  const pass = target.startsWith('≤') ? ratio <= 2 : ratio >= 0.5;
  return { workload: 'W6', db: 'sqlite', subject: 'POST', baseline: 'bare', subjectFigures: figures(ratio * 1000), baselineFigures: figures(1000), ratio, target, pass, ...overrides };
}

describe('benchmark rounds (scripts/bench/lib.ts)', () => {
  it('shows the middle run of three by ratio, with every ratio in the note', () => {
    const row = medianRow([run(0.61), run(0.42), run(0.55)]);
    expect(row.ratio).to.equal(0.55);
    expect(row.subjectFigures.rps).to.equal(550);
    expect(row.pass).to.equal(true);
    expect(row.note).to.equal('median of 3 runs, ratios 0.61, 0.42, 0.55');
  });

  it('counts from the worst: of an even number, the worse middle run; for a "≤" target, the higher ratio is worse', () => {
    expect(medianRow([run(0.7), run(0.4)]).ratio).to.equal(0.4);
    expect(medianRow([run(0.6), run(0.45), run(0.52), run(0.8)]).ratio).to.equal(0.52);
    const lower = { target: '≤ 2.0' };
    expect(medianRow([run(1.1, lower), run(4.0, lower), run(1.5, lower)]).ratio).to.equal(1.5);
    expect(medianRow([run(1.1, lower), run(4.0, lower)]).ratio).to.equal(4.0);
  });

  it('fails the row when any run was invalid, even if the median run passes', () => {
    const row = medianRow([run(0.6), run(0.7, { pass: false, note: 'INVALID: 3 + 0 unexpected answers' }), run(0.65)]);
    expect(row.ratio).to.equal(0.65);
    expect(row.pass).to.equal(false);
    expect(row.note).to.contain('INVALID in 1 of the runs');
  });

  it('keeps a failure of the median run that is not its ratio (a note of its own)', () => {
    const row = medianRow([run(0.6), run(0.7, { pass: false, note: 'statements: 14 > 10' }), run(0.9)]);
    expect(row.pass).to.equal(false);
    expect(row.note).to.equal('statements: 14 > 10; median of 3 runs, ratios 0.60, 0.70, 0.90');
  });

  it('leaves a single run as it is', () => {
    const one = run(0.3);
    expect(medianRow([one])).to.equal(one);
  });

  it('groups runs by workload, database, subject and baseline, in the order first seen', () => {
    const rows = medianRows([
      run(0.5),
      run(0.9, { db: 'postgres' }),
      run(0.7),
      run(0.2, { baseline: 'bare Koa' }),
      run(0.3, { db: 'postgres' }),
      run(0.6),
    ]);
    expect(rows.map((r) => [r.db, r.baseline, r.ratio])).to.deep.equal([
      ['sqlite', 'bare', 0.6],
      ['postgres', 'bare', 0.3],
      ['sqlite', 'bare Koa', 0.2],
    ]);
  });
});
