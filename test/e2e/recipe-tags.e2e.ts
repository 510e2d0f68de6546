import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { signedInClient } from '../support/client.js';
import { databaseKinds } from '../support/databases.js';
import { browserSuite, checkedShot } from './browser.js';

const line = (displayName: string, quantity: number, unit: string) => ({ displayName, quantity, unit, optional: false, baseRecipeId: null, reference: null });

/** A household with three recipes, two of them tagged: the list has chips from the start. */
async function householdWithRecipes(url: string) {
  const k = await signedInClient(url, 'Kari');
  const h = (await k.client.post('/api/v1/households', { name: 'Hansen' })).json as { id: string };
  const base = `/api/v1/households/${h.id}`;
  for (const [title, lines, tags] of [
    ['Fiskesuppe', [line('Torsk', 400, 'g'), line('Matfløte', 3, 'dl')], ['fisk', 'hverdag']],
    ['Taco', [line('Kjøttdeig', 400, 'g'), line('Lomper', 8, 'stk')], ['hverdag', 'barn liker']],
    ['Lasagne', [line('Kjøttdeig', 500, 'g'), line('Lasagneplater', 250, 'g')], []],
  ] as const) {
    const r = await k.client.post(`${base}/recipes`, { title, servings: 4, activeMinutes: null, totalMinutes: 30, steps: [], ingredients: lines, tags });
    expect(r.status, r.text).to.equal(201);
  }
  return { k, base };
}

const titles = async (page: Page) => (await page.locator('ul.cards > li .card-link').allTextContents()).map((s) => s.trim());

/**
 * Recipe tags in a real browser, on SQLite and on Postgres: tags are added in the form as chips (Enter and a comma
 * end one, a chip's own button removes it, from the keyboard too), the list shows the household's tags as filter
 * chips (aria-pressed) that set `tag`, and the search finds a recipe by an ingredient, in any case.
 */
for (const kind of databaseKinds()) {
  describe(`the web app in Chromium: recipe tags [${kind.name}]`, function () {
    this.timeout(120_000);
    const suite = browserSuite('recipe-tags', kind);

    // checkedShot photographs each step at 390 and 1280 px (test-results/screens/recipe-tags-*).
    it('adds tags as chips in the form, filters the list by a chip, and finds a recipe by an ingredient', async () => {
      const { k, base } = await householdWithRecipes(suite.server.url);
      const page = await suite.page(k.client);
      await page.goto(`${suite.server.url}/recipes/new`);
      await page.getByLabel('Tittel', { exact: true }).fill('Ørret i ovn');
      await page.getByLabel(/Legg til ingredienser/).fill('1 stk ørret\n1 stk sitron');
      await page.getByRole('button', { name: 'Legg til linjene' }).click();
      await page.locator('li.line').nth(1).waitFor();

      // Enter ends a tag (and does not send the form); a comma ends one; blanks and a repeat in another case are not chips.
      const tagField = page.getByLabel(/^Merkelapper/);
      await tagField.fill('Fisk');
      await tagField.press('Enter');
      await tagField.pressSequentially('helg, ,FISK,Barn liker');
      await tagField.press('Enter');
      const chips = page.getByRole('list', { name: 'Merkelappene til oppskriften' }).getByRole('listitem');
      expect((await chips.allTextContents()).map((s) => s.replace('×', '').trim())).to.deep.equal(['Fisk', 'helg', 'Barn liker']);
      expect(await tagField.inputValue()).to.equal('');
      expect(page.url()).to.match(/\/recipes\/new$/);
      // Removed from the keyboard: its button, then the focus is back in the field.
      await page.getByRole('button', { name: 'Fjern merkelappen helg' }).focus();
      await page.keyboard.press('Enter');
      expect((await chips.allTextContents()).map((s) => s.replace('×', '').trim())).to.deep.equal(['Fisk', 'Barn liker']);
      expect(await page.evaluate('document.activeElement && document.activeElement.id')).to.equal('f-tags');
      // A tag typed but not ended is saved too.
      await tagField.pressSequentially('helg');
      await checkedShot(page, `recipe-tags-form-${kind.name}`);
      await page.getByRole('button', { name: 'Lagre' }).click();
      await page.locator('ul.cards > li').filter({ hasText: 'Ørret i ovn' }).waitFor();
      const saved = (await k.client.get(`${base}/recipes?q=${encodeURIComponent('ørret i ovn')}`)).json.items[0];
      expect(saved.tags).to.deep.equal(['fisk', 'barn liker', 'helg']);

      // The household's tags as chips, the most used first; one pressed filters the list, pressed again shows all.
      const filter = page.getByRole('group', { name: 'Vis bare oppskrifter med merkelappen' });
      const chip = (tag: string) => filter.getByRole('button', { name: new RegExp(`^${tag} \\d+$`) });
      await chip('fisk').waitFor();
      expect((await filter.getByRole('button').allTextContents()).map((s) => s.trim())).to.deep.equal(['barn liker 2', 'fisk 2', 'hverdag 2', 'helg 1']);
      expect(await chip('fisk').getAttribute('aria-pressed')).to.equal('false');
      await chip('fisk').click();
      await page.locator('ul.cards > li').filter({ hasText: 'Taco' }).waitFor({ state: 'detached' });
      expect(await titles(page)).to.deep.equal(['Fiskesuppe', 'Ørret i ovn']);
      expect(await chip('fisk').getAttribute('aria-pressed')).to.equal('true');
      await checkedShot(page, `recipe-tags-filter-${kind.name}`);
      await chip('fisk').click();
      await page.locator('ul.cards > li').filter({ hasText: 'Taco' }).waitFor();
      expect(await chip('fisk').getAttribute('aria-pressed')).to.equal('false');

      // The search says what it looks in, and finds a recipe by an ingredient, in any case (Kjøttdeig by KJØTT).
      const search = page.getByRole('searchbox', { name: 'Tittel, ingrediens, merkelapp' });
      await search.fill('KJØTT');
      await page.getByRole('search').getByRole('button', { name: 'Søk' }).click();
      await page.locator('ul.cards > li').filter({ hasText: 'Fiskesuppe' }).waitFor({ state: 'detached' });
      expect(await titles(page)).to.deep.equal(['Lasagne', 'Taco']);
      // A chip narrows the search further: what is typed and the chip hold together.
      await chip('barn liker').click();
      await page.locator('ul.cards > li').filter({ hasText: 'Lasagne' }).waitFor({ state: 'detached' });
      expect(await titles(page)).to.deep.equal(['Taco']);
      await checkedShot(page, `recipe-tags-search-${kind.name}`);
    });

    it('shows a large collection a page at a time: how many there are, and more when asked', async () => {
      const { k, base } = await householdWithRecipes(suite.server.url);
      for (let i = 0; i < 102; i++) {
        const r = await k.client.post(`${base}/recipes`, { title: `Rett ${String(i).padStart(3, '0')}`, servings: 2, activeMinutes: null, totalMinutes: null, steps: ['Lag den.'], ingredients: [line('Ris', 2, 'dl'), line('Egg', 2, 'stk')] });
        expect(r.status, r.text).to.equal(201);
      }
      const page = await suite.page(k.client);
      await page.goto(`${suite.server.url}/recipes`);
      await page.getByRole('status').filter({ hasText: '105 oppskrifter' }).waitFor();
      expect(await page.locator('ul.cards > li').count()).to.equal(100);
      // A card names its ingredients (the summary's names), in the recipe's order.
      expect((await page.locator('ul.cards > li').filter({ hasText: 'Rett 000' }).textContent()) ?? '').to.contain('Ris, Egg');
      await page.getByRole('button', { name: 'Vis flere' }).click();
      await page.locator('ul.cards > li').nth(104).waitFor();
      expect(await titles(page)).to.include.members(['Taco', 'Rett 101']);
      expect(await page.locator('ul.cards > li').count()).to.equal(105);
      expect(await page.getByRole('button', { name: 'Vis flere' }).count()).to.equal(0);
      await checkedShot(page, `recipe-tags-more-${kind.name}`);
    });
  });
}
