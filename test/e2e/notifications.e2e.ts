import { createECDH, randomBytes } from 'node:crypto';
import { expect } from 'chai';
import type { BrowserContext, Page } from 'playwright-core';
import webpush from 'web-push';
import { webPushPayload } from '../../adapters/push/webpush.js';
import { signedInClient } from '../support/client.js';
import { databaseKinds } from '../support/databases.js';
import { browserSuite, checkedShot, thisMonday } from './browser.js';

/**
 * Pushes to the browser: the settings screen subscribes it as a device of the person's login (platform web), sets
 * the device's switches and unsubscribes it; a push delivered to the app's service worker through Chromium's
 * DevTools protocol (ServiceWorker.deliverPushMessage), in the service's own payload format, shows a notification.
 *
 * The browser's own push service (Google's, for Chromium) is out of reach here, so PushManager's subscribe hands out
 * a subscription of the shape FCM gives, with a real P-256 key; everything after that is the browser's own.
 */
for (const kind of databaseKinds()) {
  describe(`the web app in Chromium: notifications on this device [${kind.name}]`, function () {
    this.timeout(120_000);
    const vapid = webpush.generateVAPIDKeys();
    const suite = browserSuite('notifications', kind, {
      requires: 'push.js',
      env: { VAPID_PUBLIC_KEY: vapid.publicKey, VAPID_PRIVATE_KEY: vapid.privateKey, VAPID_SUBJECT: 'mailto:ops@dinner.example' },
    });
    let context: BrowserContext;
    let page: Page;

    it('subscribes this browser, keeps its switches, shows a push the service worker receives, and unsubscribes', async () => {
      const k = await signedInClient(suite.server.url, 'Kari');
      const h = (await k.client.post('/api/v1/households', { name: 'Hansen' })).json as { id: string };
      const plan = (await k.client.put(`/api/v1/households/${h.id}/plans/week/${thisMonday()}`)).json as { id: string };

      context = await suite.context();
      await context.grantPermissions(['notifications'], { origin: suite.server.url });
      await context.addCookies([{ name: 'app_session', value: k.client.cookie!, url: suite.server.url }]);
      const subscription = {
        endpoint: `https://fcm.googleapis.com/fcm/send/e2e-${randomBytes(8).toString('hex')}`,
        expirationTime: null,
        keys: { p256dh: createECDH('prime256v1').generateKeys('base64url'), auth: randomBytes(16).toString('base64url') },
      };
      // A string, not a function: tsx would name the function's inner arrows with a helper the page does not have.
      await context.addInitScript(`(() => {
        const json = ${JSON.stringify(subscription)};
        let sub = null;
        PushManager.prototype.getSubscription = async () => sub;
        PushManager.prototype.subscribe = async () => {
          sub = { endpoint: json.endpoint, toJSON: () => json, unsubscribe: async () => { sub = null; return true; } };
          return sub;
        };
      })();`);
      page = suite.watch(await context.newPage());
      await page.goto(`${suite.server.url}/settings/notifications`);
      await page.waitForFunction(() => (globalThis as unknown as { navigator: { serviceWorker: { controller: unknown } } }).navigator.serviceWorker.controller !== null, undefined, { timeout: 15_000 });
      const section = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Varsler på denne enheten' }) });

      await section.getByRole('button', { name: 'Slå på varsler her' }).click();
      await section.getByText('Varsler er på for denne enheten.').waitFor();
      const token = JSON.stringify(subscription);
      const device = `/api/v1/me/devices/${encodeURIComponent(token)}`;
      expect((await k.client.get(device)).json).to.include({ platform: 'web', provider: 'webpush', listChanges: true, householdNews: true, reminders: true, runDone: true });

      // A switch turned off here is off on the service.
      await section.getByLabel('Nytt i husholdningen').uncheck();
      await section.getByLabel('Nytt i husholdningen').and(page.locator(':not(:disabled)')).waitFor();
      expect((await k.client.get(device)).json).to.include({ householdNews: false, listChanges: true });
      await checkedShot(page, `notifications-${kind.name}`);

      // A push as the service sends it, delivered to the service worker: it shows the notification.
      const cdp = await context.newCDPSession(page);
      const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
      cdp.on('ServiceWorker.workerRegistrationUpdated', (e: { registrations: typeof registrations }) => registrations.push(...e.registrations));
      await cdp.send('ServiceWorker.enable');
      for (let i = 0; i < 50 && !registrations.some((r) => !r.isDeleted && r.scopeURL === `${suite.server.url}/`); i++) await new Promise((r) => setTimeout(r, 100));
      const registration = registrations.find((r) => !r.isDeleted && r.scopeURL === `${suite.server.url}/`);
      expect(registration, JSON.stringify(registrations)).to.not.equal(undefined);
      const message = { title: 'Hansen', body: 'Ola la til melk på handlelisten', data: { kind: 'list-item-added', householdId: h.id, planId: plan.id }, collapseKey: null };
      await cdp.send('ServiceWorker.deliverPushMessage', { origin: suite.server.url, registrationId: registration!.registrationId, data: JSON.stringify(webPushPayload(message)) });
      let shown: { title: string; body: string; data: unknown }[] = [];
      for (let i = 0; i < 50 && shown.length === 0; i++) {
        shown = (await page.evaluate(
          '(async () => (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body, data: n.data })))()',
        )) as typeof shown;
        if (shown.length === 0) await new Promise((r) => setTimeout(r, 100));
      }
      expect(shown).to.deep.equal([{ title: 'Hansen', body: 'Ola la til melk på handlelisten', data: message.data }]);

      // Turned off: the device is gone from the service.
      await section.getByRole('button', { name: 'Slå av varsler her' }).click();
      await section.getByRole('button', { name: 'Slå på varsler her' }).waitFor();
      expect((await k.client.get(device)).status).to.equal(404);
    });
  });
}
