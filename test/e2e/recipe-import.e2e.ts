import { expect } from 'chai';
import { signedInClient } from '../support/client.js';
import { databaseKinds } from '../support/databases.js';
import { browserSuite, checkedShot } from './browser.js';

/** A recipe as it comes from a phone's notes: a title, servings, a list with bullets, numbered steps. */
const NOTE = `Kyllinggryte
4 porsjoner
Tid: 40 min

Ingredienser:
- 600 g kyllingfilet
- 1 løk
- 2 dl matfløte
- en god neve persille

Slik gjør du:
1. Skjær kyllingen i biter og brun den i en gryte.
2. Ha i løk og fløte, og la det småkoke i 20 minutter.`;

async function household(url: string) {
  const k = await signedInClient(url, 'Kari');
  const h = (await k.client.post('/api/v1/households', { name: 'Hansen' })).json as { id: string };
  return { k, base: `/api/v1/households/${h.id}` };
}

/**
 * A recipe pasted as text in a real browser, on SQLite and on Postgres: the recipes screen's "Lim inn en oppskrift
 * som tekst" opens a text area, the service reads the text, and the new-recipe screen shows what it found with the
 * doubtful line marked, to be saved after a look.
 */
for (const kind of databaseKinds()) {
  describe(`the web app in Chromium: a recipe pasted as text [${kind.name}]`, function () {
    this.timeout(120_000);
    const suite = browserSuite('recipe-import', kind);

    // checkedShot photographs each step at 390 and 1280 px (test-results/screens/recipe-import-text-*).
    it('pastes a recipe, reviews the preview and saves it', async () => {
      const { k, base } = await household(suite.server.url);
      const page = await suite.page(k.client);
      await page.goto(`${suite.server.url}/recipes`);
      await page.getByText('Lim inn en oppskrift som tekst').click();
      const area = page.getByLabel('Oppskriften', { exact: true });
      await area.fill(NOTE);
      await checkedShot(page, `recipe-import-text-paste-${kind.name}`);
      await page.getByRole('button', { name: 'Les oppskriften' }).click();

      await page.getByText('Lest fra teksten du limte inn.', { exact: false }).waitFor();
      expect(await page.getByLabel('Tittel').inputValue()).to.equal('Kyllinggryte');
      expect(await page.getByLabel('Porsjoner').inputValue()).to.equal('4');
      await page.getByText('I teksten: «en god neve persille»').waitFor();
      await checkedShot(page, `recipe-import-text-preview-${kind.name}`);
      expect((await k.client.get(`${base}/recipes`)).json.total, 'nothing saved before the person saves').to.equal(0);

      await page.getByRole('button', { name: 'Lagre' }).click();
      await page.locator('ul.cards').getByText('Kyllinggryte').waitFor();
      const saved = (await k.client.get(`${base}/recipes`)).json.items[0];
      expect([saved.title, saved.servings, saved.totalMinutes, saved.sourceUrl]).to.deep.equal(['Kyllinggryte', 4, 40, null]);
      expect(saved.ingredients.map((i: { displayName: string }) => i.displayName)).to.deep.equal(['kyllingfilet', 'løk', 'matfløte', 'persille']);
      expect(saved.steps).to.deep.equal(['Skjær kyllingen i biter og brun den i en gryte.', 'Ha i løk og fløte, og la det småkoke i 20 minutter.']);
    });
  });
}
