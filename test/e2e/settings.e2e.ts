import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { databaseKinds } from '../support/databases.js';
import { ownedHousehold } from '../support/household.js';
import { browserSuite, checkedShot, PHONE } from './browser.js';

/** Each settings page, its heading, and what shows once the page has read what it holds. */
const PAGES = [
  { path: 'me', name: 'Meg', loaded: (p: Page) => p.getByText('Du har et passord.') },
  { path: 'household', name: 'Husholdningen', loaded: (p: Page) => p.getByText('Husholdningen har gratisplanen.') },
  { path: 'dinners', name: 'Faste middager', loaded: (p: Page) => p.getByText('Dere har ingen regler ennå.') },
  { path: 'stores', name: 'Butikker og priser', loaded: (p: Page) => p.getByRole('heading', { name: 'Handlelista' }) },
  { path: 'calendar', name: 'Kalender', loaded: (p: Page) => p.getByText('Ingen kalendere er lagt til ennå.') },
  { path: 'notifications', name: 'Varsler', loaded: (p: Page) => p.getByRole('main').locator('section > p').first() },
  { path: 'data', name: 'Husholdningens data', loaded: (p: Page) => p.getByRole('link', { name: 'Last ned husholdningen' }) },
  { path: 'tokens', name: 'Tilgangsnøkler', loaded: (p: Page) => p.getByText('Du har ingen tilgangsnøkler ennå.') },
] as const;

/**
 * The settings' pages as their list shows them: each row's name, its line on what is inside, its height, and whether
 * a finger on the middle of the row (below the name) presses its link.
 */
const listed = (p: Page) =>
  p.locator('.link-rows li').evaluateAll((els) =>
    els.map((e) => {
      const box = e.getBoundingClientRect();
      const link = e.querySelector('a');
      const hit = (e.ownerDocument as unknown as { elementFromPoint(x: number, y: number): unknown }).elementFromPoint(box.left + box.width / 2, box.bottom - 4);
      return { name: link?.textContent ?? '', about: e.querySelector('.reason')?.textContent ?? '', height: box.height, pressesLink: hit === link };
    }),
  );

/**
 * The settings as a list of short pages, in a real browser on SQLite and on Postgres: each page opens from the list
 * (a link at least 44 px tall, with a line on what is inside), has its heading, its title and the way back, fits a
 * 360 px phone, is at most two phone screens long, has no serious axe-core finding, and is photographed at 390 and
 * 1280 px. A Junior's list leaves out the stores, and says what she may do on the others.
 */
for (const kind of databaseKinds()) {
  describe(`the web app in Chromium: the settings as short pages [${kind.name}]`, function () {
    this.timeout(120_000);
    const suite = browserSuite('settings', kind);

    it('opens each page from the list, and each is short, fits 360 px and has its way back', async () => {
      const h = await ownedHousehold(suite.server.url, 'Hansen');
      const page = await suite.page(h.owner);
      await page.goto(`${suite.server.url}/settings`);
      await page.getByRole('heading', { name: 'Innstillinger', level: 1 }).waitFor();
      const rows = await listed(page);
      expect(rows.map((r) => r.name)).to.deep.equal(PAGES.map((s) => s.name));
      for (const r of rows) {
        expect(r.height, r.name).to.be.at.least(44);
        expect(r.pressesLink, r.name).to.equal(true);
        expect(r.about, r.name).to.not.equal('');
      }
      expect(await page.title()).to.equal('Innstillinger · Middag');
      await checkedShot(page, `settings-list-${kind.name}`);

      for (const s of PAGES) {
        await page.getByRole('link', { name: s.name, exact: true }).click();
        await page.waitForURL((u) => u.pathname === `/settings/${s.path}`);
        await page.getByRole('heading', { name: s.name, level: 1 }).waitFor();
        await s.loaded(page).waitFor();
        expect(await page.title()).to.equal(`${s.name} · Middag`);
        expect(await page.locator('header a[aria-current="page"]').textContent()).to.equal('Innstillinger');
        const height = await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollHeight: number } } }).document.documentElement.scrollHeight);
        expect(height, `${s.path} at 390 px`).to.be.at.most(2 * PHONE.height);
        await checkedShot(page, `settings-${s.path}-${kind.name}`);
        await page.getByRole('main').getByRole('link', { name: 'Innstillinger' }).click();
        await page.getByRole('heading', { name: 'Innstillinger', level: 1 }).waitFor();
      }
    });

    it("shows a Junior only the pages where she may do something, and what she may do there", async () => {
      const h = await ownedHousehold(suite.server.url, 'Hansen');
      const mia = await h.join('Junior', 'Mia');
      const page = await suite.page(mia.client);
      await page.goto(`${suite.server.url}/settings`);
      await page.getByRole('heading', { name: 'Innstillinger', level: 1 }).waitFor();
      const rows = await listed(page);
      expect(rows.map((r) => r.name)).to.deep.equal(['Meg', 'Husholdningen', 'Faste middager', 'Kalender', 'Varsler', 'Husholdningens data', 'Tilgangsnøkler']);
      expect(rows.find((r) => r.name === 'Husholdningen')!.about).to.equal('Planen, og å forlate husholdningen');
      await checkedShot(page, `settings-list-junior-${kind.name}`);

      // Her household page: the plan and leaving, none of the adults' form.
      await page.getByRole('link', { name: 'Husholdningen', exact: true }).click();
      await page.getByRole('button', { name: 'Forlat Hansen' }).waitFor();
      await page.getByText('Husholdningen har gratisplanen.').waitFor();
      expect(await page.getByLabel('Navn på husholdningen').count()).to.equal(0);
      await checkedShot(page, `settings-household-junior-${kind.name}`);
    });
  });
}
