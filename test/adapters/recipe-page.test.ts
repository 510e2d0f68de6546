import { readdirSync, readFileSync } from 'node:fs';
import { expect } from 'chai';
import { decodeHtml } from '../../adapters/recipe-import/decode.js';
import { extractRecipe } from '../../adapters/recipe-import/extract.js';
import type { ExtractedRecipe } from '../../ports/recipe-page.js';

/**
 * The extractor against pages shaped like the sites people import from. Each fixture is a small hand-written page;
 * expected.json says what must come out of it, so a change in a rule shows up as the pages it changes.
 */

const FIXTURES = new URL('../fixtures/recipe-pages/', import.meta.url);
const PAGE_URL = 'https://example.com/recipes/x';

interface Lines {
  count: number;
  /** Some lines, by index, exactly as they must come out. */
  at: Record<string, string>;
}
interface Expected {
  title: string;
  ingredientLines: Lines;
  steps: Lines;
  yields: string | null;
  servings: number | null;
  totalMinutes: number | null;
  activeMinutes: number | null;
  imageUrl: string | null;
  source: ExtractedRecipe['source'];
  warnings: string[];
}

/** The recipe seen through what expected.json names, so one deep-equal shows every difference at once. */
function asExpected(r: ExtractedRecipe, like: Expected): Expected {
  const lines = (all: readonly string[], want: Lines): Lines => ({
    count: all.length,
    at: Object.fromEntries(Object.keys(want.at).map((i) => [i, all[Number(i)] ?? '(missing)'])),
  });
  const { title, yields, servings, totalMinutes, activeMinutes, imageUrl, source } = r;
  return {
    title,
    ingredientLines: lines(r.ingredientLines, like.ingredientLines),
    steps: lines(r.steps, like.steps),
    yields,
    servings,
    totalMinutes,
    activeMinutes,
    imageUrl,
    source,
    warnings: [...r.warnings],
  };
}

const page = (head: string, body = '') => `<!DOCTYPE html><html><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`;
const ld = (json: string) => `<script type="application/ld+json">${json}</script>`;
const recipe = (over: Record<string, unknown> = {}) =>
  JSON.stringify({ '@context': 'https://schema.org', '@type': 'Recipe', name: 'Toast', recipeIngredient: ['1 slice bread'], recipeInstructions: ['Toast it.'], ...over });
const latin1 = (s: string) => new Uint8Array(Buffer.from(s, 'latin1'));
const utf8 = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));

describe('recipe page extraction', () => {
  describe('the fixture corpus', () => {
    const expected = JSON.parse(readFileSync(new URL('expected.json', FIXTURES), 'utf8')) as Record<string, Expected | null>;
    const pages = readdirSync(FIXTURES)
      .filter((f) => f.endsWith('.html'))
      .sort();

    it('has at least 40 pages, each with its expectation and no expectation without a page', () => {
      expect(pages.length).to.be.at.least(40);
      expect(Object.keys(expected).sort()).to.deep.equal(pages);
    });

    for (const name of pages) {
      it(name, () => {
        const html = decodeHtml(readFileSync(new URL(name, FIXTURES)), null);
        const got = extractRecipe(html, PAGE_URL);
        const want = expected[name] ?? null;
        if (want === null) {
          expect(got).to.equal(null);
          return;
        }
        expect(got, 'a recipe').to.not.equal(null);
        expect(asExpected(got!, want)).to.deep.equal(want);
        // What every recipe promises, whatever the page.
        expect(got!.title).to.equal(got!.title.trim()).and.not.equal('');
        for (const line of [...got!.ingredientLines, ...got!.steps]) expect(line).to.equal(line.trim()).and.not.equal('');
        if (got!.activeMinutes !== null) expect(got!.activeMinutes).to.be.at.most(got!.totalMinutes!);
      });
    }
  });

  describe('decodeHtml', () => {
    it('reads UTF-8 without any declaration, and drops a BOM', () => {
      expect(decodeHtml(utf8('<p>blåbær</p>'), null)).to.equal('<p>blåbær</p>');
      expect(decodeHtml(utf8('\ufeff<p>ø</p>'), null)).to.equal('<p>ø</p>');
    });

    it('lets a BOM win over the header and the meta', () => {
      const bytes = utf8('\ufeff<meta charset="windows-1252"><p>æøå</p>');
      expect(decodeHtml(bytes, 'text/html; charset=iso-8859-1')).to.equal('<meta charset="windows-1252"><p>æøå</p>');
      const le = new Uint8Array([0xff, 0xfe, ...Buffer.from('<p>å</p>', 'utf16le')]);
      expect(decodeHtml(le, 'text/html; charset=utf-8')).to.equal('<p>å</p>');
    });

    it("lets the header's charset win over a meta", () => {
      const bytes = latin1('<meta charset="utf-8"><p>fårikål</p>');
      expect(decodeHtml(bytes, 'text/html; charset=windows-1252')).to.equal('<meta charset="utf-8"><p>fårikål</p>');
      expect(decodeHtml(bytes, 'text/html;charset="ISO-8859-1"')).to.contain('fårikål');
    });

    it('finds <meta charset> and <meta http-equiv> in the first 1024 bytes', () => {
      expect(decodeHtml(latin1('<html><head><meta charset="iso-8859-1"><title>Kjøttkaker</title>'), 'text/html')).to.contain('Kjøttkaker');
      // iso-8859-15 has the euro sign where latin1 has ¤: the label itself is honoured, not just "some latin".
      expect(decodeHtml(new Uint8Array([...latin1('<meta charset=ISO-8859-15><p>'), 0xa4]), null)).to.equal('<meta charset=ISO-8859-15><p>€');
      const httpEquiv = latin1('<meta http-equiv="Content-Type" content="text/html; charset=windows-1252"><p>\x96 grøt</p>');
      expect(decodeHtml(httpEquiv, null)).to.contain('– grøt');
    });

    it('ignores a meta past 1024 bytes, or inside a comment', () => {
      const late = latin1(`<p>${' '.repeat(1100)}</p><meta charset="windows-1252"><p>ø</p>`);
      expect(decodeHtml(late, null)).to.contain('\ufffd');
      expect(decodeHtml(latin1('<!-- <meta charset="windows-1252"> --><p>ø</p>'), null)).to.contain('\ufffd');
    });

    it('passes over a label it does not know, and never throws', () => {
      expect(decodeHtml(latin1('<meta charset="windows-1252"><p>ø</p>'), 'text/html; charset=klingon')).to.contain('<p>ø</p>');
      expect(decodeHtml(utf8('<meta charset="no-such-charset"><p>ø</p>'), 'text/html; charset=bogus')).to.contain('<p>ø</p>');
      expect(decodeHtml(utf8('<p>ø</p>'), 'text/html; charset=')).to.equal('<p>ø</p>');
    });

    it('takes a meta that claims UTF-16 as UTF-8, as browsers do', () => {
      expect(decodeHtml(utf8('<meta charset="utf-16"><p>ø</p>'), null)).to.contain('<p>ø</p>');
    });
  });

  describe('guards', () => {
    it('reads a script of exactly 1,000,000 characters and skips one longer, unparsed', () => {
      const fill = (length: number) => {
        const json = recipe({ description: '' });
        return json.replace('"description":""', `"description":"${'x'.repeat(length - json.length)}"`);
      };
      expect(fill(1_000_000)).to.have.length(1_000_000);
      const read = extractRecipe(page(ld(fill(1_000_000))), PAGE_URL);
      expect(read?.title).to.equal('Toast');
      expect(read?.warnings).to.deep.equal([]);

      const microdata = '<div itemscope itemtype="https://schema.org/Recipe"><h1 itemprop="name">Porridge</h1><span itemprop="recipeIngredient">1 dl oats</span><p itemprop="recipeInstructions">Boil.</p></div>';
      const skipped = extractRecipe(page(ld(fill(1_000_001)), microdata), PAGE_URL);
      expect(skipped?.title).to.equal('Porridge');
      expect(skipped?.source).to.equal('microdata');
      expect(skipped?.warnings).to.deep.equal(['json_ld_too_large']);
      expect(extractRecipe(page(ld(fill(1_000_001))), PAGE_URL)).to.equal(null);
    });

    it('reads JSON nested 32 deep and skips 33', () => {
      const nested = (depth: number) => '['.repeat(depth - 1) + JSON.stringify({ '@type': 'Recipe', name: 'Deep' }) + ']'.repeat(depth - 1);
      expect(extractRecipe(page(ld(nested(32))), PAGE_URL)?.title).to.equal('Deep');
      const og = '<meta property="og:title" content="Shallow">';
      expect(extractRecipe(page(ld(nested(33)) + og), PAGE_URL)?.warnings).to.deep.equal(['json_ld_too_deep', 'opengraph_only']);
      expect(extractRecipe(page(ld(nested(33))), PAGE_URL)).to.equal(null);
    });

    it('does not count brackets inside strings as depth', () => {
      const name = `${'['.repeat(40)} Bracket "soup" ${'{'.repeat(40)} \\ ${'['.repeat(5)}`;
      const got = extractRecipe(page(ld(recipe({ name }))), PAGE_URL);
      expect(got?.title).to.equal(name);
      expect(got?.warnings).to.deep.equal([]);
    });

    it('survives JSON and HTML nested a hundred thousand deep', () => {
      const started = performance.now();
      const deepJson = '['.repeat(100_000) + ']'.repeat(100_000);
      expect(extractRecipe(page(ld(deepJson)), PAGE_URL)).to.equal(null);
      const deepHtml = '<div>'.repeat(20_000) + '<span itemscope itemtype="http://schema.org/Recipe"><b itemprop="name">Nested</b></span>';
      expect(extractRecipe(page('', deepHtml), PAGE_URL)?.title).to.equal('Nested');
      const wide = '<div itemscope itemtype="http://schema.org/Recipe"><b itemprop="name">Wide</b>' + '<i></i>'.repeat(200_000) + '</div>';
      expect(extractRecipe(page('', wide), PAGE_URL)?.title).to.equal('Wide');
      expect(performance.now() - started).to.be.below(15_000);
    });

    it('keeps at most 100 lines and 100 steps, and cuts a long title at a word', () => {
      const words = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
      const got = extractRecipe(
        page(ld(recipe({ name: words, recipeIngredient: Array.from({ length: 150 }, (_, i) => `${i + 1} g salt`), recipeInstructions: Array.from({ length: 150 }, (_, i) => `Step ${i + 1}.`) }))),
        PAGE_URL,
      )!;
      expect(got.ingredientLines).to.have.length(100);
      expect(got.ingredientLines[99]).to.equal('100 g salt');
      expect(got.steps).to.have.length(100);
      expect(got.title.length).to.be.at.most(200);
      expect(words.startsWith(got.title + ' ')).to.equal(true);
    });
  });

  describe('rules', () => {
    const times = (over: Record<string, unknown>) => {
      const got = extractRecipe(page(ld(recipe(over))), PAGE_URL)!;
      return [got.totalMinutes, got.activeMinutes];
    };

    it('reads ISO 8601 durations', () => {
      expect(times({ totalTime: 'PT1H30M' })).to.deep.equal([90, null]);
      expect(times({ totalTime: 'P0DT45M', prepTime: 'PT15M' })).to.deep.equal([45, 15]);
      expect(times({ totalTime: 'PT90M' })).to.deep.equal([90, null]);
      expect(times({ totalTime: 'P1DT2H' })).to.deep.equal([1560, null]);
      expect(times({ totalTime: 'pt0.5h' })).to.deep.equal([30, null]);
      expect(times({ prepTime: 'PT10M', cookTime: 'PT1H' })).to.deep.equal([70, 10]);
      expect(times({ totalTime: '45 minutes', cookTime: 'PT20M' })).to.deep.equal([20, null]);
      expect(times({ totalTime: 'PT', prepTime: 45 })).to.deep.equal([null, null]);
    });

    it('takes servings from the first whole number of the yield', () => {
      const servings = (recipeYield: unknown) => extractRecipe(page(ld(recipe({ recipeYield }))), PAGE_URL)!.servings;
      expect(servings('Serves 4-6')).to.equal(4);
      expect(servings(['4', '4 porsjoner'])).to.equal(4);
      expect(servings('1,5 l')).to.equal(null);
      expect(servings('0 portions')).to.equal(null);
      expect(servings('250 cookies')).to.equal(null);
      expect(servings('some')).to.equal(null);
    });

    it('counts recipes within the source it used: JSON-LD beside microdata of another recipe is one', () => {
      const microdata = '<div itemscope itemtype="https://schema.org/Recipe"><h1 itemprop="name">Something else</h1></div>';
      const got = extractRecipe(page(ld(recipe()), microdata), PAGE_URL)!;
      expect([got.title, got.source, got.warnings]).to.deep.equal(['Toast', 'json-ld', []]);
    });

    it('passes over a JSON-LD recipe with no name on a page with no title, to the microdata one', () => {
      const nameless = '<script type="application/ld+json">{"@type":"Recipe","recipeIngredient":["1 egg"]}</script>';
      const microdata = '<div itemscope itemtype="https://schema.org/Recipe"><h1 itemprop="name">Omelette</h1></div>';
      const got = extractRecipe(`<html><head>${nameless}</head><body>${microdata}</body></html>`, PAGE_URL)!;
      expect([got.title, got.source, got.warnings]).to.deep.equal(['Omelette', 'microdata', ['no_ingredients', 'no_steps']]);
    });

    it('gives no image for a relative address without a page address, and keeps an absolute one', () => {
      expect(extractRecipe(page(ld(recipe({ image: '/img/a.jpg' }))), null)!.imageUrl).to.equal(null);
      expect(extractRecipe(page(ld(recipe({ image: 'https://cdn.example.com/a.jpg' }))), null)!.imageUrl).to.equal('https://cdn.example.com/a.jpg');
      expect(extractRecipe(page(ld(recipe({ image: 'javascript:alert(1)' }))), PAGE_URL)!.imageUrl).to.equal(null);
    });

    it('needs a title: no og:title and nothing else is no recipe', () => {
      expect(extractRecipe(page('<meta property="og:image" content="https://example.com/a.jpg">'), PAGE_URL)).to.equal(null);
      expect(extractRecipe('', PAGE_URL)).to.equal(null);
    });
  });
});
