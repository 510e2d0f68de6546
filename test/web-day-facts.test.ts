import { expect } from 'chai';
import { dayWarning, minutesOf, splitPast } from '../web/src/screens/week/day-facts.js';

describe('the week\'s day facts (web)', () => {
  it('warns of a dish longer than the evening leaves, of unknown time on a limited evening, and of one on a closed day', () => {
    const home = { cookedAtHome: true, recipeId: 'r' };
    expect(dayWarning(home, 75, 30)).to.deep.equal({ kind: 'tooLong', minutes: 75, left: 30 });
    expect(dayWarning(home, 30, 30)).to.equal(null);
    expect(dayWarning(home, null, 45)).to.deep.equal({ kind: 'unknownTime', left: 45 });
    expect(dayWarning(home, 120, null)).to.equal(null);
    expect(dayWarning({ cookedAtHome: false, recipeId: 'r' }, 20, null)).to.deep.equal({ kind: 'closed' });
    expect(dayWarning({ cookedAtHome: false, recipeId: null }, null, 10)).to.equal(null);
    expect(minutesOf({ totalMinutes: null, activeMinutes: 25 })).to.equal(25);
    expect(minutesOf(undefined)).to.equal(null);
  });

  it('folds the days before today on the week holding today, and none on another week', () => {
    const days = ['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26'].map((date) => ({ date }));
    const { past, rest } = splitPast(days, '2026-11-25');
    expect([past.map((d) => d.date), rest.map((d) => d.date)]).to.deep.equal([['2026-11-23', '2026-11-24'], ['2026-11-25', '2026-11-26']]);
    expect(splitPast(days, '2026-12-02').past).to.deep.equal([]);
    expect(splitPast(days, '2026-11-23').past).to.deep.equal([]);
  });
});
