import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { signedInClient, type Client } from '../support/client.js';
import { databaseKinds } from '../support/databases.js';
import { browserSuite, checkedShot, thisMonday } from './browser.js';

/**
 * The pantry's tools and the household's calendars, as an adult and as a Junior: merge suggestions answered yes and
 * no, a merge split again, a unit weight, the archive, clearing a place; an ICS calendar added, one the outbound guard
 * refuses (said as a sentence), a phone's calendar listed, a feed removed. The Junior sees none of the adults' actions.
 */
for (const kind of databaseKinds()) {
  describe(`the web app in Chromium: pantry tools and calendars [${kind.name}]`, function () {
    this.timeout(120_000);
    const suite = browserSuite('pantry-calendar', kind);
    let page: Page;
    const as = (client: Client): Promise<Page> => suite.page(client);

    it('lets an adult answer merge suggestions, keep unit weights, read the archive, clear a place and manage calendars; a Junior only reads', async () => {
      const k = await signedInClient(suite.server.url, 'Kari');
      const h = (await k.client.post('/api/v1/households', { name: 'Hansen' })).json as { id: string };
      const base = `/api/v1/households/${h.id}`;
      for (const [displayName, storageLocation] of [['Tomater', 'Fridge'], ['Cherrytomater', 'Fridge'], ['Ris', 'Pantry'], ['Basmatiris', 'Pantry']] as const) {
        expect((await k.client.post(`${base}/inventory/observations`, { displayName, observationType: 'Purchased', quantity: 1, unit: 'stk', storageLocation })).status).to.equal(200);
      }
      const m = await signedInClient(suite.server.url, 'Mia');
      const code = (await k.client.post(`${base}/invites`, { role: 'Junior' })).json.code as string;
      expect((await m.client.post('/api/v1/invites/accept', { code })).status).to.equal(200);
      // Mia's phone sends its calendar.
      expect((await m.client.put(`${base}/calendar-feeds/device`, { deviceKey: 'mias-phone', name: 'Mias telefon', events: [] })).status).to.equal(200);

      page = await as(k.client);
      await page.goto(`${suite.server.url}/pantry`);
      const merges = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Samme vare?' }) });
      // The questions wait below the pantry, folded with their count, instead of greeting the person.
      await merges.getByText('2 spørsmål om varer som kan være den samme').waitFor();
      // (4: Node.DOCUMENT_POSITION_FOLLOWING, named by number: the tests' TypeScript knows no DOM.)
      expect(await page.locator('main section ul.items').first().evaluate((list, q) => Boolean(list.compareDocumentPosition(q as never) & 4), await merges.elementHandle())).to.equal(true);
      await merges.getByText('2 spørsmål om varer som kan være den samme').click();
      await merges.getByText('Er «Basmatiris» og «Ris» det samme?').waitFor();
      await merges.getByText('Er «Cherrytomater» og «Tomater» det samme?').waitFor();
      await checkedShot(page, `pantry-merges-${kind.name}`);
      // Rice: two different things; tomatoes: the same, then split again.
      await merges.locator('li').filter({ hasText: 'Basmatiris' }).getByRole('button', { name: 'Nei, to forskjellige' }).click();
      await merges.getByText('Er «Basmatiris» og «Ris» det samme?').waitFor({ state: 'detached' });
      await merges.locator('li').filter({ hasText: 'Cherrytomater' }).getByRole('button', { name: 'Ja, slå sammen' }).click();
      await merges.getByText('1 vare er slått sammen').click();
      await merges.getByText('«Cherrytomater» regnes som «Tomater»').waitFor();
      expect((await k.client.get(`${base}/inventory/merges`)).json.items.map((g: { fromKey: string; toKey: string }) => [g.fromKey, g.toKey])).to.deep.equal([['cherrytomat', 'tomat']]);
      expect((await k.client.get(`${base}/inventory/merge-rejections`)).json.items.map((r: { keyA: string; keyB: string }) => [r.keyA, r.keyB])).to.deep.equal([['basmatiris', 'ris']]);
      // Split again, the pair counts as two foods from then on (not suggested again), and nothing is left to ask.
      await merges.getByRole('button', { name: 'Del opp igjen: Cherrytomater' }).click();
      await page.getByRole('heading', { name: 'Samme vare?' }).waitFor({ state: 'detached' });
      expect((await k.client.get(`${base}/inventory/merges`)).json.items).to.deep.equal([]);
      expect((await k.client.get(`${base}/inventory/merge-rejections`)).json.items.map((r: { keyA: string; keyB: string }) => [r.keyA, r.keyB]).sort()).to.deep.equal([
        ['basmatiris', 'ris'],
        ['cherrytomat', 'tomat'],
      ]);

      // A unit weight: one onion weighs 150 g here.
      await page.getByText('Vekt per enhet').click();
      await page.getByLabel('Vare', { exact: true }).last().fill('Løk');
      await page.getByLabel('Gram per enhet').fill('150');
      await page.getByRole('button', { name: 'Lagre vekten' }).click();
      await page.getByText('1 stk Løk = 150 g', { exact: true }).waitFor();
      expect((await k.client.get(`${base}/inventory/unit-weights`)).json).to.have.length(1);

      // The archive is a section of its own: nothing there yet.
      await page.getByLabel('Del', { exact: true }).selectOption({ label: 'Arkiv (lenge siden)' });
      await page.getByText('Ingenting i skapet passer søket.').waitFor();
      await page.getByLabel('Del', { exact: true }).selectOption({ label: 'Alle' });

      // Emptying the fridge asks first, then says what went.
      await page.getByText('Tøm et sted').click();
      await page.getByRole('button', { name: 'Tøm kjøleskap …' }).click();
      await page.getByText('Tømme kjøleskap? Alt appen vet om det som er der, blir borte.').waitFor();
      await checkedShot(page, `pantry-tools-${kind.name}`);
      await page.getByRole('button', { name: 'Ja, tøm' }).click();
      await page.getByRole('status').filter({ hasText: 'Kjøleskap er tømt (2 observasjoner fjernet).' }).waitFor();
      const left = (await k.client.get(`${base}/inventory`)).json.items.map((r: { displayName: string }) => r.displayName).sort();
      expect(left).to.deep.equal(['Basmatiris', 'Ris']);

      // Calendars: one the guard refuses, said as a sentence; one added; Mia's phone listed; the ICS one removed.
      await page.goto(`${suite.server.url}/settings/calendar`);
      const feeds = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Kalendere som gjør kvelder opptatt' }) });
      await feeds.getByText('Fra en telefon: 0 avtaler').waitFor();
      await feeds.getByLabel('Navn på kalenderen').fill('Skolen');
      await feeds.getByLabel('Adressen til kalenderen (ICS)').fill('http://192.168.1.20/skole.ics');
      await feeds.getByRole('button', { name: 'Legg til kalenderen' }).click();
      await feeds.getByRole('alert').filter({ hasText: 'Den adressen kan ikke brukes.' }).waitFor();
      await feeds.getByLabel('Adressen til kalenderen (ICS)').fill('https://calendar.example.com/skole.ics');
      await feeds.getByRole('button', { name: 'Legg til kalenderen' }).click();
      // Shown by its host only; this machine has no route to it, so the feed says it could not be read.
      const school = feeds.locator('li').filter({ hasText: 'Skolen' });
      await school.getByText('https://calendar.example.com').waitFor();
      await school.getByText('kunne ikke leses sist').waitFor();
      await checkedShot(page, `calendar-feeds-${kind.name}`);
      // Mia's phone calendar is hers to remove: Kari gets no button for it.
      expect(await feeds.getByRole('button', { name: 'Fjern: Mias telefon' }).count()).to.equal(0);
      await feeds.getByRole('button', { name: 'Fjern: Skolen' }).click();
      await school.waitFor({ state: 'detached' });
      expect((await k.client.get(`${base}/calendar-feeds`)).json.map((f: { name: string }) => f.name)).to.deep.equal(['Mias telefon']);

      // The Junior reads the pantry and the calendars, with none of the adults' actions.
      const junior = await as(m.client);
      await junior.goto(`${suite.server.url}/pantry`);
      await junior.getByText('Basmatiris').first().waitFor();
      expect(await junior.getByRole('heading', { name: 'Samme vare?' }).count()).to.equal(0);
      expect(await junior.getByText('Tøm et sted').count()).to.equal(0);
      await junior.getByText('Vekt per enhet').click();
      await junior.getByText('1 stk Løk = 150 g', { exact: true }).waitFor();
      expect(await junior.getByRole('button', { name: 'Lagre vekten' }).count()).to.equal(0);
      expect(await junior.getByRole('button', { name: /^Fjern: Løk/ }).count()).to.equal(0);
      await checkedShot(junior, `junior-pantry-${kind.name}`);
      await junior.goto(`${suite.server.url}/settings/calendar`);
      const juniorFeeds = junior.locator('section').filter({ has: junior.getByRole('heading', { name: 'Kalendere som gjør kvelder opptatt' }) });
      await juniorFeeds.getByText('Mias telefon').waitFor();
      expect(await juniorFeeds.getByRole('button').count()).to.equal(0);
    });

    it('types in a receipt after the trip, lists it, and offers better choices for a line that is often ultra-processed', async () => {
      const k = await signedInClient(suite.server.url, 'Kari');
      const h = (await k.client.post('/api/v1/households', { name: 'Hansen' })).json as { id: string };
      const base = `/api/v1/households/${h.id}`;
      const monday = thisMonday();
      const plan = (await k.client.put(`${base}/plans/week/${monday}`)).json as { id: string };
      const recipe = (await k.client.post(`${base}/recipes`, {
        title: 'Pølsefest', servings: 4, activeMinutes: null, totalMinutes: null, steps: [],
        ingredients: [{ displayName: 'Grillpølse', quantity: 600, unit: 'g', optional: false, baseRecipeId: null, reference: null }],
      })).json as { id: string };
      expect((await k.client.put(`${base}/plans/${plan.id}/days/${monday}`, { recipeId: recipe.id, portions: 4, note: null })).status).to.equal(200);
      const offered = (await k.client.get(`${base}/plans/${plan.id}/shopping-list/better-choices`)).json as { lines: { productName: string; choices: { productName: string }[] }[] };
      expect(offered.lines).to.have.length(1);

      page = await as(k.client);
      await page.goto(`${suite.server.url}/list/${plan.id}`);
      await page.getByText('Bedre valg').click();
      const instead = page.getByRole('region', { name: `I stedet for ${offered.lines[0]!.productName}` });
      await instead.locator('li').filter({ hasText: offered.lines[0]!.choices[0]!.productName }).first().waitFor();
      await checkedShot(page, `better-choices-${kind.name}`);

      await page.goto(`${suite.server.url}/receipts`);
      await page.getByText('Ingen kvitteringer ennå.').waitFor();
      await page.getByText('Legg inn en kvittering').click();
      await page.getByLabel('Butikk').fill('Kiwi');
      await page.getByLabel('Vare').first().fill('Grillpølse');
      await page.getByLabel('Betalt (kr)').first().fill('49,90');
      await page.getByRole('button', { name: 'En linje til' }).click();
      await page.getByLabel('Vare').nth(1).fill('Lettmelk');
      await page.getByLabel('Antall').nth(1).fill('2');
      await page.getByRole('button', { name: 'Lagre kvitteringen' }).click();
      await page.getByRole('status').filter({ hasText: /Kvitteringen er lagret: \d av 2 linjer kjente vi igjen\./ }).waitFor();
      await page.getByText('1 kvittering', { exact: true }).waitFor();
      await page.locator('ul.items > li').filter({ hasText: 'Kiwi' }).waitFor();
      const saved = (await k.client.get(`${base}/receipts`)).json as { items: { chain: string; linesTotal: number }[] };
      expect(saved.items.map((r) => [r.chain, r.linesTotal])).to.deep.equal([['Kiwi', 2]]);
      await checkedShot(page, `receipts-${kind.name}`);
    });
  });
}
