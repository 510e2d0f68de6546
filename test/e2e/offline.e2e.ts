import { expect } from 'chai';
import type { BrowserContext, Page } from 'playwright-core';
import { Client, signedInClient } from '../support/client.js';
import { databaseKinds } from '../support/databases.js';
import { browserSuite, checkedShot, thisMonday } from './browser.js';


/**
 * A shopper in a store with no reception: the app is installed (manifest, service worker), the list and the week
 * open with no network, ticks made offline wait (and say so), survive a reload, and reach the service in order once
 * the network is back, each at most once in effect even when an answer is lost on the way.
 */
for (const kind of databaseKinds()) {
  describe(`the web app in Chromium: offline in the store [${kind.name}]`, function () {
    this.timeout(120_000);
    const suite = browserSuite('offline', kind, { requires: 'sw.js' });
    let context: BrowserContext;
    let page: Page;

    const shot = (name: string) => checkedShot(page, `${name}-${kind.name}`);
    const line = (name: string) => page.locator('ul.items > li').filter({ hasText: name });
    const note = () => page.locator('p.offline-note');

    it('ticks three lines offline, keeps them over a reload, and sends each once when the network is back', async () => {
      const k = await signedInClient(suite.server.url, 'Kari');
      const h = (await k.client.post('/api/v1/households', { name: 'Hansen' })).json as { id: string };
      const base = `/api/v1/households/${h.id}`;
      const plan = (await k.client.put(`${base}/plans/week/${thisMonday()}`)).json as { id: string };
      const names = ['Melk', 'Brød', 'Egg', 'Ost', 'Epler'];
      for (const name of names) expect((await k.client.post(`${base}/plans/${plan.id}/shopping-list/items`, { displayName: name })).status).to.equal(200);

      context = await suite.context();
      await context.addCookies([{ name: 'app_session', value: k.client.cookie!, url: suite.server.url }]);
      page = suite.watch(await context.newPage());
      await page.goto(`${suite.server.url}/list/${plan.id}`);
      await line('Epler').waitFor();
      // Installable: the manifest with its icons, and a service worker that controls the page.
      const manifest = (await (await page.request.get(`${suite.server.url}/manifest.webmanifest`)).json()) as { name: string; display: string; icons: { sizes: string; purpose?: string }[] };
      expect(manifest).to.include({ name: 'Middag', display: 'standalone' });
      expect(manifest.icons.map((i) => `${i.sizes}${i.purpose ? ` ${i.purpose}` : ''}`)).to.include.members(['192x192', '512x512', '512x512 maskable']);
      // (A function, not a string: the page's CSP refuses eval.)
      await page.waitForFunction(() => (globalThis as unknown as { navigator: { serviceWorker: { controller: unknown } } }).navigator.serviceWorker.controller !== null, undefined, { timeout: 15_000 });
      // Read once under the worker, so that it keeps the week and the list.
      await page.goto(suite.server.url);
      await page.getByText('i dag', { exact: true }).waitFor();
      await page.goto(`${suite.server.url}/list/${plan.id}`);
      await line('Epler').waitFor();

      await context.setOffline(true);
      await note().filter({ hasText: 'Frakoblet' }).waitFor();
      for (const name of ['Melk', 'Brød', 'Egg']) await line(name).getByRole('checkbox').click();
      await note().filter({ hasText: 'Frakoblet: 3 endringer venter' }).waitFor();
      await shot('offline-waiting');

      // A reload with no network: the app, the list and the three ticks are all still there; so is the week.
      await page.reload();
      await line('Epler').waitFor();
      for (const name of ['Melk', 'Brød', 'Egg']) expect(await line(name).getByRole('checkbox', { includeHidden: true }).isChecked(), name).to.equal(true);
      for (const name of ['Ost', 'Epler']) expect(await line(name).getByRole('checkbox', { includeHidden: true }).isChecked(), name).to.equal(false);
      await note().filter({ hasText: 'Frakoblet: 3 endringer venter' }).waitFor();
      await page.getByRole('link', { name: 'Uka' }).click();
      await page.getByText('i dag', { exact: true }).waitFor();
      await shot('offline-week');
      await page.goBack();
      await line('Epler').waitFor();

      // Back online. The first tick's answer is lost on the way (the service took it): it is sent again with its
      // key, and the service gives the first answer again instead of ticking twice.
      const replayed: string[] = [];
      page.on('response', (r) => {
        if (r.url().includes('/shopping-items/') && r.headers()['idempotent-replayed'] === 'true') replayed.push(r.url());
      });
      let lose = true;
      await context.route('**/api/v1/households/*/shopping-items/*', async (route) => {
        if (!lose) return route.continue();
        lose = false;
        await route.fetch();
        await route.abort('connectionreset');
      });
      await context.setOffline(false);
      await page.evaluate("window.dispatchEvent(new Event('online'))");
      await note().waitFor({ state: 'hidden', timeout: 30_000 });
      expect(lose, 'the first answer was lost').to.equal(false);
      expect(replayed, 'the lost tick was answered again from its key').to.have.length(1);

      // The service has exactly those three ticks.
      const list = (await k.client.get(`${base}/plans/${plan.id}/shopping-list`)).json as { items: { displayName: string; status: string }[] };
      expect(Object.fromEntries(list.items.map((i) => [i.displayName, i.status]))).to.deep.equal({ Melk: 'Purchased', Brød: 'Purchased', Egg: 'Purchased', Ost: 'Buy', Epler: 'Buy' });
      await shot('offline-back');

      // Signing out forgets the waiting ticks and the kept household data.
      await page.getByRole('button', { name: 'Logg ut' }).click();
      await page.getByRole('heading', { name: 'Logg inn' }).waitFor();
      const kept = await page.evaluate(`(async () => ({
        cache: await caches.has('household-data'),
        ticks: await new Promise((resolve) => {
          const req = indexedDB.open('middag', 1);
          req.onsuccess = () => {
            const count = req.result.transaction('ticks').objectStore('ticks').count();
            count.onsuccess = () => resolve(count.result);
          };
        }),
      }))()`);
      expect(kept).to.deep.equal({ cache: false, ticks: 0 });
      expect((await new Client(suite.server.url).get('/api/v1/me')).status).to.equal(401);
    });
  });
}
