import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { databaseKinds } from '../support/databases.js';
import { ownedHousehold } from '../support/household.js';
import { browserSuite, checkedShot, openWholeWeek, thisMonday } from './browser.js';

const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** The rules the settings page lists, as their sentences. */
const ruleSentences = (page: Page) => page.locator('.rule-list li span').allTextContents();

/**
 * The household's dinner rules in a real browser, on SQLite and on Postgres: made and removed on the settings page
 * (each said as a sentence, a refusal too), and a rule made there shapes a new week: the fixed dish is on its
 * weekday, and the day says why. Photographed at 390 and 1280 px.
 */
for (const kind of databaseKinds()) {
  describe(`the web app in Chromium: fixed dinners [${kind.name}]`, function () {
    this.timeout(120_000);
    const suite = browserSuite('dinner-rules', kind);

    it('a fixed dish made in the settings is on its weekday in a new week, and says so', async () => {
      const h = await ownedHousehold(suite.server.url, 'Hansen');
      const recipe = async (title: string, tags: string[]) => {
        const ingredients = [{ displayName: title, quantity: 400, unit: 'g', optional: false, baseRecipeId: null, reference: null }];
        const res = await h.owner.post(`${h.base}/recipes`, { title, servings: 4, activeMinutes: null, totalMinutes: 30, steps: [], ingredients, tags });
        expect(res.status, res.text).to.equal(201);
      };
      await recipe('Taco', ['hverdag']);
      await recipe('Laks i ovn', ['fisk']);
      await recipe('Fiskesuppe', ['fisk']);
      const page = await suite.page(h.owner);
      await page.goto(`${suite.server.url}/settings/dinners`);
      await page.getByRole('heading', { name: 'Faste middager', level: 1 }).waitFor();
      await page.getByText('Dere har ingen regler ennå.').waitFor();

      // Taco on Fridays.
      const fixed = page.locator('section', { has: page.getByRole('heading', { name: 'Fast rett på en ukedag' }) });
      await fixed.getByLabel('Rett').selectOption({ label: 'Taco' });
      await fixed.getByLabel('Ukedag').selectOption({ label: 'Fredag' });
      await fixed.getByRole('button', { name: 'Legg til' }).click();
      await page.getByRole('status').getByText('La til regelen «Taco på fredag».').waitFor();
      // Fish twice a week, and no dish again within 10 days.
      const tag = page.locator('section', { has: page.getByRole('heading', { name: 'En type rett et antall ganger i uka' }) });
      await tag.getByLabel('Tagg').selectOption('fisk');
      await tag.getByLabel('Ganger i uka').fill('2');
      await tag.getByRole('button', { name: 'Legg til' }).click();
      await page.getByText('La til regelen «Fisk 2 ganger i uka».').waitFor();
      const spacing = page.locator('section', { has: page.getByRole('heading', { name: 'Ikke samme rett for ofte' }) });
      await spacing.getByLabel('Dager før retten kan komme igjen').fill('10');
      await spacing.getByRole('button', { name: 'Legg til' }).click();
      await page.getByText('La til regelen «Ingen rett igjen før det har gått 10 dager».').waitFor();
      expect(await ruleSentences(page)).to.have.members(['Taco på fredag', 'Fisk 2 ganger i uka', 'Ingen rett igjen før det har gått 10 dager']);

      // A second dish on Friday is refused, in a sentence.
      await fixed.getByLabel('Rett').selectOption({ label: 'Laks i ovn' });
      await fixed.getByLabel('Ukedag').selectOption({ label: 'Fredag' });
      await fixed.getByRole('button', { name: 'Legg til' }).click();
      await fixed.getByText('Den ukedagen har en fast rett fra før. Fjern den regelen først, eller velg en annen dag.').waitFor();
      await checkedShot(page, `dinner-rules-settings-${kind.name}`);

      // The spacing rule removed.
      await page.getByRole('button', { name: 'Fjern regelen «Ingen rett igjen før det har gått 10 dager»' }).click();
      await page.getByText('Fjernet regelen «Ingen rett igjen før det har gått 10 dager».').waitFor();
      expect(await ruleSentences(page)).to.have.members(['Taco på fredag', 'Fisk 2 ganger i uka']);

      // Next week has no plan yet: it opens with taco on Friday, and the day says why.
      const monday = addDays(thisMonday(), 7);
      const friday = addDays(monday, 4);
      await page.goto(`${suite.server.url}/week/${monday}`);
      await openWholeWeek(page);
      const fridayCard = page.locator('li.day', { has: page.locator(`#day-${friday}-h`) });
      await fridayCard.getByRole('link', { name: 'Taco' }).waitFor();
      await fridayCard.getByText('Fast: Taco på fredag.').waitFor();
      expect(await page.locator('li.day .rule-note').count()).to.equal(1);
      await checkedShot(page, `dinner-rules-week-${kind.name}`);

      // The proposal for the other days says the fish rule on its two fish days.
      await page.getByRole('button', { name: 'Foreslå uka' }).click();
      await page.getByRole('heading', { name: 'Forslag til uka' }).waitFor();
      await page.getByText(/^Fisk 2 ganger i uka \(1 av 2\)\.$/).waitFor();
      await page.getByText(/^Fisk 2 ganger i uka \(2 av 2\)\.$/).waitFor();
      await checkedShot(page, `dinner-rules-suggestions-${kind.name}`);
    });
  });
}
