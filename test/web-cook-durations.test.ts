import { expect } from 'chai';
import { clock, minutesIn } from '../web/src/screens/recipe/durations.js';

// The cooking view's timers (web/src/screens/recipe/durations.ts): the durations a step names, in minutes.
describe("the web app's cooking timers: durations read from a step", () => {
  it('reads digits, number words, ranges, hours and fixed phrases, in the order the step names them', () => {
    const cases: [string, number[]][] = [
      ['Kok opp kraft og fløte, og la det småkoke i 10–12 minutter.', [10]],
      ['Stek 5 min, snu og stek 3 min til.', [5, 3]],
      ['La det trekke et kvarter.', [15]],
      ['Sett i ovnen i 1½ time.', [90]],
      ['Trekk i fem minutter.', [5]],
      ['La hvile en halv time før servering.', [30]],
      ['Simmer for ten minutes, then bake 2 hours.', [10, 120]],
      ['Bake for 25 min.', [25]],
      ['Kok i 10 til 12 min.', [10]],
    ];
    for (const [step, minutes] of cases) expect(minutesIn(step), step).to.deep.equal(minutes);
  });

  it('names no timer where a step names no duration, a duration under a minute, or an English "time"', () => {
    for (const step of ['Skjær gulrøttene i biter.', 'Rør i 0,5 min.', 'Stir one time only.', 'Bruk 2 timian-kvister.']) {
      expect(minutesIn(step), step).to.deep.equal([]);
    }
  });

  it('shows what is left as mm:ss', () => {
    expect([clock(600), clock(65), clock(0)]).to.deep.equal(['10:00', '01:05', '00:00']);
  });
});
