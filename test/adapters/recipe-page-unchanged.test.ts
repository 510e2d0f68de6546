import { readdirSync, readFileSync } from 'node:fs';
import { expect } from 'chai';
import { decodeHtml } from '../../adapters/recipe-import/decode.js';
import { extractRecipe } from '../../adapters/recipe-import/extract.js';

/**
 * The pages with recipe markup (and the few without a recipe) read exactly as they did before the page-layout reader
 * came: markup-snapshot.json is every field of every extraction of the top-level corpus, written by the extractor of
 * the commit that added this test, before the layout reader existed. A difference here is a change of behaviour on
 * a page that already read, and must be a deliberate one (then the snapshot is written again, in its own commit).
 */

const FIXTURES = new URL('../fixtures/recipe-pages/', import.meta.url);
const PAGE_URL = 'https://example.com/recipes/x';

describe('recipe page extraction: the markup corpus reads as before', () => {
  const snapshot = JSON.parse(readFileSync(new URL('markup-snapshot.json', FIXTURES), 'utf8')) as Record<string, unknown>;
  const pages = readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.html'))
    .sort();

  it('has a snapshot of every page of the corpus and of no other', () => {
    expect(pages.length).to.be.at.least(40);
    expect(Object.keys(snapshot).sort()).to.deep.equal(pages);
  });

  for (const name of pages) {
    it(name, () => {
      const got = extractRecipe(decodeHtml(readFileSync(new URL(name, FIXTURES)), null), PAGE_URL);
      // Through JSON, as the snapshot was written: the same fields, the same values, nothing more.
      expect(JSON.parse(JSON.stringify(got))).to.deep.equal(snapshot[name]);
    });
  }
});
