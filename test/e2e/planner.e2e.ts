import { expect } from 'chai';
import type { Locator, Page } from 'playwright-core';
import { signedInClient, type Client } from '../support/client.js';
import { databaseKinds } from '../support/databases.js';
import { browserSuite, checkedShot, thisMonday } from './browser.js';

const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
/** A date as the week screen writes it ("onsdag 25. november"). */
const dayName = (date: string, locale: 'nb-NO' | 'en-GB') =>
  new Intl.DateTimeFormat(locale, { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));

/** Recipes of the household: a nut roast, a quick omelette, and others that take longer than Tuesday's 20 minutes. */
const RECIPES: readonly [title: string, minutes: number, ingredients: readonly [string, number, string][]][] = [
  ['Nøttestek', 60, [['Hasselnøtter', 200, 'g'], ['Løk', 2, 'stk']]],
  ['Omelett', 10, [['Egg', 6, 'stk'], ['Melk', 1, 'dl']]],
  ['Taco', 30, [['Kjøttdeig', 400, 'g'], ['Lomper', 8, 'stk']]],
  ['Fiskesuppe', 40, [['Torskefilet', 400, 'g'], ['Matfløte', 3, 'dl']]],
  ['Lasagne', 70, [['Kjøttdeig', 500, 'g'], ['Lasagneplater', 250, 'g']]],
  ['Spaghetti med bacon', 25, [['Spaghetti', 400, 'g'], ['Bacon', 200, 'g']]],
  ['Kyllinggryte', 45, [['Kyllingfilet', 600, 'g'], ['Ris', 4, 'dl']]],
  ['Linsesuppe', 35, [['Røde linser', 3, 'dl'], ['Gulrot', 3, 'stk']]],
  ['Fiskegrateng', 50, [['Seifilet', 400, 'g'], ['Makaroni', 200, 'g']]],
  ['Pizza', 60, [['Pizzadeig', 1, 'stk'], ['Revet ost', 300, 'g']]],
];

/**
 * "Suggest the week" in a real browser, on SQLite and on Postgres. The operator has configured an AI whose monthly
 * quota is 0, so every proposal first meets 429 ai_quota_used: the screen says so and asks again without the AI.
 * Guests avoid nuts on Wednesday and Tuesday leaves 20 minutes to cook; the proposal keeps to both, a day is drawn
 * again, a day is left out, and exactly the kept days are saved. A Junior gets no proposal.
 */
for (const kind of databaseKinds()) {
  describe(`the web app in Chromium: suggest the week [${kind.name}]`, function () {
    this.timeout(120_000);
    // An AI on a port nothing listens on; with a quota of 0 it is never called.
    const suite = browserSuite('planner', kind, { env: { AI_BASE_URL: 'http://127.0.0.1:9/v1', AI_MODEL: 'none', AI_MONTHLY_CALLS: '0' } });
    let page: Page;
    const as = (client: Client): Promise<Page> => suite.page(client);

    it('proposes a week that keeps to the avoids and the cooking time, draws a day again, and saves only the kept days', async () => {
      const { k, m, base, monday, plan, ids } = await householdWithAWeek(suite.server.url);

      page = await as(k.client);
      await page.goto(`${suite.server.url}/week/${monday}`);
      await page.getByRole('button', { name: 'Foreslå uka' }).click();
      const proposal = page.getByRole('region', { name: 'Forslag til uka' });
      const day = (date: string): Locator => proposal.getByRole('listitem').filter({ has: page.getByRole('heading', { name: dayName(date, 'nb-NO'), exact: true }) });
      const dish = async (date: string) => (await day(date).locator('.dish').textContent())!.trim();
      await day(addDays(monday, 6)).locator('.dish').waitFor();
      // The AI's quota is used: said as a sentence, and the proposal came all the same.
      await proposal.getByRole('status').filter({ hasText: 'Månedens AI-tips er brukt opp; notatene er skrevet etter faste regler.' }).waitFor();
      expect(await proposal.locator('li.suggested-day').count()).to.equal(7);

      // Wednesday: not the nut roast, and the guests' avoids said twice (why the dish, and at the table).
      const wednesday = addDays(monday, 2);
      expect(await dish(wednesday)).to.not.equal('Nøttestek');
      expect(await dish(wednesday)).to.not.equal('Ingen rett passer');
      await day(wednesday).getByText('Ingenting i den er noe gjestene unngår.').waitFor();
      await day(wednesday).getByText('Hele bordet unngår i dag: nøtter.').waitFor();
      // Tuesday: only the omelette is done in 20 minutes.
      const tuesday = addDays(monday, 1);
      expect(await dish(tuesday)).to.equal('Omelett');
      await day(tuesday).getByText('Ferdig på 10 min, og dagen gir 20 min til matlaging.').waitFor();
      await checkedShot(page, `planner-proposal-nb-${kind.name}`);

      // "Another one" for Thursday gives another dish (a press tries a few seeds; a few presses make it certain).
      const thursday = addDays(monday, 3);
      const first = await dish(thursday);
      let now = first;
      const another = day(thursday).getByRole('button', { name: `En annen rett for ${dayName(thursday, 'nb-NO')}` });
      for (let press = 0; press < 5 && now === first; press++) {
        const answered = page.waitForResponse((r) => r.url().endsWith('/suggestions') && r.request().method() === 'POST');
        await another.click();
        await answered;
        await another.filter({ hasText: /^En annen$/ }).waitFor();
        now = await dish(thursday);
      }
      expect(now).to.not.equal(first);
      expect(now).to.not.equal('Ingen rett passer');

      // Sunday is left out; the rest is saved.
      const sunday = addDays(monday, 6);
      await proposal.getByLabel(`Ta med ${dayName(sunday, 'nb-NO')}`).uncheck();
      const kept = new Map<string, string>();
      for (let i = 0; i < 6; i++) kept.set(addDays(monday, i), await dish(addDays(monday, i)));
      expect(new Set(kept.values()).size, 'no dish twice in the week').to.equal(6);
      // The price counts only the days that will be saved: Sunday left out costs nothing (no line when none is priced).
      const priceLine = proposal.locator('.week-prices li').filter({ hasText: 'Anslått pris' });
      if ((await priceLine.count()) > 0) expect(await priceLine.textContent()).to.match(/^(Anslått pris for \d+ av 6 dager|Anslått pris for forslaget):/);
      await checkedShot(page, `planner-day-left-out-nb-${kind.name}`);
      await proposal.getByRole('button', { name: 'Lagre uka' }).click();
      await page.getByRole('status').filter({ hasText: 'Uka er lagret.' }).waitFor();
      await proposal.waitFor({ state: 'detached' });
      const saved = (await k.client.get(`${base}/plans/${plan.id}`)).json as { days: { date: string; recipeId: string | null; recipeTitle: string | null }[] };
      expect(saved.days.map((d) => [d.date, d.recipeId])).to.deep.equal([...Array(7).keys()].map((i) => {
        const date = addDays(monday, i);
        return [date, kept.has(date) ? ids.get(kept.get(date)!)! : null];
      }));
      // The week, read again, shows what was saved.
      // (Read as text: on a phone, Tuesday may be among the days before today, folded away.)
      const tuesdayDish = page.locator('li.day').filter({ has: page.locator(`#day-${tuesday}-h`) }).locator('.dish');
      for (let i = 0; i < 50 && (await tuesdayDish.textContent()) !== 'Omelett'; i++) await page.waitForTimeout(100);
      expect(await tuesdayDish.textContent()).to.equal('Omelett');

      // A Junior sees the week, and no proposal to ask for.
      const junior = await as(m.client);
      await junior.goto(`${suite.server.url}/week/${monday}`);
      await junior.getByText('Omelett').first().waitFor({ state: 'attached' });
      expect(await junior.getByRole('button', { name: 'Foreslå uka' }).count()).to.equal(0);

      // In English, next week: the same screen in the household's language; discarding writes nothing.
      expect((await k.client.patch(base, { language: 'en' })).status).to.equal(200);
      const next = addDays(monday, 7);
      await page.goto(`${suite.server.url}/week/${next}`);
      await page.getByRole('button', { name: 'Suggest the week' }).click();
      const inEnglish = page.getByRole('region', { name: 'Suggestions for the week' });
      const nextTuesday = inEnglish.getByRole('listitem').filter({ has: page.getByRole('heading', { name: dayName(addDays(next, 1), 'en-GB'), exact: true }) });
      await nextTuesday.getByText('Done in 10 min, and the day leaves 20 min to cook.').waitFor();
      await inEnglish.getByRole('status').filter({ hasText: "This month's AI tips are used up; the notes are written by fixed rules." }).waitFor();
      await inEnglish.getByText('Nothing in it is something the guests avoid.').waitFor();
      await checkedShot(page, `planner-proposal-en-${kind.name}`);
      await inEnglish.getByRole('button', { name: 'Discard' }).click();
      await inEnglish.waitFor({ state: 'detached' });
      // The focus goes back to the button that opened the proposal.
      const focused = () => page.evaluate('document.activeElement?.textContent');
      for (let i = 0; i < 20 && (await focused()) !== 'Suggest the week'; i++) await page.waitForTimeout(100);
      expect(await focused()).to.equal('Suggest the week');
      const nextPlan = ((await k.client.get(`${base}/plans?from=${next}&to=${addDays(next, 6)}`)).json as { weekStart: string; days: { recipeId: string | null }[] }[]).find((p) => p.weekStart === next)!;
      expect(nextPlan.days.every((d) => d.recipeId === null)).to.equal(true);

      // The household's settings turn the recipe library on for the suggestions.
      expect((await k.client.get(base)).json.libraryRecipesOn).to.equal(false);
      await page.goto(`${suite.server.url}/settings/household`);
      const settings = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Name, language and dinner' }) });
      await settings.getByLabel('Also suggest recipes from the recipe library').check();
      await settings.getByRole('button', { name: 'Save' }).click();
      await settings.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      expect((await k.client.get(base)).json.libraryRecipesOn).to.equal(true);
    });
  });
}

/**
 * Kari's household with the recipes, this week's plan, and in this week and the next guests who avoid nuts on
 * Wednesday and 20 minutes to cook on Tuesday; Mia joins as a Junior.
 */
async function householdWithAWeek(url: string) {
  const k = await signedInClient(url, 'Kari');
  const h = (await k.client.post('/api/v1/households', { name: 'Hansen' })).json as { id: string };
  const base = `/api/v1/households/${h.id}`;
  const monday = thisMonday();
  const plan = (await k.client.put(`${base}/plans/week/${monday}`)).json as { id: string };
  const ids = new Map<string, string>();
  for (const [title, totalMinutes, lines] of RECIPES) {
    const r = await k.client.post(`${base}/recipes`, {
      title, servings: 4, activeMinutes: null, totalMinutes, steps: [],
      ingredients: lines.map(([displayName, quantity, unit]) => ({ displayName, quantity, unit, optional: false, baseRecipeId: null, reference: null })),
    });
    expect(r.status, title).to.equal(201);
    ids.set(title, r.json.id as string);
  }
  // This week and the next: guests who avoid nuts on Wednesday, 20 minutes to cook on Tuesday.
  for (const week of [monday, addDays(monday, 7)]) {
    const event = { servingTime: null, notes: null, memberAttendance: null };
    const guests = await k.client.post(`${base}/events`, { ...event, date: addDays(week, 2), eventType: 'Guests', availableCookingMinutes: null, guests: [{ guestType: 'Adult', guestCount: 2, dietaryNotes: null, avoids: ['nøtter'] }] });
    expect(guests.status).to.equal(201);
    const football = await k.client.post(`${base}/events`, { ...event, date: addDays(week, 1), eventType: 'Activity', availableCookingMinutes: 20, guests: null });
    expect(football.status).to.equal(201);
  }
  const m = await signedInClient(url, 'Mia');
  const code = (await k.client.post(`${base}/invites`, { role: 'Junior' })).json.code as string;
  expect((await m.client.post('/api/v1/invites/accept', { code })).status).to.equal(200);
  return { k, m, base, monday, plan, ids };
}
