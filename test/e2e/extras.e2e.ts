import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { signedInClient } from '../support/client.js';
import { databaseKinds } from '../support/databases.js';
import { browserSuite, checkedShot } from './browser.js';

const PICTURE = 'docs/screens/list-asks-phone.png';

/**
 * The rest of what a household and a visitor use: the public dinner-price page and its monthly mail, the waitlist,
 * feedback with a screenshot, the household's store chains, and its plan with the referral codes Plus brings.
 */
for (const kind of databaseKinds()) {
  describe(`the web app in Chromium: dinner prices, waitlist, feedback, chains and plan [${kind.name}]`, function () {
    this.timeout(120_000);
    const providers = JSON.stringify([{ scheme: 'google', displayName: 'Google', issuer: 'https://accounts.example.com', clientId: 'dinner', clientSecret: 'secret' }]);
    // The service's clock: March 2026 measured week by week, then published on the first of April.
    const suite = browserSuite('extras', kind, {
      mail: true,
      now: new Date('2026-03-02T04:00:00.000Z'),
      keepTime: true,
      env: { ADMIN_EMAILS: 'ops@dinner.example', AUTH_PROVIDERS: providers },
    });
    const { server } = suite;
    const { clock, runJob } = server;
    let page: Page;
    const fresh = () => suite.context();

    it('lets a visitor read the dinner prices, sign up for their mail and join the waitlist, without an account', async () => {
      for (let week = 0; week < 5; week++) {
        clock.set(new Date(Date.parse('2026-03-02T04:00:00.000Z') + week * 7 * 86_400_000));
        await runJob('measure-dinner-prices');
      }
      clock.set(new Date('2026-04-01T04:00:00.000Z'));
      await runJob('publish-dinner-prices');
      page = suite.watch(await (await fresh()).newPage());
      await page.goto(`${server.url}/sign-in`);
      await page.getByRole('link', { name: 'Middagspriser' }).click();
      await page.getByRole('heading', { name: 'Middagspriser' }).waitFor();
      const march = page.locator('section').filter({ has: page.getByRole('heading', { name: 'mars 2026' }) });
      for (const type of ['Én voksen', 'To voksne', 'To voksne og to barn']) await march.getByRole('rowheader', { name: type, exact: true }).waitFor();
      const published = (await (await fetch(`${server.url}/api/v1/data/dinner-prices.json`)).json()) as { months: { householdType: string; medianWeekPrice: number }[] };
      const family = published.months.find((r) => r.householdType === 'family')!;
      const kr = new Intl.NumberFormat('nb-NO', { style: 'currency', currency: 'NOK', maximumFractionDigits: 0 }).format(family.medianWeekPrice);
      expect(await march.getByRole('row', { name: /To voksne og to barn/ }).getByRole('cell').first().innerText()).to.equal(kr);
      const email = `visitor.${Date.now()}.${kind.name}@example.com`;
      await page.getByRole('textbox', { name: 'E-post' }).fill(email);
      await page.getByRole('button', { name: 'Meld meg på' }).click();
      await page.getByRole('status').filter({ hasText: 'Sjekk e-posten din' }).waitFor();
      expect((await server.smtp.waitFor(email)).text).to.match(/\/api\/v1\/data\/dinner-prices\/confirm\?token=/);
      await checkedShot(page, `dinner-prices-${kind.name}`);

      await page.goto(`${server.url}/waitlist`);
      await page.getByRole('textbox', { name: 'E-post' }).fill('ikke en adresse@');
      await page.getByRole('button', { name: 'Sett meg på ventelista' }).click();
      await page.getByRole('alert').filter({ hasText: 'Det ser ikke ut som en e-postadresse.' }).waitFor();
      const waiting = `waiting.${Date.now()}.${kind.name}@example.com`;
      await page.getByRole('textbox', { name: 'E-post' }).fill(waiting);
      await page.getByRole('button', { name: 'Sett meg på ventelista' }).click();
      await page.getByRole('status').filter({ hasText: 'Sjekk e-posten din' }).waitFor();
      expect((await server.smtp.waitFor(waiting)).text).to.match(/\/api\/v1\/waitlist\/confirm\?token=/);
      await checkedShot(page, `waitlist-${kind.name}`);
    });

    it('sends feedback with a screenshot, picks store chains, and shows the plan and, on Plus, the referral codes', async () => {
      const k = await signedInClient(server.url, 'Kari');
      const h = (await k.client.post('/api/v1/households', { name: 'Hansen' })).json as { id: string };
      const context = await fresh();
      await context.addCookies([{ name: 'app_session', value: k.client.cookie!, url: server.url }]);
      page = suite.watch(await context.newPage());

      // A provider linked earlier (Apple, not configured here: named by its host) can be unlinked, as Kari has a
      // password; Google, configured and not linked, is offered.
      const me = (await k.client.get('/api/v1/me')).json.user.id as string;
      await server.runtime.deps.identities.link({ issuer: 'https://appleid.example.com', subject: `apple-${kind.name}`, accountId: me, email: null, createdAt: clock.now() });
      await page.goto(`${server.url}/settings/me`);
      const signIns = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Slik logger du inn' }) });
      await signIns.getByText('Du har et passord.').waitFor();
      expect(await signIns.getByRole('link', { name: 'Koble til Google' }).getAttribute('href')).to.equal('/api/v1/auth/challenge/google?returnUrl=%2Fsettings%2Fme');
      await signIns.getByRole('button', { name: 'Koble fra appleid.example.com' }).click();
      await signIns.getByText('appleid.example.com').waitFor({ state: 'detached' });
      expect((await k.client.get('/api/v1/me/sign-ins')).json.identities).to.deep.equal([]);
      await page.goto(`${server.url}/settings/household`);
      await page.getByText('Husholdningen har gratisplanen.').waitFor();
      await page.goto(`${server.url}/settings/stores`);
      const chains = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Butikkjeder dere handler i' }) });
      const first = chains.getByRole('checkbox').first();
      const chain = (await chains.locator('label.check').first().innerText()).trim();
      await first.check();
      await first.and(page.locator(':not(:disabled)')).waitFor();
      expect((await k.client.get(`/api/v1/households/${h.id}`)).json.chains).to.deep.equal([chain]);
      await checkedShot(page, `settings-chains-${kind.name}`);

      // Plus (set as the billing webhook would): the household's referral codes show.
      await server.runtime.db.knex('households').where({ id: h.id }).update({ plan: 'Plus' });
      await page.goto(`${server.url}/settings/household`);
      await page.getByText('Husholdningen har Plus.').waitFor();
      const codes = (await k.client.get(`/api/v1/households/${h.id}/referral-codes`)).json as { code: string }[];
      expect(codes.length).to.be.above(0);
      for (const c of codes) await page.getByText(c.code, { exact: true }).waitFor();

      await page.goto(`${server.url}/settings`);
      await page.getByRole('link', { name: 'Gi tilbakemelding' }).click();
      await page.getByLabel('Hva vil du si?').fill('Handlelista er fin, men jeg savner mørk modus.');
      await page.getByLabel(/Skjermbilde/).setInputFiles(PICTURE);
      await page.getByRole('button', { name: 'Send' }).click();
      await page.getByRole('status').filter({ hasText: 'Takk! Tilbakemeldingen er sendt.' }).waitFor();
      const alert = await server.smtp.waitFor('ops@dinner.example');
      expect(alert.text).to.include('Handlelista er fin, men jeg savner mørk modus.');
      await checkedShot(page, `feedback-${kind.name}`);
    });
  });
}
