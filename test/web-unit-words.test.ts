/**
 * The web app's unit words are the service's (core/food/unit-words.ts, the words of pushes and mails): one table per
 * language, written for the app by npm run web:types into web/src/i18n/unit-words.json, which each catalogue takes.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { UNIT_WORDS } from '../core/food/unit-words.js';
import { UNIT_WORDS_FILE, unitWordsJson } from '../scripts/web-api-types.js';

describe("the web app's unit words", () => {
  it('are the file npm run web:types writes from the service table', () => {
    expect(readFileSync(UNIT_WORDS_FILE, 'utf8') === unitWordsJson(), 'web/src/i18n/unit-words.json is stale: run npm run web:types').to.equal(true);
    expect(JSON.parse(readFileSync(UNIT_WORDS_FILE, 'utf8'))).to.deep.equal(UNIT_WORDS);
  });

  it('are what each catalogue calls its units, in Norwegian and in English', () => {
    for (const language of ['nb', 'en'] as const) {
      const catalogue = readFileSync(`web/src/i18n/${language}.ts`, 'utf8');
      expect(catalogue).to.include("import unitWords from './unit-words.json' with { type: 'json' };");
      expect(catalogue).to.match(new RegExp(`\\n  units: unitWords\\.${language}[ ,]`));
    }
  });
});
