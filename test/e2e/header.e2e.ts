import { expect } from 'chai';
import { signedInClient } from '../support/client.js';
import { databaseKinds } from '../support/databases.js';
import { browserSuite, checkedShot, DESKTOP, PHONE } from './browser.js';

/** The header on a phone: every link and button in it at least 44 px tall, and the whole menu in view. */
for (const kind of databaseKinds()) {
  describe(`the web app in Chromium: the header on a phone [${kind.name}]`, function () {
    this.timeout(60_000);
    const suite = browserSuite('header', kind);

    it('makes every header link and button at least 44 px tall, on a phone and on a computer', async () => {
      const kari = await signedInClient(suite.server.url, 'Kari');
      expect((await kari.client.post('/api/v1/households', { name: 'Hansen' })).status).to.equal(201);
      const page = await suite.page(kari.client);
      await page.goto(`${suite.server.url}/`);
      await page.getByRole('navigation', { name: 'Hovedmeny' }).waitFor();
      for (const viewport of [PHONE, DESKTOP]) {
        await page.setViewportSize(viewport);
        const boxes = await page.locator('header nav a, header .bar a, header .bar button').evaluateAll((els) => els.map((e) => ({ text: (e.textContent ?? '').trim(), height: e.getBoundingClientRect().height })));
        expect(boxes.map((b) => b.text)).to.include.members(['Uka', 'Handleliste', 'Oppskrifter', 'Skapet', 'Innstillinger', 'Logg ut']);
        for (const b of boxes) expect(b.height, `${b.text} at ${viewport.width} px`).to.be.at.least(44);
      }
      await checkedShot(page, `header-${kind.name}`);
    });
  });
}
