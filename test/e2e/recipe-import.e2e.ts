import { expect } from 'chai';
import sharp from 'sharp';
import { FakeRecipeAi } from '../support/fake-recipe-ai.js';
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
      // This service has no AI: the picture choice is not offered.
      expect(await page.getByText('Les en oppskrift fra et bilde eller en PDF').count()).to.equal(0);
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

/** A photo of a recipe card, as a phone takes it (the fake AI answers Fiskekaker whatever it shows). */
const CARD = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="800"><rect width="600" height="800" fill="#f4ecd8"/>
  <text x="40" y="80" font-size="44" font-family="serif">Fiskekaker</text>
  <text x="40" y="160" font-size="26" font-family="serif">500 g hyse · 1 egg · 2 ss potetmel</text></svg>`;
const cardPhoto = () => sharp(Buffer.from(CARD)).jpeg({ quality: 85 }).toBuffer();

/**
 * A photo of a recipe read by the AI in a real browser, with the service's AI pointing at a fake OpenAI-compatible
 * server on loopback: the recipes screen offers the picture choice, the preview says the AI read it and marks the
 * doubtful line, and the recipe is saved after a look.
 */
for (const kind of databaseKinds()) {
  describe(`the web app in Chromium: a recipe read from a photo by the AI [${kind.name}]`, function () {
    this.timeout(120_000);
    const ai = new FakeRecipeAi();
    after(() => ai.stop());
    const suite = browserSuite('recipe-import-picture', kind, { env: async () => ({ AI_BASE_URL: await ai.start(), AI_MODEL: 'vision-model', AI_MONTHLY_CALLS: '5' }) });

    // checkedShot photographs each step at 390 and 1280 px (test-results/screens/recipe-import-picture-*).
    it('reads a photo, reviews the preview and saves it', async () => {
      const { k, base } = await household(suite.server.url);
      const page = await suite.page(k.client);
      await page.goto(`${suite.server.url}/recipes`);
      await page.getByText('Les en oppskrift fra et bilde eller en PDF').click();
      const chooser = page.getByLabel('Bilde eller PDF av oppskriften');
      expect(await chooser.getAttribute('accept')).to.equal('image/jpeg,image/png,image/webp,application/pdf');
      await chooser.setInputFiles({ name: 'fiskekaker.jpg', mimeType: 'image/jpeg', buffer: await cardPhoto() });
      await checkedShot(page, `recipe-import-picture-choose-${kind.name}`);
      await page.getByRole('button', { name: 'Les bildet' }).click();

      await page.getByText('Lest av AI fra bildet eller PDF-en.', { exact: false }).waitFor();
      expect(ai.calls).to.have.length(1);
      expect(await page.getByLabel('Tittel').inputValue()).to.equal('Fiskekaker');
      await page.getByText('På bildet: «litt muskat»').waitFor();
      await checkedShot(page, `recipe-import-picture-preview-${kind.name}`);
      expect((await k.client.get(`${base}/recipes`)).json.total, 'nothing saved before the person saves').to.equal(0);

      await page.getByRole('button', { name: 'Lagre' }).click();
      await page.locator('ul.cards').getByText('Fiskekaker').waitFor();
      const saved = (await k.client.get(`${base}/recipes`)).json.items[0];
      expect([saved.title, saved.servings, saved.totalMinutes]).to.deep.equal(['Fiskekaker', 4, 40]);
      expect(saved.ingredients.map((i: { displayName: string }) => i.displayName)).to.deep.equal(['hyse', 'egg', 'potetmel', 'salt', 'muskat']);

      // A text file is refused in the browser with a sentence, and the AI is not asked.
      await page.getByText('Les en oppskrift fra et bilde eller en PDF').click();
      await page.getByLabel('Bilde eller PDF av oppskriften').setInputFiles({ name: 'oppskrift.txt', mimeType: 'text/plain', buffer: Buffer.from('Fiskekaker: 500 g hyse') });
      await page.getByRole('button', { name: 'Les bildet' }).click();
      await page.getByRole('alert').filter({ hasText: 'Det er verken et bilde eller en PDF som kan leses.' }).waitFor();
      expect(ai.calls).to.have.length(1);
      await checkedShot(page, `recipe-import-picture-refused-${kind.name}`);
    });
  });
}
