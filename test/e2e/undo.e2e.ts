import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { signedInClient, type Client } from '../support/client.js';
import { databaseKinds } from '../support/databases.js';
import { browserSuite, checkedShot, openWholeWeek, thisMonday } from './browser.js';

/**
 * Nothing lost by one tap: removing a member, an event or a pantry item shows it gone at once with "Angre" for a
 * few seconds, sends nothing until then, and undo brings it back untouched.
 */
for (const kind of databaseKinds()) {
  describe(`the web app in Chromium: undo after taking something away [${kind.name}]`, function () {
    this.timeout(120_000);
    const suite = browserSuite('undo', kind);
    const bar = (page: Page) => page.locator('.undo-bar');

    /** Takes something away, undoes it, checks the service still has it; takes it away again and waits it out. */
    async function undoThenKeep(name: string, page: Page, shows: () => Promise<boolean>, takeAway: () => Promise<void>, said: string | RegExp, stillThere: () => Promise<boolean>) {
      await takeAway();
      await bar(page).getByText(said).waitFor();
      expect(await shows(), 'gone at once').to.equal(false);
      await checkedShot(page, `undo-${name}-${kind.name}`);
      await bar(page).getByRole('button', { name: 'Angre' }).click();
      expect(await shows(), 'back after undo').to.equal(true);
      await page.waitForTimeout(6500);
      expect(await stillThere(), 'nothing was sent').to.equal(true);
      await takeAway();
      await bar(page).getByText(said).waitFor();
      await bar(page).getByText(said).waitFor({ state: 'detached', timeout: 10_000 });
      for (let i = 0; i < 30 && (await stillThere()); i++) await page.waitForTimeout(200);
      expect(await stillThere(), 'sent when the time was up').to.equal(false);
      // The screen reads the household again after the removal; under load that answer (or the live stream's) may
      // come a moment later than the service's own.
      for (let i = 0; i < 30 && (await shows()); i++) await page.waitForTimeout(200);
      expect(await shows(), 'gone for good').to.equal(false);
    }

    it('undoes removing a member, an event and a pantry item, and sends each when the time is up', async () => {
      const kari = await signedInClient(suite.server.url, 'Kari');
      const k: Client = kari.client;
      const h = (await k.post('/api/v1/households', { name: 'Hansen' })).json as { id: string };
      const base = `/api/v1/households/${h.id}`;
      const ola = (await k.post(`${base}/members`, { displayName: 'Ola', role: 'Junior' })).json as { id: string };
      const monday = thisMonday();
      const event = (await k.post(`${base}/events`, { date: monday, eventType: 'EatingOut', servingTime: null, availableCookingMinutes: null, notes: null, guests: null, memberAttendance: null })).json as { id: string };
      expect((await k.post(`${base}/inventory/observations`, { foodKey: 'melk', displayName: 'Melk', observationType: 'Purchased', quantity: 1, unit: 'l' })).status).to.equal(200);
      const page = await suite.page(k);

      await page.goto(`${suite.server.url}/members`);
      const olaRow = page.locator('ul.cards li').filter({ hasText: 'Ola' });
      await olaRow.waitFor();
      const members = async () => ((await k.get(base)).json.members as { id: string }[]).some((x) => x.id === ola.id);
      await undoThenKeep('member', page, async () => (await olaRow.count()) > 0, () => olaRow.getByRole('button', { name: 'Fjern Ola' }).click(), 'Ola er fjernet fra husholdningen.', members);

      await page.goto(`${suite.server.url}/week/${monday}`);
      // On a phone, Monday may be folded away among the days before today.
      await openWholeWeek(page);
      const removeEvent = page.getByRole('button', { name: /^Fjern: / }).first();
      await removeEvent.waitFor();
      const mondayCard = page.locator('li.day').first();
      await mondayCard.getByText('Ingen middag hjemme').waitFor();
      const events = async () => ((await k.get(`${base}/events?from=${monday}&to=${monday}`)).json.items as { id: string }[]).some((x) => x.id === event.id);
      // While the removal waits for "undo", Monday already reads as a day at home.
      const remove = async () => {
        await removeEvent.click();
        await mondayCard.getByRole('button', { name: /^Velg rett for/ }).waitFor();
        expect(await mondayCard.getByText('Ingen middag hjemme').count()).to.equal(0);
      };
      await undoThenKeep('event', page, async () => (await page.getByRole('button', { name: /^Fjern: / }).count()) > 0, remove, /^«.+» er fjernet fra mandag\.$/, events);

      await page.goto(`${suite.server.url}/pantry`);
      const milk = page.locator('li.pantry-row').filter({ hasText: 'Melk' });
      await milk.waitFor();
      const pantry = async () => ((await k.get(`${base}/inventory`)).json.items as { foodKey: string; estimatedQuantity: number }[]).some((r) => r.foodKey === 'melk' && r.estimatedQuantity > 0);
      await undoThenKeep('pantry', page, async () => (await milk.count()) > 0, () => milk.getByRole('button', { name: 'Brukt opp: Melk' }).click(), 'Melk er brukt opp.', pantry);
    });
  });
}
