import { expect } from 'chai';
import { signedInClient } from '../support/client.js';
import { databaseKinds } from '../support/databases.js';
import { browserSuite, checkedShot } from './browser.js';

/**
 * A new household with no recipes asks for the week: it is told once that it has no recipes, with the ways in, and
 * the recipe library is one tap away.
 */
for (const kind of databaseKinds()) {
  describe(`the web app in Chromium: a first week with no recipes [${kind.name}]`, function () {
    this.timeout(90_000);
    const suite = browserSuite('first-run', kind);

    it('says once that there are no recipes, with the ways in, and suggests the week from the library after one tap', async () => {
      const kari = await signedInClient(suite.server.url, 'Kari');
      const h = (await kari.client.post('/api/v1/households', { name: 'Hansen' })).json as { id: string };
      const page = await suite.page(kari.client);
      await page.goto(`${suite.server.url}/`);
      const firstRun = page.getByRole('region', { name: 'Dere har ingen oppskrifter ennå' });
      // The new household's week asks how it wants to start, once: "not now" puts it off, also after a reload.
      await firstRun.waitFor();
      await checkedShot(page, `first-run-week-${kind.name}`);
      await firstRun.getByRole('button', { name: 'Nei, ikke nå' }).click();
      await firstRun.waitFor({ state: 'detached' });
      await page.reload();
      await page.getByRole('button', { name: 'Foreslå uka' }).waitFor();
      expect(await firstRun.count()).to.equal(0);

      await page.getByRole('button', { name: 'Foreslå uka' }).click();
      await firstRun.waitFor();
      // Said once, not on every day; no day is offered, and there is nothing to save.
      expect(await page.getByText('Dere har ingen oppskrifter å foreslå fra ennå.').count()).to.equal(0);
      expect(await page.getByRole('button', { name: 'Lagre uka' }).count()).to.equal(0);
      expect(await firstRun.getByRole('link', { name: 'Hent en oppskrift fra en nettside' }).getAttribute('href')).to.equal('/recipes#f-import-url');
      expect(await firstRun.getByRole('link', { name: 'Skriv inn en oppskrift' }).getAttribute('href')).to.equal('/recipes/new');
      await checkedShot(page, `first-run-${kind.name}`);

      await firstRun.getByRole('button', { name: 'Bruk oppskriftsbiblioteket' }).click();
      await firstRun.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Lagre uka' }).waitFor();
      expect(await page.locator('.suggested-day .dish:not(.none)').count()).to.be.greaterThan(0);
      expect((await kari.client.get(`/api/v1/households/${h.id}`)).json.libraryRecipesOn).to.equal(true);
    });
  });
}
