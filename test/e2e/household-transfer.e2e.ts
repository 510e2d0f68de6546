import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { signedInClient, type Client } from '../support/client.js';
import { databaseKinds } from '../support/databases.js';
import { ownedHousehold } from '../support/household.js';
import { browserSuite, checkedShot } from './browser.js';

const RECIPE = {
  title: 'Fiskesuppe',
  servings: 4,
  activeMinutes: 20,
  totalMinutes: 40,
  steps: ['Kok opp kraften.', 'Legg i fisken.'],
  ingredients: [
    { displayName: 'Torskefilet', quantity: 400, unit: 'g', optional: false, baseRecipeId: null, reference: null },
    { displayName: 'Matfløte', quantity: 3, unit: 'dl', optional: false, baseRecipeId: null, reference: null },
  ],
};

/**
 * A household moved as one file, in a real browser on SQLite and on Postgres: its Owner downloads it from the
 * settings; an Adult of it sees no download, is told a file that is not an export is not one, and makes a new
 * household of the real file, which opens with the recipe in it; a person without a household makes their first
 * one from the file on the page where households are made.
 */
for (const kind of databaseKinds()) {
  describe(`the web app in Chromium: download a household and make a new one from the file [${kind.name}]`, function () {
    this.timeout(120_000);
    const suite = browserSuite('household-transfer', kind);
    let dir: string;
    let page: Page;
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'household-transfer-'));
    });
    after(() => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    });
    const as = (client: Client): Promise<Page> => suite.page(client, { acceptDownloads: true });
    const dataSection = (p: Page) => p.getByRole('main').filter({ has: p.getByRole('heading', { name: 'Husholdningens data', level: 1 }) });

    it('lets the Owner download the household, and an Adult make a new household of the file (and not of another file)', async () => {
      const h = await ownedHousehold(suite.server.url, 'Hansen');
      const made = await h.owner.post(`${h.base}/recipes`, RECIPE);
      expect(made.status, made.text).to.equal(201);
      const adult = await h.join('Adult', 'Per');

      // The Owner: what is in the file, and the download.
      page = await as(h.owner);
      await page.goto(`${suite.server.url}/settings/data`);
      const data = dataSection(page);
      const link = data.getByRole('link', { name: 'Last ned husholdningen' });
      await link.waitFor();
      await data.getByText('Medlemmene står bare med navn, uten e-postadresser eller passord.', { exact: false }).waitFor();
      await checkedShot(page, `household-data-owner-${kind.name}`);
      const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
      expect(download.suggestedFilename()).to.match(/^Hansen-\d{4}-\d{2}-\d{2}\.json$/);
      const file = join(dir, download.suggestedFilename());
      await download.saveAs(file);
      const text = readFileSync(file, 'utf8');
      const doc = JSON.parse(text) as { format: string; version: number; household: { name: string }; recipes: { title: string }[]; members: { displayName: string }[] };
      expect(doc.format).to.equal('dinner-household');
      expect(doc.household.name).to.equal('Hansen');
      expect(doc.recipes.map((r) => r.title)).to.deep.equal(['Fiskesuppe']);
      expect(doc.members.map((m) => m.displayName).sort()).to.deep.equal(['Owner', 'Per']);
      expect(text, 'no e-mail address in the file').to.not.match(/@example\.com/);

      // The Adult: no download, and a sentence saying who can.
      const per = await as(adult.client);
      page = per;
      await per.goto(`${suite.server.url}/settings/data`);
      const perData = dataSection(per);
      await perData.getByText('Bare en eier av husholdningen kan laste den ned.').waitFor();
      expect(await perData.getByRole('link', { name: 'Last ned husholdningen' }).count()).to.equal(0);
      expect(await per.locator('a[download]').count()).to.equal(0);

      // A file that is not an export: said as a sentence, and nothing made.
      const input = perData.getByLabel('Husholdningsfil (.json)');
      const make = perData.getByRole('button', { name: 'Lag husholdningen' });
      await input.setInputFiles({ name: 'hei.json', mimeType: 'application/json', buffer: Buffer.from('{"hello":"world"}') });
      await make.click();
      await perData.getByRole('alert').filter({ hasText: 'Fila er ikke en husholdning lastet ned fra denne tjenesten.' }).waitFor();
      expect((await adult.client.get('/api/v1/me')).json.memberships).to.have.length(1);
      await checkedShot(per, `household-import-refused-${kind.name}`);

      // The real file: a new household, Per its Owner, opened at once with its recipe.
      await input.setInputFiles(file);
      await make.click();
      await perData.getByRole('status').filter({ hasText: 'Husholdningen «Hansen» er laget, og du er eier. Det er den du ser nå.' }).waitFor();
      expect(await perData.getByRole('alert').count(), 'the earlier problem is gone').to.equal(0);
      const memberships = (await adult.client.get('/api/v1/me')).json.memberships as { householdId: string; householdName: string; role: string }[];
      const mine = memberships.find((m) => m.householdId !== h.id)!;
      expect(mine).to.include({ householdName: 'Hansen', role: 'Owner' });
      const recipes = (await adult.client.get(`/api/v1/households/${mine.householdId}/recipes`)).json as { items: { title: string }[] };
      expect(recipes.items.map((r) => r.title)).to.deep.equal(['Fiskesuppe']);
      // The switcher shows the new one, and as its Owner Per may now download it.
      expect(await per.getByRole('combobox', { name: 'Bytt husholdning' }).inputValue()).to.equal(mine.householdId);
      expect(await perData.getByRole('link', { name: 'Last ned husholdningen' }).getAttribute('href')).to.equal(`/api/v1/households/${mine.householdId}/export`);
      await checkedShot(per, `household-imported-${kind.name}`);
      await per.getByRole('link', { name: 'Oppskrifter' }).click();
      await per.getByText('Fiskesuppe').first().waitFor();

      // The household it came from is as it was.
      expect(((await h.owner.get('/api/v1/me')).json.memberships as unknown[]).length).to.equal(1);
    });

    it('makes a first household of the file on the page where a person without one makes it', async () => {
      const h = await ownedHousehold(suite.server.url, 'Berg');
      expect((await h.owner.post(`${h.base}/recipes`, { ...RECIPE, title: 'Lapskaus' })).status).to.equal(201);
      const exported = await h.owner.get(`${h.base}/export`);
      expect(exported.status).to.equal(200);
      const file = join(dir, 'berg.json');
      writeFileSync(file, exported.text);

      const ola = await signedInClient(suite.server.url, 'Ola');
      page = await as(ola.client);
      await page.goto(`${suite.server.url}/`);
      await page.getByRole('heading', { name: 'Lag en husholdning', exact: true }).waitFor();
      const section = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Lag en ny husholdning fra en fil' }) });
      await checkedShot(page, `household-first-from-file-${kind.name}`);
      await section.getByLabel('Husholdningsfil (.json)').setInputFiles(file);
      await section.getByRole('button', { name: 'Lag husholdningen' }).click();
      // The household opens: its name in the bar, and its week.
      await page.locator('header .brand').filter({ hasText: 'Berg' }).waitFor();
      await page.getByRole('navigation', { name: 'Hovedmeny' }).waitFor();
      const memberships = (await ola.client.get('/api/v1/me')).json.memberships as { householdId: string; householdName: string; role: string }[];
      expect(memberships.map((m) => [m.householdName, m.role])).to.deep.equal([['Berg', 'Owner']]);
      await page.getByRole('link', { name: 'Oppskrifter' }).click();
      await page.getByText('Lapskaus').first().waitFor();
    });
  });
}
