import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { schemaUrl } from '../cluster/cluster.js';
import { signedInClient, type Client } from '../support/client.js';
import { databaseKinds } from '../support/databases.js';
import { TEST_RATE_LIMITS } from '../support/server.js';
import { freePort, spawnService, stopProcess, type ServiceProcess } from '../support/service-process.js';
import { openSse, type SseStream } from '../support/sse.js';
import { browserSuite, checkedShot, thisMonday, WEB_DIR } from './browser.js';

/**
 * Two people shop one list, each in a browser of their own, and see each other's ticks within 2 s without
 * reloading. On Postgres each talks to a service process of its own on one database (a tick made through one
 * process reaches the other person through the other, by LISTEN/NOTIFY); on SQLite both use the one process.
 * When the stream drops, the list is read every few seconds instead, and says so.
 */
for (const kind of databaseKinds()) {
  describe(`the web app in Chromium: two shoppers on one list, live [${kind.name}]`, function () {
    this.timeout(120_000);
    // Kari's service (the suite's) and Ola's (on Postgres a process of its own on the suite's database).
    let urls: [string, string];
    let second: ServiceProcess | undefined;
    let dir: string | undefined;
    let kari: Page;
    let ola: Page;
    const extra: SseStream[] = [];
    // Registered before the suite's hooks, so that Ola's process stops before the suite's database is dropped.
    after(async () => {
      for (const s of extra) s.close();
      if (second) await stopProcess(second);
      if (dir) rmSync(dir, { recursive: true, force: true });
    });
    const suite = browserSuite('live', kind);

    before(async function () {
      const { server } = suite;
      if (kind.name !== 'postgres') {
        urls = [server.url, server.url];
        return;
      }
      const { target, schema } = server.database;
      if (target.kind !== 'postgres' || !schema) throw new Error('a Postgres suite database has a URL and a schema');
      dir = mkdtempSync(join(tmpdir(), 'dinner-live-'));
      const port = await freePort();
      second = spawnService(
        {
          DATABASE_URL: schemaUrl(target.url, schema),
          PORT: String(port),
          WEB_DIR,
          OUTBOX_DIR: join(dir, 'outbox'),
          RATE_LIMITS: TEST_RATE_LIMITS,
          PASSWORD_HASH_CPU_PERCENT: '100',
          BUILD_ID: 'live-e2e',
          LOG_LEVEL: 'info',
        },
        'process b',
      );
      await second.logLine((l) => l['msg'] === 'listening');
      urls = [server.url, `http://127.0.0.1:${port}`];
    });
    afterEach(async function () {
      if (this.currentTest?.state === 'failed') {
        for (const [name, p] of [['kari', kari], ['ola', ola]] as const) await p?.screenshot({ path: `test-results/screens/FAILED-live-${name}-${kind.name}.png`, fullPage: true }).catch(() => undefined);
      }
    });

    /** A browser of the person's own, signed in with the session `client` holds, on the list; resolves once its live stream is open. */
    async function shopper(client: Client, url: string, planId: string): Promise<Page> {
      const context = await suite.context();
      await context.addCookies([{ name: 'app_session', value: client.cookie!, url }]);
      const page = await context.newPage();
      const stream = page.waitForResponse((r) => r.url().endsWith('/api/v1/me/changes') && r.status() === 200);
      await page.goto(`${url}/list/${planId}`);
      await page.getByRole('heading', { name: 'Handleliste' }).waitFor();
      await stream;
      return page;
    }
    const line = (page: Page, name: string) => page.locator('ul.items > li').filter({ hasText: name });
    // A ticked line is in the basket, folded away at the end of the list.
    const ticked = (page: Page, name: string) => page.locator('details.basket ul.items > li.done').filter({ hasText: name });
    const shot = (page: Page, name: string) => checkedShot(page, `${name}-${kind.name}`);

    it("shows each shopper the other's ticks and lines within 2 s, and falls back to reading the list every few seconds when the stream drops", async () => {
      // Kari's household, its week and three lines, made through Kari's process; Ola joins through the other.
      const k = await signedInClient(urls[0], 'Kari');
      const h = (await k.client.post('/api/v1/households', { name: 'Hansen' })).json as { id: string };
      const base = `/api/v1/households/${h.id}`;
      const code = (await k.client.post(`${base}/invites`, { role: 'Adult' })).json.code as string;
      const o = await signedInClient(urls[1], 'Ola');
      expect((await o.client.post('/api/v1/invites/accept', { code })).status).to.equal(200);
      const plan = (await k.client.put(`${base}/plans/week/${thisMonday()}`)).json as { id: string };
      for (const name of ['Melk', 'Brød', 'Egg']) expect((await k.client.post(`${base}/plans/${plan.id}/shopping-list/items`, { displayName: name })).status).to.equal(200);

      kari = await shopper(k.client, urls[0], plan.id);
      ola = await shopper(o.client, urls[1], plan.id);
      await line(ola, 'Egg').waitFor();

      // Kari ticks the milk: Ola's list shows it ticked within 2 s, with no reload.
      await line(kari, 'Melk').getByRole('checkbox').click();
      await ticked(ola, 'Melk').waitFor({ state: 'attached', timeout: 2000 });
      await ola.getByText('2 ting å kjøpe').waitFor({ timeout: 2000 });
      // Ola adds coffee and ticks the bread: Kari sees both within 2 s.
      await ola.getByPlaceholder('Legg til en vare').fill('Kaffe');
      await ola.getByRole('button', { name: 'Legg til', exact: true }).click();
      await line(kari, 'Kaffe').waitFor({ timeout: 2000 });
      await line(ola, 'Brød').getByRole('checkbox').click();
      await ticked(kari, 'Brød').waitFor({ state: 'attached', timeout: 2000 });
      await shot(kari, 'live-kari');
      await shot(ola, 'live-ola');

      // Ola's stream drops: four newer streams of the same sign-in on Ola's process end it ("replaced"). The app
      // says so and reads the list every few seconds, revalidating with its ETag.
      for (let i = 0; i < 4; i++) extra.push(await openSse(`${urls[1]}/api/v1/me/changes`, { Cookie: `app_session=${o.client.cookie}` }));
      await ola.getByText('Ingen direkte oppdateringer akkurat nå').waitFor({ timeout: 5000 });
      const revalidated: string[] = [];
      ola.on('request', (r) => {
        if (r.url().endsWith('/shopping-list'))
          void r
            .allHeaders()
            .then((hs) => revalidated.push(hs['if-none-match'] ?? ''))
            .catch(() => undefined);
      });
      await kari.getByText(/^I kurven/).click();
      await line(kari, 'Melk').getByRole('checkbox').click();
      await line(ola, 'Melk').and(ola.locator('li:not(.done)')).waitFor({ timeout: 8000 });
      expect(revalidated.some((tag) => tag.startsWith('W/"')), `If-None-Match sent: ${JSON.stringify(revalidated)}`).to.equal(true);
      await shot(ola, 'live-polling');
    });
  });
}
