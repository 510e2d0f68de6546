import { expect } from 'chai';
import type { BrowserContext, Page } from 'playwright-core';
import { signedInClient, type Client } from '../support/client.js';
import { databaseKinds } from '../support/databases.js';
import { browserSuite, checkedShot, thisMonday } from './browser.js';

/**
 * Nothing of a person stays on a device once their sign-in has ended, however it ended: the live stream saying
 * `end` `signed-out`, a 401 on an ordinary read, or the app opened again after the sign-in ended while it was
 * closed. Each time the app forgets what Sign out forgets (the household data the service worker kept for offline
 * use, the ticks waiting to be sent, local and session storage), and opened again with no network it shows nobody's
 * household. The sign-in here is revoked from outside, as a password change on another device does.
 */
for (const kind of databaseKinds()) {
  describe(`the web app in Chromium: a sign-in that ends elsewhere leaves nothing behind [${kind.name}]`, function () {
    this.timeout(120_000);
    // The stream checks the sign-in again on every heartbeat as well as after writes; a short one bounds how long
    // the service takes to say `end`, which is not what these tests measure.
    const suite = browserSuite('signed-out', kind, { requires: 'sw.js', env: { LIVE_HEARTBEAT_MS: '1000' } });
    let context: BrowserContext | undefined;
    let page: Page | undefined;

    interface Person {
      readonly client: Client;
      readonly email: string;
      readonly password: string;
      readonly householdName: string;
      readonly householdId: string;
      readonly planId: string;
    }

    /** An account with a household of its own, this week's plan and a short list, made through the API. */
    async function person(householdName: string): Promise<Person> {
      const p = await signedInClient(suite.server.url, 'Kari');
      const h = (await p.client.post('/api/v1/households', { name: householdName })).json as { id: string };
      const base = `/api/v1/households/${h.id}`;
      const plan = (await p.client.put(`${base}/plans/week/${thisMonday()}`)).json as { id: string };
      for (const name of ['Melk', 'Brød', 'Egg']) expect((await p.client.post(`${base}/plans/${plan.id}/shopping-list/items`, { displayName: name })).status).to.equal(200);
      return { ...p, householdName, householdId: h.id, planId: plan.id };
    }

    const line = (name: string) => page!.locator('ul.items > li').filter({ hasText: name });
    const signInHeading = () => page!.getByRole('heading', { name: 'Logg inn' });

    /**
     * Signs in through the form in a browser of its own (a session of its own, which the API client's can revoke),
     * and reads the week and the list under the service worker so that it keeps them for offline use. Without
     * `stream`, the network refuses the live stream from the start, and the list reads itself every few seconds.
     */
    async function signInAndRead(p: Person, { stream }: { stream: boolean }): Promise<void> {
      context = await suite.context();
      if (!stream) await context.route(/\/api\/v1\/me\/changes$/, (route) => route.abort());
      page = suite.watch(await context.newPage());
      await page.goto(`${suite.server.url}/sign-in`);
      await signInHeading().waitFor();
      // A wrong password is a 401 too, but it ends no sign-in: nothing is forgotten, and the form keeps what was typed.
      await page.evaluate("sessionStorage.setItem('typed', 'yes')");
      await page.getByLabel('E-post').fill(p.email);
      await page.getByLabel('Passord').fill('not the password');
      await page.getByRole('button', { name: 'Logg inn' }).click();
      await page.getByText('E-post eller passord stemmer ikke.').waitFor();
      expect(await page.evaluate("sessionStorage.getItem('typed')")).to.equal('yes');
      expect(await page.getByLabel('E-post').inputValue()).to.equal(p.email);
      await page.getByLabel('Passord').fill(p.password);
      await page.getByRole('button', { name: 'Logg inn' }).click();
      await page.getByText('i dag', { exact: true }).waitFor();
      // (A function, not a string: the page's CSP refuses eval.)
      await page.waitForFunction(() => (globalThis as unknown as { navigator: { serviceWorker: { controller: unknown } } }).navigator.serviceWorker.controller !== null, undefined, { timeout: 15_000 });
      await page.goto(suite.server.url);
      await page.getByText('i dag', { exact: true }).waitFor();
      const open = stream ? page.waitForResponse((r) => r.url().endsWith('/api/v1/me/changes') && r.status() === 200) : null;
      await page.goto(`${suite.server.url}/list/${p.planId}`);
      await line('Egg').waitFor();
      if (open) await open;
      else await page.getByText('Ingen direkte oppdateringer').waitFor();
      // Something of the app's in each kind of storage, so that emptying each is seen.
      await page.evaluate("sessionStorage.setItem('draft', 'Melk')");
      const before = await kept(p);
      expect(before.apiAnswers, 'the service worker kept the household data').to.include.members(['/api/v1/me', `/api/v1/households/${p.householdId}`, `/api/v1/households/${p.householdId}/plans/${p.planId}/shopping-list`]);
      expect(before.mentions, 'the kept answers name the person').not.to.deep.equal([]);
      expect(before.expiryNotes, 'Workbox noted when it kept them').to.be.greaterThan(0);
      expect(before.local, 'localStorage holds something').to.be.greaterThan(0);
    }

    interface Kept {
      /** Paths of every kept answer under /api/, in any cache. */
      readonly apiAnswers: string[];
      /** Kept answers of any path whose body names the person's e-mail or household. */
      readonly mentions: string[];
      readonly local: number;
      readonly session: number;
      readonly ticks: number;
      /** Workbox's notes of when it kept each answer (their addresses name the household and its weeks). */
      readonly expiryNotes: number;
    }

    /** What this browser keeps: Cache Storage, local and session storage, the offline queue in IndexedDB. */
    async function kept(p: Person): Promise<Kept> {
      // A string, not a function: the test runner's compiler may wrap functions in helpers the page does not have.
      return (await page!.evaluate(`(async () => {
        const secrets = ${JSON.stringify([p.email, p.householdName])};
        const apiAnswers = [];
        const mentions = [];
        for (const name of await caches.keys()) {
          const cache = await caches.open(name);
          for (const request of await cache.keys()) {
            const path = new URL(request.url).pathname;
            if (path.startsWith('/api/')) apiAnswers.push(path);
            const answer = await cache.match(request);
            const text = answer ? await answer.text() : '';
            if (secrets.some((s) => text.includes(s))) mentions.push(name + ' ' + path);
          }
        }
        // How many entries a store of a database holds (0 when either is missing; never made by asking).
        const count = async (dbName, storeName) =>
          (await indexedDB.databases()).some((d) => d.name === dbName)
            ? new Promise((resolve, reject) => {
                const open = indexedDB.open(dbName);
                open.onerror = () => reject(open.error);
                open.onsuccess = () => {
                  const db = open.result;
                  if (!db.objectStoreNames.contains(storeName)) {
                    db.close();
                    return resolve(0);
                  }
                  const req = db.transaction(storeName).objectStore(storeName).count();
                  req.onsuccess = () => {
                    db.close();
                    resolve(req.result);
                  };
                };
              })
            : 0;
        const ticks = await count('middag', 'ticks');
        const expiryNotes = await count('workbox-expiration', 'cache-entries');
        return { apiAnswers, mentions, local: localStorage.length, session: sessionStorage.length, ticks, expiryNotes };
      })()`)) as Kept;
    }

    /** Nothing kept: asked again for a few seconds, since forgetting ends a moment after the screen has changed. */
    async function expectNothingKept(p: Person): Promise<void> {
      const deadline = Date.now() + 5000;
      let now = await kept(p);
      while (Date.now() < deadline && (now.apiAnswers.length || now.mentions.length || now.local || now.session || now.ticks || now.expiryNotes)) {
        await new Promise((r) => setTimeout(r, 200));
        now = await kept(p);
      }
      expect(now).to.deep.equal({ apiAnswers: [], mentions: [], local: 0, session: 0, ticks: 0, expiryNotes: 0 });
    }

    /** Opened again with no network: the app itself opens (its shell stays kept), asks to sign in and shows no one's data. */
    async function expectNobodyOffline(p: Person, shot: string): Promise<void> {
      await context!.setOffline(true);
      await page!.goto(suite.server.url);
      await signInHeading().waitFor();
      const text = await page!.locator('body').innerText();
      expect(text).not.to.include(p.householdName);
      expect(text).not.to.include(p.email);
      expect(text).not.to.include('Melk');
      await checkedShot(page!, `${shot}-${kind.name}`);
    }

    /** Revokes every other session of the account, as a password change on another device does. */
    async function revokeElsewhere(p: Person): Promise<void> {
      const changed = await p.client.post('/api/v1/me/password', { currentPassword: p.password, newPassword: `${p.password} and a staple ${Date.now()}` });
      expect(changed.status, changed.text).to.be.oneOf([200, 204]);
    }

    it('drops the household at once when the live stream says end signed-out, and forgets everything it kept', async () => {
      const p = await person('Familien Solberg');
      await signInAndRead(p, { stream: true });

      // From here on every read of the API waits forever (the live stream alone goes through): the page can only
      // learn that the sign-in ended from the stream. A tick made now waits in the offline queue.
      const refused: string[] = [];
      context!.on('response', (r) => {
        if (r.status() === 401) refused.push(r.url());
      });
      await context!.route(/\/api\/(?!v1\/me\/changes$)/, () => undefined);
      await line('Melk').getByRole('checkbox').click();
      await page!.getByText('Sender 1 endring').waitFor();
      expect((await kept(p)).ticks, 'the tick waits in IndexedDB').to.equal(1);
      await checkedShot(page!, `signed-out-before-${kind.name}`);

      await revokeElsewhere(p);
      await signInHeading().waitFor({ timeout: 8000 });
      expect(refused, 'no read was answered 401 before the page left the household').to.deep.equal([]);
      expect(new URL(page!.url()).pathname).to.equal('/sign-in');
      const text = await page!.locator('body').innerText();
      expect(text).not.to.include(p.householdName);
      expect(text).not.to.include('Melk');
      // The sign-in screen says why it is there.
      expect(await page!.getByRole('status').innerText()).to.match(/^Du er logget ut/);
      await expectNothingKept(p);
      await checkedShot(page!, `signed-out-stream-${kind.name}`);

      await context!.unrouteAll({ behavior: 'ignoreErrors' });
      await expectNobodyOffline(p, 'signed-out-stream-offline');
    });

    it('forgets everything when an ordinary read meets the 401 (no live stream)', async () => {
      const p = await person('Familien Berg');
      // No live stream at all: the list reads itself again every few seconds, and that read meets the 401.
      await signInAndRead(p, { stream: false });
      await revokeElsewhere(p);
      await signInHeading().waitFor({ timeout: 15_000 });
      expect(await page!.locator('body').innerText()).not.to.include(p.householdName);
      expect(await page!.getByRole('status').innerText()).to.match(/^Du er logget ut/);
      await expectNothingKept(p);
      await expectNobodyOffline(p, 'signed-out-401-offline');
    });

    it('forgets exactly as much on Sign out', async () => {
      const p = await person('Familien Lie');
      await signInAndRead(p, { stream: true });
      await page!.getByRole('button', { name: 'Logg ut' }).click();
      await signInHeading().waitFor();
      // Signed out here, on purpose: nothing to explain.
      expect(await page!.getByRole('status').count()).to.equal(0);
      await expectNothingKept(p);
      expect((await p.client.get('/api/v1/me')).status, 'Sign out ends every sign-in of the account').to.equal(401);
      await expectNobodyOffline(p, 'signed-out-button-offline');
    });

    it('forgets everything when the app is opened again after the sign-in ended while it was closed', async () => {
      const p = await person('Familien Dahl');
      await signInAndRead(p, { stream: true });
      await page!.goto('about:blank');
      await revokeElsewhere(p);
      await page!.goto(suite.server.url);
      await signInHeading().waitFor();
      await expectNothingKept(p);
      await expectNobodyOffline(p, 'signed-out-reopened-offline');
    });
  });
}
