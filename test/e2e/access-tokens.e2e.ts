import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { Client } from '../support/client.js';
import { databaseKinds } from '../support/databases.js';
import { ownedHousehold } from '../support/household.js';
import { browserSuite, checkedShot, DESKTOP } from './browser.js';

/** The element that has focus: its id, or its text when it has none. */
const focused = (page: Page) => page.evaluate(() => {
  const d = (globalThis as unknown as { document: { activeElement: { id: string; textContent: string | null } | null } }).document;
  return d.activeElement?.id || d.activeElement?.textContent || '';
});

/** A GET as a script would send it, with the token the page showed (and no cookie). */
const scriptGet = (url: string, secret: string) => (path: string) => new Client(url).get(path, { headers: { Authorization: `Bearer ${secret}` } });

/**
 * Personal access tokens in the settings, in a real browser on SQLite and on Postgres: a token made with the keyboard
 * alone (name, household, scope, lifetime), its secret shown once with a copy button and working from a script,
 * listed with its facts and last use, revoked after a question (the script then refused); every refusal said as a
 * sentence, the name's beside its field; in Norwegian and in English; photographed at 390 and 1280 px, with no
 * serious axe-core finding and nothing wider than 360 px.
 */
for (const kind of databaseKinds()) {
  describe(`the web app in Chromium: access tokens [${kind.name}]`, function () {
    this.timeout(120_000);
    const suite = browserSuite('access-tokens', kind);

    it('makes a token with the keyboard, shows its secret once, lists it, and revokes it', async () => {
      const h = await ownedHousehold(suite.server.url, 'Hansen');
      await h.owner.post('/api/v1/households', { name: 'Hytta' });
      const context = await suite.context({ permissions: ['clipboard-read', 'clipboard-write'] });
      await context.addCookies([{ name: 'app_session', value: h.owner.cookie!, url: suite.server.url }]);
      const page = suite.watch(await context.newPage());
      await page.goto(`${suite.server.url}/settings`);
      await page.getByRole('link', { name: 'Tilgangsnøkler', exact: true }).click();
      await page.getByRole('heading', { name: 'Tilgangsnøkler', level: 1 }).waitFor();
      await page.getByText('Du har ingen tilgangsnøkler ennå.').waitFor();
      expect(await page.title()).to.equal('Tilgangsnøkler · Middag');
      await checkedShot(page, `access-tokens-empty-${kind.name}`);

      // The keyboard alone: name, household, scope (arrow keys in the radio group), lifetime, and Enter.
      await page.getByLabel('Hva skal den brukes til?').focus();
      await page.keyboard.type('Kjøkkenskjermen');
      await page.keyboard.press('Tab');
      expect(await focused(page)).to.equal('token-household');
      await page.keyboard.press('Tab');
      await page.keyboard.press('ArrowRight');
      expect(await page.getByLabel('Lese og endre').isChecked()).to.equal(true);
      await page.keyboard.press('Tab');
      expect(await focused(page)).to.equal('token-days');
      await page.getByLabel('Virker i').selectOption({ label: '30 dager' });
      await page.getByLabel('Hva skal den brukes til?').press('Enter');

      await page.getByRole('heading', { name: 'Kopier nøkkelen nå' }).waitFor();
      expect(await focused(page), 'the panel says what happened').to.equal('made-token-h');
      const secret = await page.getByLabel('Nøkkelen «Kjøkkenskjermen»').inputValue();
      expect(secret).to.match(/^dp_pat_[A-Za-z0-9_-]{43}$/);
      await page.getByRole('button', { name: 'Kopier', exact: true }).click();
      await page.getByRole('status').getByText('Kopiert', { exact: true }).waitFor();
      expect(await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText())).to.equal(secret);
      await checkedShot(page, `access-tokens-secret-${kind.name}`);

      // A script with the secret reads the household, and may write (read-write).
      const script = scriptGet(suite.server.url, secret);
      const read = await script(`/api/v1/households/${h.id}`);
      expect(read.status, read.text).to.equal(200);

      await page.getByRole('button', { name: 'Ferdig, skjul nøkkelen' }).click();
      await page.reload();
      const row = page.locator('.tokens li', { hasText: 'Kjøkkenskjermen' });
      await row.waitFor();
      const facts = await row.locator('.reason').textContent();
      expect(facts).to.include('Hansen · Lese og endre · laget').and.include('virker til').and.include('sist brukt');
      expect(await page.getByText(secret).count(), 'the secret is never shown again').to.equal(0);
      await checkedShot(page, `access-tokens-list-${kind.name}`);

      // Revoking asks first; then the row goes, focus is on the list's heading, and the script is refused.
      await row.getByRole('button', { name: 'Trekk tilbake «Kjøkkenskjermen»' }).click();
      await page.getByRole('alertdialog').getByText('Trekke tilbake «Kjøkkenskjermen»? Det som bruker den, slutter å virke med en gang.').waitFor();
      await checkedShot(page, `access-tokens-revoke-${kind.name}`);
      await page.getByRole('button', { name: 'Ja, trekk tilbake' }).click();
      await page.getByRole('status').getByText('«Kjøkkenskjermen» er trukket tilbake.').waitFor();
      await page.getByText('Du har ingen tilgangsnøkler ennå.').waitFor();
      expect(await focused(page)).to.equal('tokens-h');
      expect((await script(`/api/v1/households/${h.id}`)).json.code).to.equal('token_invalid');
    });

    it('says every refusal as a sentence: a name of spaces beside its field, the limit of live tokens, a token revoked elsewhere', async () => {
      const h = await ownedHousehold(suite.server.url, 'Hansen');
      const page = await suite.page(h.owner);
      await page.goto(`${suite.server.url}/settings/tokens`);
      await page.getByText('Du har ingen tilgangsnøkler ennå.').waitFor();

      await page.getByLabel('Hva skal den brukes til?').fill('   ');
      await page.getByRole('button', { name: 'Lag nøkkel' }).click();
      const name = page.getByLabel('Hva skal den brukes til?');
      await page.getByText('Skriv hva nøkkelen er til, med høyst 80 tegn.').waitFor();
      expect(await name.getAttribute('aria-invalid')).to.equal('true');
      expect(await name.getAttribute('aria-describedby')).to.include('f-token-name-err');

      // A token revoked elsewhere (another tab) while this page shows it.
      const made = (await h.owner.post('/api/v1/me/access-tokens', { name: 'Gammel', householdId: h.id, scope: 'read' })).json;
      await page.reload();
      const row = page.locator('.tokens li', { hasText: 'Gammel' });
      await row.getByRole('button', { name: 'Trekk tilbake «Gammel»' }).click();
      expect((await h.owner.delete(`/api/v1/me/access-tokens/${made.token.id}`)).status).to.equal(204);
      await page.getByRole('button', { name: 'Ja, trekk tilbake' }).click();
      await page.getByRole('alert').getByText('Den nøkkelen er allerede trukket tilbake. Lista viser nøklene slik de er nå.').waitFor();
      await page.getByText('Du har ingen tilgangsnøkler ennå.').waitFor();

      for (let i = 0; i < 20; i++) await h.owner.post('/api/v1/me/access-tokens', { name: `Skript ${i + 1}`, householdId: h.id, scope: 'read' });
      await name.fill('Ett til');
      await page.getByRole('button', { name: 'Lag nøkkel' }).click();
      await page.getByRole('alert').getByText('Du har så mange nøkler som virker som du kan ha (20). Trekk tilbake en du ikke bruker, og prøv igjen.').waitFor();
      await checkedShot(page, `access-tokens-refused-${kind.name}`);
    });

    it('speaks English in an English household, on a desktop', async () => {
      const h = await ownedHousehold(suite.server.url, 'Smith');
      expect((await h.owner.patch(`/api/v1/households/${h.id}`, { language: 'en' })).status).to.equal(200);
      const page = await suite.page(h.owner, { viewport: DESKTOP, locale: 'en-GB' });
      await page.goto(`${suite.server.url}/settings/tokens`);
      await page.getByRole('heading', { name: 'Access tokens', level: 1 }).waitFor();
      await page.getByText('You have no access tokens yet.').waitFor();
      await page.getByLabel('What is it for?').fill('Home Assistant');
      await page.getByLabel('Only read').check();
      await page.getByRole('button', { name: 'Make token' }).click();
      await page.getByRole('heading', { name: 'Copy the token now' }).waitFor();
      await page.getByLabel('The token "Home Assistant"').waitFor();
      await page.getByRole('button', { name: 'Done, hide the token' }).click();
      const facts = await page.locator('.tokens li', { hasText: 'Home Assistant' }).locator('.reason').textContent();
      expect(facts).to.include('Smith · Only read · made').and.include('works until').and.include('not used yet');
      await checkedShot(page, `access-tokens-english-${kind.name}`);
    });
  });
}
