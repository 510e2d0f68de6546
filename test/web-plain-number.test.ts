/**
 * The web app writes numbers and whole kroner itself (web/src/plain-number.ts) rather than making an
 * Intl.NumberFormat on the list's first showing: what it writes must be what Intl writes, character for character.
 */
import { expect } from 'chai';
import { plainNumber, plainWholeKroner } from '../web/src/plain-number.js';
import { LOCALES } from '../web/src/i18n/plural.js';

/** Values a list, a recipe and a price show, and the edges of rounding, grouping and sign. */
function values(): number[] {
  const edges = [0, -0, 0.5, 1.5, 2.5, -0.4, -0.5, -0.001, 0.001, 0.005, 0.004999, 1.005, 1.255, 2.675, 0.125, 0.995, 9.995, 99.995, 999.995, 999.999, 1000, 1000.5, 9999.994, 9999.995, 12345.678, 123456.78, 1234567.891, 1e15 + 0.5, 2 ** 53, 1e20, 0.1 + 0.2, 1 / 3, 2 / 3, -1234.5, -999.995];
  const counted = Array.from({ length: 2101 }, (_, i) => i);
  // A fixed walk through fractions of several lengths and magnitudes (no randomness: the same values every run).
  const walked = Array.from({ length: 3000 }, (_, i) => {
    const magnitude = 10 ** ((i % 8) - 2);
    return Number((((i * 7919) % 100003) / 1000) * magnitude).valueOf() * (i % 5 === 0 ? -1 : 1);
  });
  return [...edges, ...counted, ...counted.map((i) => i / 8), ...walked];
}

describe("the web app's own number writing", () => {
  for (const language of ['nb', 'en'] as const) {
    it(`writes numbers as Intl does in ${language} (at most two decimals)`, () => {
      const intl = new Intl.NumberFormat(LOCALES[language], { maximumFractionDigits: 2 });
      const differing = values().filter((v) => plainNumber(v, language) !== intl.format(v));
      expect(differing.map((v) => [v, plainNumber(v, language), intl.format(v)])).to.deep.equal([]);
    });

    it(`writes whole kroner as Intl does in ${language}`, () => {
      const intl = new Intl.NumberFormat(LOCALES[language], { style: 'currency', currency: 'NOK', maximumFractionDigits: 0 });
      const differing = values().filter((v) => plainWholeKroner(v, language) !== intl.format(v));
      expect(differing.map((v) => [v, plainWholeKroner(v, language), intl.format(v)])).to.deep.equal([]);
    });
  }

  it('leaves to Intl what it does not write: exponents and what is not a finite number', () => {
    for (const v of [1e21, 1e-7, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(plainNumber(v, 'nb'), String(v)).to.equal(null);
      expect(plainWholeKroner(v, 'en'), String(v)).to.equal(null);
    }
    expect(plainNumber(1234.5, 'nb')).to.equal('1\u00a0234,5');
    expect(plainWholeKroner(1250, 'en')).to.equal('NOK\u00a01,250');
  });
});
