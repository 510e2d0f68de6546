import { readdirSync, readFileSync } from 'node:fs';
import { expect } from 'chai';
import { decodeHtml } from '../../adapters/recipe-import/decode.js';
import { extractRecipe } from '../../adapters/recipe-import/extract.js';
import type { ExtractedRecipe } from '../../ports/recipe-page.js';

/**
 * Pages with no recipe markup, read from their layout: blogs, a newspaper, WordPress, Blogger and Squarespace pages,
 * in nb, en, sv, da and de, with their menus, cookie banners, sidebars and comment threads (some holding lists of
 * their own). expected.json says what each must give; null says the page holds no recipe to read from its layout
 * (it answers as before the layout reader: nothing, or only its OpenGraph title and image).
 */

const FIXTURES = new URL('../fixtures/recipe-pages/no-markup/', import.meta.url);
const PAGE_URL = 'https://example.com/recipes/x';

interface Ends {
  count: number;
  first: string | undefined;
  last: string | undefined;
}
interface Expected {
  title: string;
  ingredientLines: Ends;
  steps: Ends;
  yields: string | null;
  servings: number | null;
  totalMinutes: number | null;
  activeMinutes: number | null;
  imageUrl: string | null;
}

const ends = (all: readonly string[]): Ends => ({ count: all.length, first: all[0], last: all.at(-1) });
const asExpected = (r: ExtractedRecipe): Expected => ({
  title: r.title,
  ingredientLines: ends(r.ingredientLines),
  steps: ends(r.steps),
  yields: r.yields,
  servings: r.servings,
  totalMinutes: r.totalMinutes,
  activeMinutes: r.activeMinutes,
  imageUrl: r.imageUrl,
});

const read = (html: string) => extractRecipe(html, PAGE_URL);
const page = (body: string, head = '') => `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Side</title>${head}</head><body>${body}</body></html>`;
const list = (lines: string[], tag = 'ul') => `<${tag}>${lines.map((l) => `<li>${l}</li>`).join('')}</${tag}>`;

describe('recipe page extraction: pages without markup, read from their layout', () => {
  describe('the no-markup corpus', () => {
    const expected = JSON.parse(readFileSync(new URL('expected.json', FIXTURES), 'utf8')) as Record<string, Expected | null>;
    const pages = readdirSync(FIXTURES)
      .filter((f) => f.endsWith('.html'))
      .sort();

    it('has at least 10 recipes and 3 pages that are none, each with its expectation', () => {
      expect(Object.keys(expected).sort()).to.deep.equal(pages);
      expect(pages.filter((p) => expected[p] !== null).length).to.be.at.least(10);
      expect(pages.filter((p) => expected[p] === null).length).to.be.at.least(3);
    });

    for (const name of pages) {
      it(name, () => {
        const got = read(decodeHtml(readFileSync(new URL(name, FIXTURES)), null));
        const want = expected[name] ?? null;
        if (want === null) {
          // No recipe from the layout: the page answers as it did before there was a layout reader.
          if (got !== null) expect([got.source, got.ingredientLines.length, got.steps.length, got.warnings]).to.deep.equal(['opengraph', 0, 0, ['opengraph_only']]);
          return;
        }
        expect(got, 'a recipe').to.not.equal(null);
        expect(got!.source).to.equal('layout');
        expect(got!.warnings).to.deep.equal(['read_from_page_layout']);
        expect(asExpected(got!)).to.deep.equal(want);
        for (const line of [...got!.ingredientLines, ...got!.steps]) expect(line).to.equal(line.trim()).and.not.equal('');
      });
    }
  });

  describe('rules', () => {
    const ingredients = ['400 g kjøttdeig', '1 pk tacokrydder', '2 dl rømme'];
    const steps = ['Brun kjøttet.', 'Rør inn krydder og vann.'];

    it('reads headings whatever their case, diacritics, colon or what they say it is for', () => {
      for (const [ing, method] of [
        ['INGREDIENSER:', 'FREMGANGSMÅTE:'],
        ['Ingredienser til 4 personer', 'Fremgangsmate'],
        ['Ingredients (serves 4)', 'Method'],
        ['Zutaten für 4 Personen', 'Zubereitung'],
        ['Du behöver', 'Så gör du'],
        ['Det skal du bruge', 'Sådan gør du'],
        ['Dette trenger du', 'Slik gjør du:'],
      ]) {
        const got = read(page(`<h1>Taco</h1><h2>${ing}</h2>${list(ingredients)}<h2>${method}</h2>${list(steps, 'ol')}`));
        expect([got?.source, got?.ingredientLines, got?.steps], `${ing} / ${method}`).to.deep.equal(['layout', ingredients, steps]);
      }
    });

    it('needs both parts, and ingredient lines that look like ingredients', () => {
      const heading = (t: string) => `<h1>Taco</h1><h2>${t}</h2>`;
      expect(read(page(`${heading('Ingredienser')}${list(ingredients)}`)), 'no method').to.equal(null);
      expect(read(page(`${heading('Slik gjør du')}${list(steps)}`)), 'no ingredients').to.equal(null);
      const nav = ['Forside', 'Middag', 'Bakst', 'Om meg'];
      expect(read(page(`${heading('Ingredienser')}${list(nav)}<h2>Slik gjør du</h2>${list(steps)}`)), 'a menu').to.equal(null);
      const words = ['kylling', 'laks', 'pasta', 'ris'];
      expect(read(page(`${heading('Ingredienser')}${list(words)}<h2>Slik gjør du</h2>${list(steps)}`)), 'foods with no amount').to.equal(null);
      expect(read(page(`${heading('Bakeingredienser')}${list(ingredients)}<h2>Slik gjør du</h2>${list(steps)}`)), 'a word that only contains the heading').to.equal(null);
      expect(read(page(`<h1>Taco</h1><p>Ingredienser: ${ingredients.join(', ')}</p><p>Slik gjør du: brun kjøttet.</p>`)), 'a list written as a sentence').to.equal(null);
    });

    it('skips what is not the article: menus, sidebars, comments, hidden boxes', () => {
      const recipe = (wrap: (inner: string) => string) =>
        read(page(`<h1>Taco</h1>${wrap(`<h2>Ingredienser</h2>${list(ingredients)}<h2>Slik gjør du</h2>${list(steps, 'ol')}`)}`));
      for (const wrap of [
        (s: string) => `<nav>${s}</nav>`,
        (s: string) => `<aside>${s}</aside>`,
        (s: string) => `<footer>${s}</footer>`,
        (s: string) => `<div id="comments">${s}</div>`,
        (s: string) => `<div class="comment-list">${s}</div>`,
        (s: string) => `<div class="sidebar-right">${s}</div>`,
        (s: string) => `<div hidden>${s}</div>`,
        (s: string) => `<div style="display:none">${s}</div>`,
        (s: string) => `<header>${s}</header>`,
      ]) expect(recipe(wrap), wrap('…')).to.equal(null);
      // A theme's box around article and sidebar is not a sidebar, and an article's own <header> is the article.
      expect(recipe((s) => `<div class="content-sidebar-wrap">${s}</div>`)?.source).to.equal('layout');
      expect(recipe((s) => `<article><header>${s}</header></article>`)?.source).to.equal('layout');
    });

    it('is not asked when the page has markup: a JSON-LD recipe is read as before', () => {
      const ld = `<script type="application/ld+json">${JSON.stringify({ '@type': 'Recipe', name: 'Fra markup', recipeIngredient: ['1 egg'], recipeInstructions: ['Kok.'] })}</script>`;
      const got = read(page(`<h1>Taco</h1><h2>Ingredienser</h2>${list(ingredients)}<h2>Slik gjør du</h2>${list(steps)}`, ld));
      expect([got?.title, got?.source, got?.warnings]).to.deep.equal(['Fra markup', 'json-ld', []]);
    });

    it('takes the title from og:title without the site, else the <h1>, else the heading the <title> begins with', () => {
      const body = (h: string) => `${h}<h2>Ingredienser</h2>${list(ingredients)}<h2>Slik gjør du</h2>${list(steps)}`;
      const og = '<meta property="og:title" content="Taco | Matbloggen"><meta property="og:site_name" content="Matbloggen">';
      expect(read(page(body('<h1>Annen tittel</h1>'), og))?.title).to.equal('Taco');
      expect(read(page(body('<h1>Fredagstaco</h1>')))?.title).to.equal('Fredagstaco');
      const titled = `<!DOCTYPE html><html><head><title>Taco for alle - Bloggen</title></head><body>${body('<h2>Taco for alle</h2>')}</body></html>`;
      expect(read(titled)?.title).to.equal('Taco for alle');
    });

    it('reads servings and times written plainly', () => {
      const body = (meta: string) => `<h1>Taco</h1><p>${meta}</p><h2>Ingredienser</h2>${list(ingredients)}<h2>Slik gjør du</h2>${list(steps)}`;
      const cases: [string, string | null, number | null, number | null][] = [
        ['4 porsjoner', '4 porsjoner', 4, null],
        ['Serves 4-6 · Total time: 1 hour 20 minutes', 'Serves 4-6', 4, 80],
        ['Till 6 personer | Tid: 45 min', '6 personer', 6, 45],
        ['Portionen: 2 · Gesamtzeit: 1 Std.', 'Portionen: 2', 2, 60],
        ['Tid: 1 time og 15 minutter', null, null, 75],
        ['Steketid 400 grader', null, null, null],
      ];
      for (const [meta, yields, servings, total] of cases) {
        const got = read(page(body(meta)));
        expect([got?.yields, got?.servings, got?.totalMinutes], meta).to.deep.equal([yields, servings, total]);
      }
    });

    it('drops "1." and "Step 2:" before a step, and a group\'s name from the ingredients', () => {
      const got = read(
        page(`<h1>Taco</h1><h2>Ingredienser</h2><p><b>Til kjøttet:</b></p>${list(ingredients)}<h3>Til salsaen</h3>${list(['2 tomater', '1 rødløk'])}<h2>Method</h2><p>1. Brun kjøttet.</p><p>Step 2: Rør inn krydder.</p>`),
      );
      expect(got?.ingredientLines).to.deep.equal([...ingredients, '2 tomater', '1 rødløk']);
      expect(got?.steps).to.deep.equal(['Brun kjøttet.', 'Rør inn krydder.']);
    });

    it('ends the steps at a tip, a byline or a heading of their level, and a lone method heading at the next bold line', () => {
      const got = (after: string) => read(page(`<h1>Taco</h1><h2>Ingredienser</h2>${list(ingredients)}<h2>Slik gjør du</h2><p>Brun kjøttet.</p>${after}`))?.steps;
      expect(got('<p>Tips: bruk gjerne kalkunkjøttdeig i stedet for storfe, det blir like godt og litt magrere.</p>')).to.deep.equal(['Brun kjøttet.']);
      expect(got('<p><em>Publisert 3. mai 2024 av Kari</em></p>')).to.deep.equal(['Brun kjøttet.']);
      expect(got('<h2>Mer fra bloggen</h2><p>Les også om pizza.</p>')).to.deep.equal(['Brun kjøttet.']);
      expect(got('<h3>Sausen</h3><p>Rør sammen rømme og salsa.</p>')).to.deep.equal(['Brun kjøttet.', 'Rør sammen rømme og salsa.']);
      const bold = read(page(`<h1>Frikadeller</h1><p><b>Ingredienser</b></p><p>500 g fars</p><p>1 løg</p><p><b>Sådan gør du</b></p><p>Rør farsen.</p><p><b>Madglads nyhedsbrev</b></p><p>Få nye opskrifter hver uge.</p>`));
      expect(bold?.steps).to.deep.equal(['Rør farsen.']);
    });

    it('reads a page nested as deep as it likes without overflowing, and stays within the limits', () => {
      const deep = `${'<div>'.repeat(100_000)}<h2>Ingredienser</h2>${list(ingredients)}<h2>Slik gjør du</h2>${list(steps)}${'</div>'.repeat(100_000)}`;
      expect(read(page(`<h1>Dyp</h1>${deep}`))?.ingredientLines).to.deep.equal(ingredients);
      const many = Array.from({ length: 300 }, (_, i) => `${i + 1} g mel`);
      const got = read(page(`<h1>Mye</h1><h2>Ingredienser</h2>${list(many)}<h2>Slik gjør du</h2>${list(many.map((m) => `Rør inn ${m}.`))}`));
      expect([got?.ingredientLines.length, got?.steps.length]).to.deep.equal([100, 100]);
    });
  });
});
