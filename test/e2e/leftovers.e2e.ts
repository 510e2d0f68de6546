import { expect } from 'chai';
import type { Locator, Page } from 'playwright-core';
import { signedInClient } from '../support/client.js';
import { databaseKinds } from '../support/databases.js';
import { browserSuite, checkedShot, thisMonday } from './browser.js';

const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const event = (date: string, eventType: string, extra: Record<string, unknown> = {}) => ({
  date, eventType, servingTime: null, availableCookingMinutes: null, notes: null, guests: null, memberAttendance: null, ...extra,
});

/** The card of a day of the week, by its date. */
const card = (page: Page, date: string): Locator => page.locator('li.day').filter({ has: page.locator(`#day-${date}-h`) });

/**
 * Cook once, eat twice: "Lag dobbelt" on a planned day offers only the later days that may eat its leftovers; the
 * later day reads "Rester: Lasagne (mandag)", the cooking day says what it makes extra, the shopping list grows;
 * "Ikke rester" undoes it, and a refusal is a sentence.
 */
for (const kind of databaseKinds()) {
  describe(`the web app in Chromium: planned leftovers [${kind.name}]`, function () {
    this.timeout(120_000);
    const suite = browserSuite('leftovers', kind);

    it('cooks a dish double for a later day, and the list grows by its portions', async () => {
      const k = await signedInClient(suite.server.url, 'Kari');
      const h = (await k.client.post('/api/v1/households', { name: 'Hansen' })).json as { id: string };
      const base = `/api/v1/households/${h.id}`;
      const line = (displayName: string) => ({ displayName, quantity: 400, unit: 'g', optional: false, baseRecipeId: null, reference: null });
      const lasagne = (await k.client.post(`${base}/recipes`, { title: 'Lasagne', servings: 4, activeMinutes: null, totalMinutes: 75, steps: ['Lag maten.'], ingredients: [line('pasta'), line('kjøttdeig')] })).json.id as string;
      // Next week: no day of it is past. Lasagne on Monday; Wednesday three guests; Tuesday the guests avoid meat.
      const monday = addDays(thisMonday(), 7);
      const [tue, wed, thu] = [1, 2, 3].map((n) => addDays(monday, n)) as [string, string, string];
      const plan = (await k.client.put(`${base}/plans/week/${monday}`)).json as { id: string };
      await k.client.put(`${base}/plans/${plan.id}/days/${monday}`, { recipeId: lasagne, portions: null, note: null });
      await k.client.post(`${base}/events`, event(wed, 'Guests', { guests: [{ guestType: 'Adult', guestCount: 3, dietaryNotes: null, avoids: [] }] }));
      await k.client.post(`${base}/events`, event(tue, 'Guests', { guests: [{ guestType: 'Adult', guestCount: 1, dietaryNotes: null, avoids: ['kjøtt'] }] }));

      const page = await suite.page(k.client);
      await page.goto(`${suite.server.url}/list/${plan.id}`);
      const pasta = page.locator('ul.items > li').filter({ hasText: 'pasta' });
      await pasta.getByText('100 g').waitFor();

      await page.goto(`${suite.server.url}/week/${monday}`);
      const mon = card(page, monday);
      await mon.getByRole('link', { name: 'Lasagne' }).waitFor();
      await mon.locator('summary', { hasText: 'Lag dobbelt' }).click();
      // Tuesday's guest avoids meat, and Friday is past the three days leftovers keep: only Wednesday and Thursday.
      const offered = mon.locator('.cook-double .move-menu button');
      await offered.first().waitFor();
      expect(await offered.allTextContents()).to.deep.equal(['Rester onsdag', 'Rester torsdag']);
      await offered.filter({ hasText: 'Rester onsdag' }).click();
      await page.getByRole('status').filter({ hasText: 'Lasagne lages dobbelt: rester onsdag.' }).waitFor();
      await card(page, wed).getByText('Rester: Lasagne (mandag)').waitFor();
      await mon.getByText('+4 porsjoner til onsdag').waitFor();
      await mon.getByText('75 min · 1 porsjon').waitFor();
      // Wednesday cooks nothing: no warning of cooking time, and no dish to move or cook double.
      expect(await card(page, wed).locator('.warn').count()).to.equal(0);
      expect(await card(page, wed).locator('summary', { hasText: 'Lag dobbelt' }).count()).to.equal(0);
      await checkedShot(page, `leftovers-week-${kind.name}`);

      await page.goto(`${suite.server.url}/list/${plan.id}`);
      await pasta.getByText('500 g').waitFor();
      await page.locator('ul.items > li').filter({ hasText: 'kjøttdeig' }).getByText('500 g').waitFor();
      await checkedShot(page, `leftovers-list-${kind.name}`);

      // Undone: Wednesday has no dish, Monday cooks for its own table again.
      await page.goto(`${suite.server.url}/week/${monday}`);
      await card(page, wed).getByRole('button', { name: 'Ikke rester onsdag' }).click();
      await page.getByRole('status').filter({ hasText: 'Onsdag har ikke rester lenger. Velg en rett for dagen.' }).waitFor();
      await card(page, wed).getByText('Ingen rett').waitFor();
      expect(await mon.locator('.extra').count()).to.equal(0);

      // Thursday closes while the menu is open: the refusal is a sentence, and nothing changes.
      await mon.locator('summary', { hasText: 'Lag dobbelt' }).click();
      await mon.locator('.cook-double .move-menu button').filter({ hasText: 'Rester torsdag' }).waitFor();
      await k.client.post(`${base}/events`, event(thu, 'EatingOut'));
      await mon.locator('.cook-double .move-menu button').filter({ hasText: 'Rester torsdag' }).click();
      await mon.getByText('Ingen spiser hjemme den dagen, så den kan ikke få rester.').waitFor();
      // It names the day it was about, which the menu, read again, no longer offers.
      await mon.getByText('Rester torsdag gikk ikke:').waitFor();
      // The menu offers what is valid now.
      await mon.locator('.cook-double .move-menu button').filter({ hasText: 'Rester torsdag' }).waitFor({ state: 'detached' });
      expect(await mon.locator('.cook-double .move-menu button').allTextContents()).to.deep.equal(['Rester onsdag']);
      await checkedShot(page, `leftovers-refused-${kind.name}`);
      const saved = (await k.client.get(`${base}/plans/${plan.id}`)).json as { days: { leftoversOf: string | null }[] };
      expect(saved.days.map((d) => d.leftoversOf)).to.deep.equal([null, null, null, null, null, null, null]);
    });
  });
}
