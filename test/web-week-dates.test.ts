import { expect } from 'chai';
import { addDays, weeksBetween } from '../web/src/screens/week/dates.js';

describe("the week's dates (web)", () => {
  it('counts whole weeks from the day a dish was last eaten to the day proposed, in UTC whatever the clock change', () => {
    // The fewest a NotEatenSince can say: eaten 15 days before the day proposed (the 14 days before the week are "lately").
    expect(weeksBetween('2026-11-08', '2026-11-23')).to.equal(2);
    expect(weeksBetween('2026-10-23', '2026-11-23')).to.equal(4);
    expect(weeksBetween('2026-10-19', '2026-11-23')).to.equal(5);
    // Across the end of summer time in Europe (25 October 2026) a week is still seven days.
    expect(weeksBetween('2026-10-20', '2026-10-27')).to.equal(1);
    expect(weeksBetween('2026-10-21', '2026-10-27')).to.equal(0);
    for (let n = 0; n < 60; n++) expect(weeksBetween('2026-09-28', addDays('2026-09-28', n)), String(n)).to.equal(Math.floor(n / 7));
  });
});
