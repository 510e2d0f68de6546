/**
 * The web app's weekday names come from its catalogues (web/src/format.ts says why): they must be the names Intl
 * gives. The catalogues are read as text, as test/web-unit-words.test.ts reads them (they import as the web app's
 * bundler resolves, not as Node does).
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { LOCALES } from '../web/src/i18n/plural.js';

const weekdaysOf = (language: 'nb' | 'en'): string[] => {
  const found = /\n {2}weekdays: \[([^\]]*)\]/.exec(readFileSync(`web/src/i18n/${language}.ts`, 'utf8'));
  expect(found, `weekdays in web/src/i18n/${language}.ts`).to.not.equal(null);
  return [...found![1]!.matchAll(/'([^']*)'/g)].map((m) => m[1]!);
};

describe("the web app's weekday names", () => {
  it('are the names Intl gives each language, for every day of a week, counted as Date.getUTCDay() counts', () => {
    const week = Array.from({ length: 7 }, (_, i) => new Date(Date.UTC(2026, 10, 22 + i)));
    for (const language of ['nb', 'en'] as const) {
      const intl = new Intl.DateTimeFormat(LOCALES[language], { weekday: 'long', timeZone: 'UTC' });
      const names = weekdaysOf(language);
      expect(week.map((d) => names[d.getUTCDay()]), language).to.deep.equal(week.map((d) => intl.format(d)));
    }
  });
});
