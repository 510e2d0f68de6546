import { expect } from 'chai';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { signedInClient } from '../support/client.js';
import { databaseKinds } from '../support/databases.js';
import { browserSuite, checkedShot } from './browser.js';

const line = (displayName: string, quantity: number, unit: string) => ({ displayName, quantity, unit, optional: false, baseRecipeId: null, reference: null });

/** A household with a fish soup and a taco, neither with a picture. */
async function householdWithRecipes(url: string) {
  const k = await signedInClient(url, 'Kari');
  const h = (await k.client.post('/api/v1/households', { name: 'Hansen' })).json as { id: string };
  const base = `/api/v1/households/${h.id}`;
  const ids: Record<string, string> = {};
  for (const [title, lines] of [
    ['Fiskesuppe', [line('Torsk', 400, 'g'), line('Matfløte', 3, 'dl')]],
    ['Taco', [line('Kjøttdeig', 400, 'g'), line('Lomper', 8, 'stk')]],
  ] as const) {
    const r = await k.client.post(`${base}/recipes`, { title, servings: 4, activeMinutes: null, totalMinutes: 30, steps: ['Kok opp.'], ingredients: lines });
    expect(r.status, r.text).to.equal(201);
    ids[title] = r.json.id as string;
  }
  return { k, base, ids };
}

/** A bowl of soup seen from above on a wooden table, drawn here. */
const SOUP = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300">
  <defs><pattern id="wood" width="24" height="24" patternUnits="userSpaceOnUse" patternTransform="rotate(20)"><rect width="24" height="24" fill="#9c6b43"/><rect width="24" height="7" fill="#b07b4f"/></pattern>
  <radialGradient id="soup"><stop offset="0" stop-color="#e9a04a"/><stop offset="1" stop-color="#c8682c"/></radialGradient></defs>
  <rect width="400" height="300" fill="url(#wood)"/><circle cx="200" cy="150" r="118" fill="#f5f3ec"/><circle cx="200" cy="150" r="92" fill="url(#soup)"/>
  <circle cx="170" cy="130" r="9" fill="#f6efe2"/><circle cx="228" cy="168" r="11" fill="#f6efe2"/><circle cx="214" cy="118" r="6" fill="#5f8f3e"/><circle cx="180" cy="178" r="5" fill="#5f8f3e"/>
</svg>`;

/** A phone's photo of the soup: a JPEG of 2400×1800, as a camera writes it. */
const soupPhoto = () => sharp(Buffer.from(SOUP), { density: 432 }).resize(2400, 1800).flatten().jpeg({ quality: 90 }).toBuffer();

/** The picture the first `selector` shows has loaded (a broken one has no natural width); as text, the tests' TypeScript knows no DOM. */
const loaded = (page: Page, selector: string) => page.waitForFunction(`(() => { const img = document.querySelector(${JSON.stringify(selector)}); return img !== null && img.complete && img.naturalWidth > 0; })()`);

/**
 * The household's own photo of a recipe in a real browser, on SQLite and on Postgres: an adult adds one from the
 * reading view's file chooser (a JPEG made here), sees how far it has come, and sees it at once, also as the list's
 * thumbnail; a file that is not a picture is refused with a sentence and changes nothing; "Fjern bilde" waits for
 * "Angre".
 */
for (const kind of databaseKinds()) {
  describe(`the web app in Chromium: a recipe's own photo [${kind.name}]`, function () {
    this.timeout(120_000);
    const suite = browserSuite('recipe-photo', kind);

    // checkedShot photographs each step at 390 and 1280 px (test-results/screens/recipe-photo-*).
    it('adds a photo from the reading view, shows it there and in the list, refuses a text file, and removes it with undo', async () => {
      const { k, base, ids } = await householdWithRecipes(suite.server.url);
      const page = await suite.page(k.client);
      await page.goto(`${suite.server.url}/recipes/${ids['Fiskesuppe']}`);
      const add = page.getByRole('button', { name: 'Legg til bilde' });
      await add.waitFor();
      expect(await page.locator('img.recipe-hero').count()).to.equal(0);
      const chooser = page.locator('input[type=file]');
      expect(await chooser.getAttribute('accept')).to.equal('image/jpeg,image/png,image/webp');
      await checkedShot(page, `recipe-photo-none-${kind.name}`);

      // Sent over a slow line, the upload says how far it has come.
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 150 * 1024 });
      await chooser.setInputFiles({ name: 'fiskesuppe.jpg', mimeType: 'image/jpeg', buffer: await soupPhoto() });
      await page.locator('.photo-progress progress').waitFor();
      expect(await page.locator('.photo-progress').textContent()).to.match(/^Sender bildet … \d+ %$/);
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
      await page.getByRole('status').filter({ hasText: 'Bildet er lagt til.' }).waitFor();
      await loaded(page, 'img.recipe-hero');
      const saved = (await k.client.get(`${base}/recipes/${ids['Fiskesuppe']}`)).json;
      expect(saved.image.mediaType).to.equal('image/webp');
      expect(await page.locator('img.recipe-hero').getAttribute('src')).to.equal(`${saved.image.href}?v=${saved.image.etag.replaceAll('"', '')}`);
      expect(await page.locator('img.recipe-hero').getAttribute('alt')).to.equal('');
      await page.getByRole('button', { name: 'Bytt bilde' }).waitFor();
      await checkedShot(page, `recipe-photo-view-${kind.name}`);

      // A text file named .jpg is no picture: the sentence says so, and the photo stays.
      await chooser.setInputFiles({ name: 'oppskrift.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('Fiskesuppe: torsk, fløte, gulrot.\n') });
      await page.getByRole('alert').filter({ hasText: 'Det er ikke et bilde som kan brukes. Velg et bilde i JPEG, PNG eller WebP.' }).waitFor();
      expect((await k.client.get(`${base}/recipes/${ids['Fiskesuppe']}`)).json.image.etag).to.equal(saved.image.etag);
      await loaded(page, 'img.recipe-hero');
      await checkedShot(page, `recipe-photo-refused-${kind.name}`);

      // The list shows it as a thumbnail beside the title; the taco, without one, keeps the same room.
      await page.getByRole('link', { name: 'Alle oppskriftene' }).click();
      const soupCard = page.locator('ul.cards > li').filter({ hasText: 'Fiskesuppe' });
      await soupCard.locator('img').waitFor();
      await loaded(page, 'ul.cards > li img');
      expect([await soupCard.locator('img').getAttribute('loading'), await soupCard.locator('img').getAttribute('alt')]).to.deep.equal(['lazy', '']);
      const box = await soupCard.locator('img').boundingBox();
      expect([box?.width, box?.height]).to.deep.equal([64, 64]);
      expect(await page.locator('ul.cards > li').filter({ hasText: 'Taco' }).locator('.thumb-none').count()).to.equal(1);
      await checkedShot(page, `recipe-photo-list-${kind.name}`);

      // Removed at once, with "Angre": undone, the photo is back and nothing was sent.
      await soupCard.getByRole('link', { name: 'Fiskesuppe' }).click();
      await page.getByRole('button', { name: 'Fjern bilde' }).click();
      await page.locator('img.recipe-hero').waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Legg til bilde' }).waitFor();
      await page.getByRole('button', { name: 'Angre' }).click();
      await loaded(page, 'img.recipe-hero');
      expect((await k.client.get(`${base}/recipes/${ids['Fiskesuppe']}`)).json.image.etag).to.equal(saved.image.etag);
    });
  });
}
