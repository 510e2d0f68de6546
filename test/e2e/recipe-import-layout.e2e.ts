import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { signedInClient } from '../support/client.js';
import { databaseKinds } from '../support/databases.js';
import { browserSuite, checkedShot } from './browser.js';

/** A blog's recipe with no recipe markup, as the import reads it from its headings and lists. */
const PAGE = `<!doctype html><html lang="nb"><head><meta charset="utf-8"><title>Fiskegrateng | Matbloggen</title></head><body>
<nav><ul><li>Forside</li><li>Middag</li></ul></nav>
<article><h1>Fiskegrateng</h1><p>4 porsjoner · Tid: 1 time</p>
<h2>Ingredienser</h2><ul><li>500 g torsk</li><li>4 dl melk</li><li>3 ss smør</li><li>4 ss hvetemel</li><li>salt og pepper</li></ul>
<h2>Slik gjør du</h2><ol><li>Lag en hvit saus av smør, mel og melk.</li><li>Legg fisken i en form, hell over sausen og stek i 40 minutter.</li></ol>
</article></body></html>`;

let server: http.Server;
let pageUrl = '';
async function servePage(): Promise<Record<string, string>> {
  server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  pageUrl = `http://127.0.0.1:${port}/fiskegrateng`;
  return { OUTBOUND_ALLOW_HOSTS: `127.0.0.1:${port}` };
}

/**
 * Importing a page without recipe markup in a real browser, on SQLite and Postgres: the preview says the recipe was
 * read from the page's headings, in Norwegian and in English, beside the lines and steps it read.
 */
for (const kind of databaseKinds()) {
  describe(`the web app in Chromium: a recipe read from a page's layout [${kind.name}]`, function () {
    this.timeout(120_000);
    const suite = browserSuite('recipe-import-layout', kind, { env: servePage });
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));

    for (const [lang, open, fetch, said] of [
      ['nb', 'Hent en oppskrift fra en nettside', 'Hent oppskriften', /lest ut fra overskriftene/],
      ['en', 'Get a recipe from a web page', 'Get the recipe', /read from its headings/],
    ] as const) {
      it(`says in ${lang} that the recipe was read from the page's layout, with its lines and steps`, async () => {
        const k = await signedInClient(suite.server.url, 'Kari');
        // The screens speak the household's language.
        expect((await k.client.post('/api/v1/households', { name: 'Hansen', language: lang })).status).to.equal(201);
        const page = await suite.page(k.client);
        await page.goto(`${suite.server.url}/recipes`);
        await page.getByText(open).click();
        await page.locator('#f-import-url').fill(pageUrl);
        await page.getByRole('button', { name: fetch }).click();
        const status = page.getByRole('status').filter({ hasText: said });
        await status.waitFor();
        expect(await status.textContent()).to.match(said);
        expect(await page.locator('#f-title, [name="title"]').first().inputValue()).to.equal('Fiskegrateng');
        expect(await page.locator('#f-steps').inputValue()).to.contain('Lag en hvit saus av smør, mel og melk.');
        expect(await page.locator('li.line').count()).to.equal(5);
        await checkedShot(page, `recipe-import-layout-${lang}-${kind.name}`);
      });
    }
  });
}
