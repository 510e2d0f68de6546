import { expect } from 'chai';
import type { BrowserContext, Page } from 'playwright-core';
import { signedInClient } from '../support/client.js';
import { databaseKinds } from '../support/databases.js';
import { browserSuite, checkedShot, thisMonday } from './browser.js';

/**
 * Kari shops with no reception while Ola, online, changes the same lines: when Kari's phone is back, the later action
 * in time wins, and Kari's list says what Ola did in one line.
 */
for (const kind of databaseKinds()) {
  describe(`the web app in Chromium: two shoppers, one offline [${kind.name}]`, function () {
    this.timeout(120_000);
    const suite = browserSuite('offline-conflicts', kind, { requires: 'sw.js' });
    let context: BrowserContext;
    let page: Page;
    const line = (name: string) => page.locator('ul.items > li').filter({ hasText: name });
    const note = () => page.locator('p.offline-note');

    it("Ola's later removal and tick win over Kari's offline tick and removal, and Kari's list says so", async () => {
      const kari = await signedInClient(suite.server.url, 'Kari');
      const ola = await signedInClient(suite.server.url, 'Ola');
      const h = (await kari.client.post('/api/v1/households', { name: 'Hansen' })).json as { id: string };
      const base = `/api/v1/households/${h.id}`;
      const code = (await kari.client.post(`${base}/invites`, { role: 'Adult' })).json.code as string;
      expect((await ola.client.post('/api/v1/invites/accept', { code })).status).to.equal(200);
      const plan = (await kari.client.put(`${base}/plans/week/${thisMonday()}`)).json as { id: string };
      const ids: Record<string, string> = {};
      for (const name of ['Servietter', 'Kaffe', 'Brød']) ids[name] = (await kari.client.post(`${base}/plans/${plan.id}/shopping-list/items`, { displayName: name })).json.id as string;

      context = await suite.context();
      await context.addCookies([{ name: 'app_session', value: kari.client.cookie!, url: suite.server.url }]);
      page = suite.watch(await context.newPage());
      await page.goto(`${suite.server.url}/list/${plan.id}`);
      await line('Brød').waitFor();

      // Kari, offline: ticks the napkins, removes the coffee, ticks the bread.
      await context.setOffline(true);
      await note().filter({ hasText: 'Frakoblet' }).waitFor();
      await line('Servietter').getByRole('checkbox').click();
      await line('Kaffe').getByRole('button', { name: 'Fjern: Kaffe' }).click();
      await line('Brød').getByRole('checkbox').click();
      await note().filter({ hasText: 'Frakoblet: 3 endringer venter' }).waitFor();

      // Then Ola, online: removes the napkins and buys the coffee. Nobody touched the bread.
      await new Promise((r) => setTimeout(r, 1100));
      expect((await ola.client.delete(`${base}/shopping-items/${ids['Servietter']}`)).status).to.equal(204);
      expect((await ola.client.patch(`${base}/shopping-items/${ids['Kaffe']}`, { status: 'Purchased' })).status).to.equal(200);

      await context.setOffline(false);
      await page.evaluate("window.dispatchEvent(new Event('online'))");
      await note().waitFor({ state: 'hidden', timeout: 30_000 });
      // A line each says what Ola did, and the list shows it.
      await page.getByText('Ola fjernet Servietter mens du var frakoblet.').waitFor();
      await page.getByText('Ola la Kaffe i kurven mens du var frakoblet.').waitFor();
      await line('Servietter').waitFor({ state: 'detached' });
      expect(await line('Kaffe').getByRole('checkbox', { includeHidden: true }).isChecked()).to.equal(true);
      expect(await line('Brød').getByRole('checkbox', { includeHidden: true }).isChecked()).to.equal(true);
      await checkedShot(page, `offline-conflict-${kind.name}`);

      const items = ((await kari.client.get(`${base}/plans/${plan.id}/shopping-list`)).json as { items: { displayName: string; status: string }[] }).items;
      expect(Object.fromEntries(items.map((i) => [i.displayName, i.status]))).to.deep.equal({ Kaffe: 'Purchased', Brød: 'Purchased' });
    });
  });
}
