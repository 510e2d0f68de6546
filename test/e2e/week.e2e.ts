import { expect } from 'chai';
import type { Locator, Page } from 'playwright-core';
import { signedInClient } from '../support/client.js';
import { databaseKinds } from '../support/databases.js';
import { browserSuite, checkedShot, thisMonday } from './browser.js';
import { bowl, pictureSite } from './pictures.js';

const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const dayName = (date: string) => new Intl.DateTimeFormat('nb-NO', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
const line = (displayName: string) => ({ displayName, quantity: 1, unit: 'stk', optional: false, baseRecipeId: null, reference: null });
const event = (date: string, eventType: string, extra: Record<string, unknown> = {}) => ({
  date, eventType, servingTime: null, availableCookingMinutes: null, notes: null, guests: null, memberAttendance: null, ...extra,
});

/** The card of a day of the week, by its date. */
const card = (page: Page, date: string): Locator => page.locator('li.day').filter({ has: page.locator(`#day-${date}-h`) });

/**
 * The week at a glance: each day a card with its dish's picture, minutes and portions, the events as chips, and one
 * line when the dish needs longer than the evening leaves or an event took it off; a searchable picker that puts what
 * fits the day first and offers the planner's pick; a dish moved by "Flytt" on a phone and by drag and drop on a
 * computer; the days before today folded on a phone.
 */
for (const kind of databaseKinds()) {
  describe(`the web app in Chromium: the week at a glance [${kind.name}]`, function () {
    this.timeout(120_000);
    // A site of its own serving the dishes' pictures, let through the outbound guard so the service fetches them.
    const site = pictureSite({ '/soup.png': bowl([232, 150, 60]), '/lasagne.png': bowl([200, 70, 40]) });
    const suite = browserSuite('week', kind, { env: site.env });
    after(site.close);

    async function household() {
      const k = await signedInClient(suite.server.url, 'Kari');
      const h = (await k.client.post('/api/v1/households', { name: 'Hansen' })).json as { id: string };
      const base = `/api/v1/households/${h.id}`;
      const recipe = async (title: string, totalMinutes: number, foods: string[], picture?: string) => {
        const made = await k.client.post(`${base}/recipes`, { title, servings: 4, activeMinutes: null, totalMinutes, steps: ['Lag maten.'], ingredients: foods.map(line), ...(picture ? { imageUrl: `${site.url()}${picture}` } : {}) });
        expect(made.status, made.text).to.equal(201);
        return made.json.id as string;
      };
      const ids = {
        soup: await recipe('Fiskesuppe', 35, ['torsk', 'gulrot'], '/soup.png'),
        lasagne: await recipe('Lasagne', 75, ['kjøttdeig', 'pasta'], '/lasagne.png'),
        nutRoast: await recipe('Nøttestek', 25, ['valnøtter', 'løk']),
        omelette: await recipe('Omelett', 15, ['egg']),
      };
      return { k, base, ids };
    }

    it('shows each day as a card, says what is wrong in one line, and chooses a dish with what fits first', async () => {
      const { k, base, ids } = await household();
      // Next week: no day of it is past. Monday fish soup; Tuesday guests who avoid nuts and only 30 minutes, with
      // the 75-minute lasagne; Wednesday an omelette, then the family goes out.
      const monday = addDays(thisMonday(), 7);
      const [tue, wed, thu, fri] = [1, 2, 3, 4].map((n) => addDays(monday, n)) as [string, string, string, string];
      const plan = (await k.client.put(`${base}/plans/week/${monday}`)).json as { id: string };
      const setDay = (date: string, recipeId: string) => k.client.put(`${base}/plans/${plan.id}/days/${date}`, { recipeId, portions: null, note: null });
      await setDay(monday, ids.soup);
      await k.client.post(`${base}/events`, event(tue, 'Guests', { availableCookingMinutes: 30, guests: [{ guestType: 'Adult', guestCount: 2, dietaryNotes: null, avoids: ['nøtter'] }] }));
      await setDay(tue, ids.lasagne);
      await setDay(wed, ids.omelette);
      await k.client.post(`${base}/events`, event(wed, 'EatingOut'));

      const page = await suite.page(k.client);
      await page.goto(`${suite.server.url}/week/${monday}`);
      const mon = card(page, monday);
      await mon.getByRole('link', { name: 'Fiskesuppe' }).waitFor();
      expect(await mon.getByRole('link', { name: 'Fiskesuppe' }).getAttribute('href')).to.equal(`/recipes/${ids.soup}?portions=1`);
      expect(await mon.locator('img').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).to.equal(320);
      await mon.getByText('35 min · 1 porsjon').waitFor();
      await card(page, tue).getByText('2 gjester (unngår nøtter)').waitFor();
      await card(page, tue).getByText('Lasagne tar 75 min, men kvelden gir bare 30.').waitFor();
      await card(page, wed).getByText('Omelett lages ikke: ingen spiser middag hjemme. Flytt retten til en annen dag?').waitFor();
      // On a phone, Monday through Thursday fit within the first two screens.
      const fourth = await card(page, thu).boundingBox();
      expect(fourth!.y + fourth!.height, 'four days within two phone screens').to.be.below(2 * 844);
      await checkedShot(page, `week-glance-${kind.name}`);

      // Tuesday's picker: the omelette fits; the soup and the lasagne take too long; the nut roast cannot be served.
      await card(page, tue).getByRole('button', { name: `Bytt rett for ${dayName(tue)}` }).click();
      const picker = page.getByRole('dialog', { name: `Middag ${dayName(tue)}` });
      await picker.getByText('Kvelden gir 30 min til matlaging.').waitFor();
      const group = (name: string) => picker.getByRole('region', { name }).locator('.choice-title');
      expect(await group('Passer dagen').allTextContents()).to.deep.equal(['Omelett']);
      expect(await group('Passer dårligere').allTextContents()).to.deep.equal(['Fiskesuppe', 'Lasagne']);
      expect(await group('Kan ikke serveres denne dagen').allTextContents()).to.deep.equal(['Nøttestek']);
      await picker.getByText('Har valnøtter, og gjestene unngår nøtter').waitFor();
      await picker.getByText('Tar 35 min; kvelden gir 30 min').waitFor();
      await checkedShot(page, `week-picker-${kind.name}`);
      // Search by an ingredient; the nut roast stays refused when pressed.
      await picker.getByLabel('Søk i oppskriftene').fill('EGG');
      await picker.locator('.choice-title').filter({ hasText: 'Omelett' }).waitFor();
      for (let i = 0; i < 50 && (await picker.locator('.choice-title').count()) !== 1; i++) await page.waitForTimeout(50);
      expect(await picker.locator('.choice-title').allTextContents()).to.deep.equal(['Omelett']);
      await picker.getByRole('button', { name: /Omelett/ }).click();
      await picker.waitFor({ state: 'detached' });
      await card(page, tue).getByRole('link', { name: 'Omelett' }).waitFor();
      expect(await card(page, tue).locator('.warn').count()).to.equal(0);
      // The focus is back on Tuesday's own button.
      expect(await page.evaluate('document.activeElement?.getAttribute("aria-label")')).to.equal(`Bytt rett for ${dayName(tue)}`);

      // Wednesday's omelette, taken off by eating out, moves to Thursday by "Flytt".
      await card(page, wed).locator('summary', { hasText: 'Flytt' }).click();
      await card(page, wed).getByRole('button', { name: dayName(thu) }).click();
      await page.getByRole('status').filter({ hasText: `Omelett er flyttet til ${dayName(thu)}.` }).waitFor();
      await card(page, thu).getByRole('link', { name: 'Omelett' }).waitFor();
      expect(await card(page, wed).locator('.warn').count()).to.equal(0);

      // Friday: the planner's pick, saved from the picker.
      await card(page, fri).getByRole('button', { name: `Velg rett for ${dayName(fri)}` }).click();
      const friday = page.getByRole('dialog', { name: `Middag ${dayName(fri)}` });
      await friday.getByRole('button', { name: 'Foreslå en' }).click();
      await friday.getByText('Planleggeren foreslår').waitFor();
      const proposed = (await friday.locator('.suggested-pick .choice-title').textContent())!;
      await friday.locator('.suggested-pick .choice').click();
      await friday.waitFor({ state: 'detached' });
      await card(page, fri).getByRole('link', { name: proposed }).waitFor();
      const saved = (await k.client.get(`${base}/plans/${plan.id}`)).json as { days: { recipeTitle: string | null }[] };
      expect(saved.days.map((d) => d.recipeTitle)).to.deep.equal(['Fiskesuppe', 'Omelett', null, 'Omelett', proposed, null, null]);
    });

    it('moves a dish by drag and drop on a computer, where the week is a seven-day grid', async () => {
      const { k, base, ids } = await household();
      const monday = addDays(thisMonday(), 7);
      const sat = addDays(monday, 5);
      const plan = (await k.client.put(`${base}/plans/week/${monday}`)).json as { id: string };
      await k.client.put(`${base}/plans/${plan.id}/days/${monday}`, { recipeId: ids.soup, portions: null, note: null });
      await k.client.put(`${base}/plans/${plan.id}/days/${sat}`, { recipeId: ids.lasagne, portions: null, note: null });
      const page = await suite.page(k.client, { viewport: { width: 1280, height: 800 } });
      await page.goto(`${suite.server.url}/week/${monday}`);
      await card(page, monday).getByRole('link', { name: 'Fiskesuppe' }).waitFor();
      // Seven columns side by side.
      const tops = await page.locator('li.day').evaluateAll((days) => days.map((d) => Math.round(d.getBoundingClientRect().top)));
      expect(new Set(tops).size, 'one row of days').to.equal(1);
      await page.dragAndDrop(`li.day:has(#day-${monday}-h) .dish-drag`, `li.day:has(#day-${sat}-h)`);
      await page.getByRole('status').filter({ hasText: `Fiskesuppe er flyttet til ${dayName(sat)}.` }).waitFor();
      await card(page, sat).getByRole('link', { name: 'Fiskesuppe' }).waitFor();
      await card(page, monday).getByRole('link', { name: 'Lasagne' }).waitFor();
      await checkedShot(page, `week-grid-${kind.name}`);
    });

    it('folds the days before today on a phone, and opens them on request', async () => {
      const { k } = await household();
      const page = await suite.page(k.client);
      await page.goto(`${suite.server.url}/week/${thisMonday()}`);
      await page.locator('li.day.today').waitFor();
      const today = (await page.locator('li.day.today').getAttribute('aria-labelledby'))!.slice(4, 14);
      const before = Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${thisMonday()}T00:00:00Z`)) / 86_400_000);
      expect(await page.locator('li.day:visible').count()).to.equal(7 - before);
      if (before === 0) {
        expect(await page.getByRole('button', { name: /Vis tidligere dager/ }).count()).to.equal(0);
        return;
      }
      const toggle = page.getByRole('button', { name: `Vis tidligere dager (${before})` });
      expect(await toggle.getAttribute('aria-expanded')).to.equal('false');
      await toggle.click();
      expect(await page.locator('li.day:visible').count()).to.equal(7);
      await page.getByRole('button', { name: 'Skjul tidligere dager' }).waitFor();
    });
  });
}
