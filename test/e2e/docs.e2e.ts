import { expect } from 'chai';
import { databaseKinds } from '../support/databases.js';
import { browserSuite, DESKTOP, screens } from './browser.js';

describe('the API reference in Chromium', function () {
  const suite = browserSuite('docs', databaseKinds()[0]!);

  it('renders every operation with Swagger UI from this service alone, with no CSP violation', async () => {
    const { server } = suite;
    const context = await suite.context({ viewport: DESKTOP });
    try {
      const page = suite.watch(await context.newPage());
      const problems: string[] = [];
      const elsewhere: string[] = [];
      const failed: string[] = [];
      page.on('console', (m) => {
        // A failed load is reported by its address below.
        if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(m.text());
      });
      page.on('response', (r) => {
        // The browser asks for /favicon.ico on its own; the reference has none.
        if (r.status() >= 400 && !r.url().endsWith('/favicon.ico')) failed.push(`${r.status()} ${r.url()}`);
      });
      page.on('pageerror', (e) => problems.push(String(e)));
      page.on('request', (r) => {
        if (!r.url().startsWith(server.url) && !r.url().startsWith('data:')) elsewhere.push(r.url());
      });
      await page.goto(`${server.url}/api/docs`);
      await page.locator('.opblock').first().waitFor({ timeout: 30_000 });
      // Swagger UI holds every operation of the document (it draws them tag by tag: with more than about 128 here,
      // 5.35 draws the first dozen at once; see docs/api-decisions.md §1).
      const operations = Number(await page.evaluate('window.ui.specSelectors.operations().size'));
      expect(operations).to.equal(server.runtime.routes.length);
      // An operation opens to its description.
      await page.locator('.opblock-summary-path', { hasText: '/health/ready' }).first().click();
      await page.locator('.opblock-description-wrapper').first().waitFor();
      await screens(page, 'api-reference');
      expect(problems, problems.join('\n')).to.deep.equal([]);
      expect(failed).to.deep.equal([]);
      expect(elsewhere).to.deep.equal([]);
    } finally {
      await context.close();
    }
  });
});
