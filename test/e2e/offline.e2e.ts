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

    /** A household with this week's list: the names given, each added by hand through the API. */
    async function listOf(displayNames: string[]) {
      const k = await signedInClient(suite.server.url, 'Kari');
      const h = (await k.client.post('/api/v1/households', { name: 'Hansen' })).json as { id: string };
      const base = `/api/v1/households/${h.id}`;
      const plan = (await k.client.put(`${base}/plans/week/${thisMonday()}`)).json as { id: string };
      for (const displayName of displayNames) expect((await k.client.post(`${base}/plans/${plan.id}/shopping-list/items`, { displayName })).status).to.equal(200);
      const items = async () => ((await k.client.get(`${base}/plans/${plan.id}/shopping-list`)).json as { items: { displayName: string; status: string; requiredQuantity: number; unit: string }[] }).items;
      return { k, base, plan, items };
    }

    it('opens the list from an offline cold start right after the first sign-in; lines added, joined and removed offline reach the service once each', async () => {
      const { k, items } = await listOf(['1 l Melk', 'Brød', 'Servietter']);
      context = await suite.context();
      page = suite.watch(await context.newPage());
      // The first visit, signed in at once, as a password manager does (the form filled and sent as soon as it
      // shows): the person's data is read before the worker controls the page, and is kept all the same.
      await page.goto(suite.server.url);
      await page.getByLabel('E-post').fill(k.email);
      await page.getByLabel('Passord').fill(k.password);
      await page.getByRole('button', { name: 'Logg inn' }).click();
      await page.getByText('i dag', { exact: true }).waitFor();
      await page.waitForFunction(
        async () => {
          const g = globalThis as unknown as { caches: { open(name: string): Promise<{ keys(): Promise<{ url: string }[]> }> }; navigator: { serviceWorker: { controller: { state: string } | null } } };
          const urls = (await (await g.caches.open('household-data')).keys()).map((r) => new URL(r.url).pathname);
          return g.navigator.serviceWorker.controller?.state === 'activated' && urls.includes('/api/v1/me') && urls.some((u) => u.endsWith('/shopping-list'));
        },
        undefined,
        { timeout: 20_000, polling: 250 },
      );

      // A cold start with no network: the app opens signed in, and so does the list (not the sign-in screen). (A
      // navigation in the first moments after a new worker took the page over still goes to the network in
      // Chromium, whatever the worker holds: a shopper opens the app later than that.)
      await page.waitForTimeout(3000);
      await context.setOffline(true);
      await page.reload();
      await page.getByText('i dag', { exact: true }).waitFor();
      await page.goto(`${suite.server.url}/list`);
      await line('Servietter').waitFor();
      await note().filter({ hasText: 'Frakoblet' }).waitFor();

      // Offline: a line added, an amount added to a line already there, a hand-added line removed, and a line
      // added and removed again before it was ever sent.
      for (const text of ['Egg', '2 l melk', 'Kaffe']) {
        await page.locator('#f-item').fill(text);
        await page.locator('#f-item').press('Enter');
        await line(text).waitFor();
      }
      await line('Kaffe').getByRole('button', { name: /Fjern/ }).click();
      await line('Kaffe').waitFor({ state: 'detached' });
      await line('Servietter').getByRole('button', { name: /Fjern/ }).click();
      await line('Servietter').waitFor({ state: 'detached' });
      await note().filter({ hasText: 'Frakoblet: 3 endringer venter' }).waitFor();
      await shot('offline-changes-waiting');

      // A reload with no network keeps them, in order.
      await page.reload();
      await line('2 l melk').waitFor();
      await line('Egg').waitFor();
      expect(await line('Servietter').count()).to.equal(0);
      expect(await line('Kaffe').count()).to.equal(0);
      await note().filter({ hasText: 'Frakoblet: 3 endringer venter' }).waitFor();

      // Back online: each reaches the service once (one Egg, the milk 1 + 2 l, no Servietter, no Kaffe).
      await context.setOffline(false);
      await page.evaluate("window.dispatchEvent(new Event('online'))");
      await note().waitFor({ state: 'hidden', timeout: 30_000 });
      const after = await items();
      expect(after.map((i) => i.displayName).sort()).to.deep.equal(['Brød', 'Egg', 'Melk']);
      expect(after.find((i) => i.displayName === 'Melk')).to.include({ requiredQuantity: 3, unit: 'l' });
      await line('Egg').waitFor();
      expect(await line('Servietter').count()).to.equal(0);
      await shot('offline-changes-sent');
    });

    it('an amount changed offline (1 l of 2 l melk in the basket) shows at once, survives a reload, and is sent once', async () => {
      const { k, plan, items } = await listOf(['2 l melk', 'Brød']);
      context = await suite.context();
      await context.addCookies([{ name: 'app_session', value: k.client.cookie!, url: suite.server.url }]);
      page = suite.watch(await context.newPage());
      await page.goto(`${suite.server.url}/list/${plan.id}`);
      await line('melk').waitFor();
      await page.waitForFunction(() => (globalThis as unknown as { navigator: { serviceWorker: { controller: unknown } } }).navigator.serviceWorker.controller !== null, undefined, { timeout: 15_000 });
      // Read once under the worker, so that it keeps the list.
      await page.goto(`${suite.server.url}/list/${plan.id}`);
      await line('melk').waitFor();
      // The amounts that reached the service (a request the closed network refused has no answer).
      const patches: string[] = [];
      page.on('response', (r) => {
        if (r.request().method() === 'PATCH' && r.url().includes('/shopping-items/')) patches.push(r.url());
      });
      /** Waits until the keyboard is on the element whose id or aria-label `what` matches (a focus moves after a render). */
      const focusOn = (what: RegExp) =>
        page.waitForFunction(
          (source) => {
            const at = (globalThis as unknown as { document: { activeElement: { id: string; getAttribute(name: string): string | null } | null } }).document.activeElement;
            return new RegExp(source, 'i').test(at?.id || at?.getAttribute('aria-label') || '');
          },
          what.source,
          { timeout: 5000 },
        );

      await context.setOffline(true);
      await note().filter({ hasText: 'Frakoblet' }).waitFor();
      const opener = line('melk').getByRole('button', { name: /^Endre mengde: melk$/i });
      const field = line('melk').getByRole('textbox');

      // Escape closes the form unchanged, and focus goes back to the button that opened it.
      await opener.click();
      await focusOn(/^amount-/);
      await page.keyboard.press('Escape');
      await field.waitFor({ state: 'detached' });
      await focusOn(/^Endre mengde: melk$/);

      // A value that is no amount gets a sentence, and nothing is sent or kept.
      await opener.click();
      await field.fill('0');
      await field.press('Enter');
      await line('melk').getByRole('alert').filter({ hasText: 'Skriv en mengde over 0 og høyst 100 000' }).waitFor();
      expect(await field.getAttribute('aria-invalid')).to.equal('true');
      expect(await note().textContent()).to.not.match(/venter/);
      await shot('offline-amount-invalid');

      // 1 l of 2 l, written as a shopper writes it: the line stays to buy, with the rest and what is in the basket.
      await field.fill('1,0');
      await shot('offline-amount-editor');
      await line('melk').getByRole('button', { name: 'Lagre' }).click();
      await field.waitFor({ state: 'detached' });
      await line('melk').filter({ hasText: '+1 l' }).filter({ hasText: '1 l i kurven' }).waitFor();
      expect(await line('melk').getByRole('checkbox').isChecked()).to.equal(false);
      await focusOn(/^Endre mengde: melk$/);
      await note().filter({ hasText: 'Frakoblet: 1 endring venter' }).waitFor();
      await page.getByRole('status').filter({ hasText: '2 ting å kjøpe' }).waitFor();
      await shot('offline-amount-waiting');

      // A reload with no network keeps it.
      await page.reload();
      await line('melk').filter({ hasText: '1 l i kurven' }).waitFor();
      expect(await line('melk').getByRole('checkbox', { includeHidden: true }).isChecked()).to.equal(false);
      await note().filter({ hasText: 'Frakoblet: 1 endring venter' }).waitFor();
      expect(patches, 'nothing sent while offline').to.deep.equal([]);

      // Back online: sent once, and the service holds 1 l in the basket with the line still to buy.
      await context.setOffline(false);
      await page.evaluate("window.dispatchEvent(new Event('online'))");
      await note().waitFor({ state: 'hidden', timeout: 30_000 });
      const milk = (await items()).find((i) => /melk/i.test(i.displayName)) as unknown as { status: string; purchasedQuantity: number; remainingQuantity: number; unit: string };
      expect(milk).to.include({ status: 'Buy', purchasedQuantity: 1, remainingQuantity: 1, unit: 'l' });
      expect(patches, 'the amount was sent once').to.have.length(1);
      await line('melk').filter({ hasText: '+1 l' }).filter({ hasText: '1 l i kurven' }).waitFor();

      // An amount that is all a line needs buys it: into the basket, and the keyboard goes on to the line beside it.
      await line('Brød').getByRole('button', { name: 'Endre mengde: Brød' }).click();
      await line('Brød').getByRole('textbox').fill('1');
      const answered = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().includes('/shopping-items/'));
      await line('Brød').getByRole('textbox').press('Enter');
      await page.locator('details.basket ul.items > li').filter({ hasText: 'Brød' }).waitFor({ state: 'attached' });
      await focusOn(/^tick-/);
      await page.getByRole('status').filter({ hasText: '1 ting å kjøpe' }).waitFor();
      expect((await answered).status()).to.equal(200);
      expect((await items()).find((i) => i.displayName === 'Brød')?.status).to.equal('Purchased');
    });

    it('a list read sent before a tick is answered, and answered after it, never shows the tick undone', async () => {
      const { k, base, plan, items } = await listOf(['Brød', 'Ost']);
      context = await suite.context();
      await context.addCookies([{ name: 'app_session', value: k.client.cookie!, url: suite.server.url }]);
      page = suite.watch(await context.newPage());
      await page.goto(`${suite.server.url}/list/${plan.id}`);
      await line('Ost').waitFor();
      await page.waitForTimeout(500);

      // The next list read is answered by the service at once, but reaches the page only 1.5 s later.
      let sent!: () => void;
      const readSent = new Promise<void>((resolve) => (sent = resolve));
      let delay = true;
      await context.route('**/shopping-list', async (route) => {
        if (!delay || route.request().method() !== 'GET') return route.continue();
        delay = false;
        const response = await route.fetch();
        sent();
        await new Promise((r) => setTimeout(r, 1500));
        await route.fulfill({ response });
      });
      // Another member's change makes the page read the list; while that read is on its way, Brød is ticked.
      expect((await k.client.post(`${base}/plans/${plan.id}/shopping-list/items`, { displayName: 'Epler' })).status).to.equal(200);
      await readSent;
      await line('Brød').getByRole('checkbox').click();
      const seen: boolean[] = [];
      for (let n = 0; n < 30; n++) {
        seen.push(await line('Brød').getByRole('checkbox', { includeHidden: true }).isChecked());
        await page.waitForTimeout(100);
      }
      expect(seen.every(Boolean), `Brød as shown every 100 ms: ${seen.join(' ')}`).to.equal(true);
      await line('Epler').waitFor();
      expect((await items()).find((i) => i.displayName === 'Brød')?.status).to.equal('Purchased');
    });
  });
}
