import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { signedInClient } from '../support/client.js';
import { databaseKinds } from '../support/databases.js';
import { browserSuite, checkedShot, openWholeWeek, thisMonday } from './browser.js';
import { pictureSite, png } from './pictures.js';

/** A bowl of soup seen from above, on a wooden table: the recipe's picture. */
const SOUP = png(480, 270, (x, y) => {
  const r = Math.hypot(x - 240, y - 135);
  if (r < 80) return [232 - r / 2, 150 - r / 3, 60];
  if (r < 105) return [245, 243, 236];
  return [150 + ((x + 3 * y) % 40), 105 + ((x + 3 * y) % 25), 70];
});

const line = (displayName: string, quantity: number | null, unit: string | null) => ({ displayName, quantity, unit, optional: false, baseRecipeId: null, reference: null });

/** A household (in `language`) with a fish soup of four portions whose steps name minutes; its picture and source when a site is given. */
async function householdWithSoup(url: string, language: 'nb' | 'en', site?: string) {
  const k = await signedInClient(url, 'Kari');
  const h = (await k.client.post('/api/v1/households', { name: 'Hansen', language })).json as { id: string };
  const base = `/api/v1/households/${h.id}`;
  const made = await k.client.post(`${base}/recipes`, {
    title: 'Fiskesuppe',
    servings: 4,
    activeMinutes: 20,
    totalMinutes: 35,
    steps: ['Skjær gulrøttene i biter.', 'Kok opp kraft og fløte, og la det småkoke i 10–12 minutter.', 'Legg i fisken og la den trekke i 1 minutt.', 'Smak til med salt og pepper.'],
    ingredients: [line('torskefilet', 400, 'g'), line('gulrøtter', 2, 'pcs'), line('matfløte', 3, 'dl'), line('salt', null, null)],
    tags: ['hverdag', 'fisk'],
    ...(site ? { sourceUrl: `${site}/fiskesuppe`, imageUrl: `${site}/img/suppe.png` } : {}),
  });
  expect(made.status, made.text).to.equal(201);
  return { k, base, recipe: made.json as { id: string; image: { href: string } | null } };
}

/**
 * A recipe opens to read (picture, times, source, the ingredients scaled to the portions chosen, the steps), and to
 * cook from: a step at a time, by buttons and arrow keys, with the screen kept on and a timer from the step's minutes.
 * An adult's "Rediger" opens the form; a Junior has none.
 */
for (const kind of databaseKinds()) {
  describe(`the web app in Chromium: the cookbook [${kind.name}]`, function () {
    this.timeout(120_000);
    // A site of its own serving the soup's picture (and nothing else), let through the outbound guard so the service
    // fetches it when the recipe is made.
    const site = pictureSite({ '/img/suppe.png': SOUP });
    const suite = browserSuite('cookbook', kind, { env: site.env });
    after(site.close);

    const ingredient = (page: Page, text: string) => page.locator('ul.ingredient-list > li').filter({ hasText: text });

    it('reads a recipe with its picture, doubles the portions, and opens at the portions the address names', async () => {
      const { k, base, recipe } = await householdWithSoup(suite.server.url, 'nb', site.url());
      expect(recipe.image, 'the picture was fetched').to.not.equal(null);
      const page = await suite.page(k.client);
      await page.goto(`${suite.server.url}/recipes/${recipe.id}`);
      await page.getByRole('heading', { name: 'Fiskesuppe', level: 1 }).waitFor();
      // The picture, the times, and the source, opened in a new tab that cannot reach back.
      await page.locator('img.recipe-hero').waitFor();
      expect(await page.locator('img.recipe-hero').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).to.equal(480);
      await page.getByText('Aktiv tid 20 min').waitFor();
      await page.getByText('Tid i alt 35 min').waitFor();
      expect(await page.getByRole('list', { name: 'Merkelapper' }).getByRole('listitem').allTextContents()).to.deep.equal(['hverdag', 'fisk']);
      const source = page.getByRole('link', { name: /127\.0\.0\.1/ });
      expect([await source.getAttribute('target'), await source.getAttribute('rel')]).to.deep.equal(['_blank', 'noopener noreferrer']);
      expect(await source.getAttribute('href')).to.equal(`${site.url()}/fiskesuppe`);
      // The ingredients for four, the steps in order.
      await ingredient(page, '400 g torskefilet').waitFor();
      await ingredient(page, '2 stk gulrøtter').waitFor();
      await ingredient(page, 'salt').waitFor();
      const steps = await page.locator('section.recipe-steps ol > li').allTextContents();
      expect(steps).to.have.length(4);
      expect(steps[1]).to.equal('Kok opp kraft og fløte, og la det småkoke i 10–12 minutter.');
      await checkedShot(page, `recipe-read-${kind.name}`);

      // Twice the portions: every amount doubles; the address keeps the choice.
      const more = page.getByRole('button', { name: 'Flere porsjoner' });
      for (let i = 0; i < 4; i++) await more.click();
      await page.locator('.stepper output').filter({ hasText: '8 porsjoner' }).waitFor();
      await ingredient(page, '800 g torskefilet').waitFor();
      await ingredient(page, '4 stk gulrøtter').waitFor();
      await ingredient(page, '6 dl matfløte').waitFor();
      await page.getByText('Mengdene er regnet om fra 4 porsjoner.').waitFor();
      expect(new URL(page.url()).searchParams.get('portions')).to.equal('8');
      await checkedShot(page, `recipe-read-doubled-${kind.name}`);
      // Not below one portion: the button stays (and keeps the focus) but does nothing more.
      await page.goto(`${suite.server.url}/recipes/${recipe.id}?portions=1`);
      await ingredient(page, '100 g torskefilet').waitFor();
      const fewer = page.getByRole('button', { name: 'Færre porsjoner' });
      expect(await fewer.getAttribute('aria-disabled')).to.equal('true');
      await fewer.focus();
      await page.keyboard.press('Enter');
      await page.locator('.stepper output').filter({ hasText: '1 porsjon' }).waitFor();
      await ingredient(page, '100 g torskefilet').waitFor();
      expect(await fewer.evaluate((b) => b === b.ownerDocument.activeElement)).to.equal(true);
      // An address the week would link with the day's portions; a number out of range is the recipe's own.
      await page.goto(`${suite.server.url}/recipes/${recipe.id}?portions=6`);
      await ingredient(page, '600 g torskefilet').waitFor();
      await ingredient(page, '4,5 dl matfløte').waitFor();
      await page.goto(`${suite.server.url}/recipes/${recipe.id}?portions=500`);
      await ingredient(page, '400 g torskefilet').waitFor();

      // The week links the day's dish at the day's portions (six, set on the day).
      const plan = (await k.client.put(`${base}/plans/week/${thisMonday()}`)).json as { id: string };
      expect((await k.client.put(`${base}/plans/${plan.id}/days/${thisMonday()}`, { recipeId: recipe.id, portions: 6, note: null })).status).to.equal(200);
      await page.goto(`${suite.server.url}/week/${thisMonday()}`);
      // (On a phone, Monday may be folded away among the days before today.)
      await openWholeWeek(page);
      await page.getByRole('link', { name: 'Fiskesuppe' }).click();
      await ingredient(page, '600 g torskefilet').waitFor();
      expect(new URL(page.url()).searchParams.get('portions')).to.equal('6');
    });

    it('cooks step by step by buttons and arrow keys, keeps the screen on, and runs a timer from the step across steps', async () => {
      const { k, recipe } = await householdWithSoup(suite.server.url, 'nb');
      const page = await suite.page(k.client);
      // A wake lock that says when it is asked for and let go, and a vibration that is written down.
      // (A string: the test runner's compiler names inner functions with a helper the page does not have.)
      await page.addInitScript(`
        window.locks = [];
        window.vibrated = 0;
        const request = async () => {
          locks.push('request');
          const lock = new EventTarget();
          lock.released = false;
          lock.release = async () => {
            lock.released = true;
            locks.push('release');
            lock.dispatchEvent(new Event('release'));
          };
          return lock;
        };
        Object.defineProperty(navigator, 'wakeLock', { value: { request }, configurable: true });
        Object.defineProperty(navigator, 'vibrate', { value: () => ((vibrated += 1), true), configurable: true });
      `);
      await page.clock.install();
      await page.goto(`${suite.server.url}/recipes/${recipe.id}?portions=8`);
      await page.getByRole('link', { name: 'Lag mat' }).click();
      await page.getByRole('heading', { name: 'Steg 1 av 4' }).waitFor();
      expect(new URL(page.url()).pathname).to.equal(`/recipes/${recipe.id}/cook`);
      await page.getByText('Skjermen holdes på mens du lager mat.').waitFor();
      expect(await page.evaluate('locks')).to.deep.equal(['request']);
      // The ingredients for the portions chosen, one tap away.
      expect(await ingredient(page, '800 g torskefilet').isVisible()).to.equal(false);
      await page.getByText('Ingredienser, 8 porsjoner').click();
      await ingredient(page, '800 g torskefilet').waitFor();
      await page.getByText('Ingredienser, 8 porsjoner').click();

      // Forward and back, by the buttons and by the keys; not before the first step.
      await page.getByRole('button', { name: 'Neste' }).click();
      await page.getByRole('heading', { name: 'Steg 2 av 4' }).waitFor();
      await page.getByText('Kok opp kraft og fløte, og la det småkoke i 10–12 minutter.').waitFor();
      // A range's first, smaller number.
      await page.getByRole('button', { name: 'Start 10 min' }).waitFor();
      await page.keyboard.press('ArrowRight');
      await page.getByRole('heading', { name: 'Steg 3 av 4' }).waitFor();
      await page.keyboard.press('ArrowLeft');
      await page.getByRole('heading', { name: 'Steg 2 av 4' }).waitFor();
      await page.getByRole('button', { name: 'Forrige' }).click();
      await page.getByRole('heading', { name: 'Steg 1 av 4' }).waitFor();
      expect(await page.getByRole('button', { name: /Start/ }).count(), 'step 1 names no minutes').to.equal(0);
      // On the first step "Forrige" says it is off, keeps the focus, and goes nowhere, nor does ←.
      expect(await page.getByRole('button', { name: 'Forrige' }).getAttribute('aria-disabled')).to.equal('true');
      await page.keyboard.press('Enter');
      await page.keyboard.press('ArrowLeft');
      await page.getByRole('heading', { name: 'Steg 1 av 4' }).waitFor();
      expect(await page.getByRole('button', { name: 'Forrige' }).evaluate((b) => b === b.ownerDocument.activeElement)).to.equal(true);

      // A timer from step 3's minute counts down, keeps running on step 4, and can be stopped.
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await page.getByRole('heading', { name: 'Steg 3 av 4' }).waitFor();
      await page.getByRole('button', { name: 'Start 1 min' }).click();
      const timer = page.locator('li.timer').filter({ hasText: 'Steg 3 · 1 min' });
      await timer.getByRole('timer').filter({ hasText: '01:00' }).waitFor();
      await page.clock.fastForward('00:05');
      await timer.getByRole('timer').filter({ hasText: '00:55' }).waitFor();
      await page.getByRole('button', { name: 'Neste' }).click();
      await page.getByRole('heading', { name: 'Steg 4 av 4' }).waitFor();
      await page.clock.fastForward('00:10');
      await timer.getByRole('timer').filter({ hasText: '00:45' }).waitFor();
      await checkedShot(page, `cook-timer-${kind.name}`);
      await timer.getByRole('button', { name: 'Stopp tidtakeren for steg 3' }).click();
      await timer.waitFor({ state: 'detached' });
      await page.clock.fastForward('01:00');
      expect(await page.evaluate('vibrated'), 'a stopped timer does not ring').to.equal(0);

      // Started again and left to run out: the page says so at once, and the phone vibrates.
      await page.getByRole('button', { name: 'Forrige' }).click();
      await page.getByRole('button', { name: 'Start 1 min' }).click();
      await page.clock.fastForward('01:01');
      await page.getByRole('alert').filter({ hasText: 'Tiden er ute: steg 3 (1 min).' }).waitFor();
      await timer.getByText('Tiden er ute!').waitFor();
      expect(await page.evaluate('vibrated')).to.equal(1);
      await checkedShot(page, `cook-timer-done-${kind.name}`);
      await timer.getByRole('button', { name: 'OK, fjern tidtakeren for steg 3' }).click();
      await timer.waitFor({ state: 'detached' });
      expect(await page.locator('p.timer-alert').textContent(), 'nothing more to say').to.equal('');

      // The last step's button finishes: back to the recipe at the same portions, and the screen may sleep again.
      await page.getByRole('button', { name: 'Neste' }).click();
      await page.getByRole('button', { name: 'Ferdig' }).click();
      await page.getByRole('heading', { name: 'Fiskesuppe', level: 1 }).waitFor();
      await ingredient(page, '800 g torskefilet').waitFor();
      expect(await page.evaluate('locks')).to.deep.equal(['request', 'release']);
    });

    it("opens the form from an adult's Rediger; a Junior reads and cooks without one (in English)", async () => {
      const { k, base, recipe } = await householdWithSoup(suite.server.url, 'en');
      const adult = await suite.page(k.client);
      await adult.goto(`${suite.server.url}/recipes/${recipe.id}`);
      await adult.getByRole('link', { name: 'Edit' }).click();
      await adult.getByLabel('Title').waitFor();
      expect(new URL(adult.url()).pathname).to.equal(`/recipes/${recipe.id}/edit`);
      expect(await adult.getByLabel('Title').inputValue()).to.equal('Fiskesuppe');

      // Mia joins as a Junior through an invite.
      const invite = await k.client.post(`${base}/invites`, { role: 'Junior' });
      expect(invite.status, invite.text).to.equal(201);
      const mia = await signedInClient(suite.server.url, 'Mia');
      const joined = await mia.client.post('/api/v1/invites/accept', { code: (invite.json as { code: string }).code });
      expect(joined.status, joined.text).to.equal(200);
      const junior = await suite.page(mia.client);
      await junior.goto(`${suite.server.url}/recipes/${recipe.id}`);
      await junior.getByRole('heading', { name: 'Fiskesuppe', level: 1 }).waitFor();
      await junior.getByRole('heading', { name: 'Method' }).waitFor();
      await ingredient(junior, '400 g torskefilet').waitFor();
      expect(await junior.getByRole('link', { name: 'Edit' }).count()).to.equal(0);
      await checkedShot(junior, `recipe-read-junior-${kind.name}`);
      await junior.getByRole('link', { name: 'Cook' }).click();
      await junior.getByRole('heading', { name: 'Step 1 of 4' }).waitFor();
      await junior.getByRole('button', { name: 'Next' }).click();
      await junior.getByRole('button', { name: 'Start 10 min' }).waitFor();
      await checkedShot(junior, `cook-junior-${kind.name}`);
      // The form's address shows a Junior the recipe to read, with nothing to save.
      await junior.goto(`${suite.server.url}/recipes/${recipe.id}/edit`);
      await junior.getByRole('heading', { name: 'Method' }).waitFor();
      expect(await junior.getByRole('button', { name: 'Save' }).count()).to.equal(0);
    });
  });
}
