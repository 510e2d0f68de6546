import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { httpSuite } from '../support/http-suite.js';
import { TEST_RATE_LIMITS } from '../support/server.js';

// Recipe import over HTTP against pages served by a local server that the outbound guard lets through
// (OUTBOUND_ALLOW_HOSTS), so that every fetch takes the real path: guard, redirects, decompression, charset, caps.
const TIMEOUT_MS = 800;
const MAX_BYTES = 64 * 1024;

const recipePage = (title: string, image = '/img/taco.jpg') => `<!doctype html><html><head><meta charset="utf-8"><title>${title} | Matsiden</title>
<script type="application/ld+json">${JSON.stringify({
  '@context': 'https://schema.org',
  '@graph': [
    { '@type': 'WebPage', name: 'Matsiden' },
    {
      '@type': ['Recipe'],
      name: title,
      image,
      recipeYield: ['4', '4 porsjoner'],
      totalTime: 'PT1H',
      prepTime: 'PT20M',
      recipeIngredient: ['400 g kjøttdeig', '1 pk tacokrydder', '2 dl rømme (valgfritt)', 'salt og pepper', '1 ½ ss olje'],
      recipeInstructions: [{ '@type': 'HowToStep', text: 'Brun kjøttet.' }, { '@type': 'HowToStep', text: 'Rør inn krydder &amp; vann.' }],
    },
  ],
})}</script></head><body><h1>${title}</h1></body></html>`;

/** A blog's page with no recipe markup: the recipe is only in its headings and lists, beside a menu and comments. */
const layoutPage = `<!doctype html><html lang="nb"><head><meta charset="utf-8"><title>Fiskegrateng | Matbloggen</title>
<meta property="og:image" content="/img/grateng.jpg"></head><body>
<nav><ul><li>Forside</li><li>Middag</li></ul></nav>
<article><h1>Fiskegrateng</h1><p>4 porsjoner · Tid: 1 time</p>
<h2>Ingredienser</h2><ul><li>500 g torsk</li><li>4 dl melk</li><li>3 ss smør</li><li>4 ss hvetemel</li><li>salt og pepper</li></ul>
<h2>Slik gjør du</h2><ol><li>Lag en hvit saus av smør, mel og melk.</li><li>Legg fisken i en form, hell over sausen og stek i 40 minutter.</li></ol>
</article><div id="comments"><h2>Kommentarer</h2><ul><li>2 ss ost på toppen er godt!</li></ul></div></body></html>`;

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAMAAAAoyzS7AAAAA1BMVEXAOSuU7d9gAAAACklEQVQI12NgAAAAAgAB4iG8MwAAAABJRU5ErkJggg==', 'base64');

interface PageServer {
  readonly host: string;
  readonly url: string;
  readonly userAgents: string[];
  close(): Promise<void>;
}

async function pageServer(): Promise<PageServer> {
  const userAgents: string[] = [];
  const server = http.createServer((req, res) => {
    userAgents.push(String(req.headers['user-agent']));
    const path = (req.url ?? '/').split('?')[0];
    const html = (body: string | Buffer, type = 'text/html; charset=utf-8') => {
      res.writeHead(200, { 'content-type': type });
      res.end(body);
    };
    switch (path) {
      case '/taco':
        return html(recipePage('Taco fredag'));
      case '/latin1':
        return html(Buffer.from(recipePage('Rømmegrøt med smør').replace('charset="utf-8"', 'charset="windows-1252"'), 'latin1'), 'text/html');
      case '/redirect-in':
        res.writeHead(302, { location: '/taco' });
        return res.end();
      case '/redirect-out':
        res.writeHead(302, { location: 'http://127.0.0.1:9/secret' });
        return res.end();
      case '/redirect-localhost':
        res.writeHead(301, { location: 'http://localhost/admin' });
        return res.end();
      case '/missing':
        res.writeHead(404, { 'content-type': 'text/html' });
        return res.end('<h1>Not found</h1>');
      case '/image':
        return html(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), 'image/png');
      case '/json':
        return html('{"name":"Taco"}', 'application/json');
      case '/big':
        return html(`<html><body>${'x'.repeat(MAX_BYTES + 1)}</body></html>`);
      case '/gzip-bomb':
        res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
        return res.end(gzipSync(Buffer.alloc(20 * MAX_BYTES, 0x20)));
      case '/br-bomb':
        res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'br' });
        return res.end(brotliCompressSync(Buffer.alloc(20 * MAX_BYTES, 0x20)));
      case '/gzip-page':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip' });
        return res.end(gzipSync(Buffer.from(recipePage('Pakket taco'))));
      case '/trickle': {
        // A byte every 100 ms: each chunk is quick, the whole never comes in time.
        res.writeHead(200, { 'content-type': 'text/html' });
        const timer = setInterval(() => res.write(' '), 100);
        res.on('close', () => clearInterval(timer));
        return;
      }
      case '/img/taco.jpg':
        // The page says .jpg; the bytes are a PNG, and the bytes decide.
        return html(PNG, 'application/octet-stream');
      case '/img/evil.svg':
        return html('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>', 'image/svg+xml');
      case '/img/fake.png':
        return html('<html><script>alert(1)</script></html>', 'image/png');
      case '/no-markup':
        return html(layoutPage);
      case '/no-recipe':
        return html('<!doctype html><html><head><title>Om oss</title></head><body><p>Ingen oppskrift her.</p></body></html>');
      default:
        res.writeHead(404);
        return res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    url: `http://127.0.0.1:${port}`,
    userAgents,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let pages: PageServer;
const env = async () => {
  pages = await pageServer();
  return {
    OUTBOUND_ALLOW_HOSTS: pages.host,
    RECIPE_IMPORT_TIMEOUT_MS: String(TIMEOUT_MS),
    RECIPE_IMPORT_MAX_BYTES: String(MAX_BYTES),
    RATE_LIMITS: `${TEST_RATE_LIMITS},recipe-import-per-household=4/3600`,
  };
};

httpSuite('recipe import over HTTP', { env }, function (server) {
  this.timeout(20_000);
  after(() => pages.close());

  /** A household with its Owner, a Junior of it, and someone not in it. */
  async function family() {
    const h = await server.household();
    const { client: junior } = await h.join('Junior');
    const { client: stranger } = await server.signedIn('Stranger');
    return { owner: h.owner, junior, stranger, h: h.id, base: `${h.base}/recipes`, path: `${h.base}/recipes/import` };
  }

  it('reads a page into a RecipeRequest with notes per line, saves nothing, and the preview saves as it is', async () => {
    const { owner, base, path } = await family();
    const res = await owner.post(path, { url: `${pages.url}/redirect-in` });
    expect(res.status, res.text).to.equal(200);
    const p = res.json;
    expect(p.recipe.title).to.equal('Taco fredag');
    expect([p.recipe.servings, p.recipe.totalMinutes, p.recipe.activeMinutes, p.yields]).to.deep.equal([4, 60, 20, '4 porsjoner']);
    expect(p.recipe.steps).to.deep.equal(['Brun kjøttet.', 'Rør inn krydder & vann.']);
    expect(p.recipe.ingredients.map((i: { displayName: string; quantity: number | null; unit: string | null }) => [i.quantity, i.unit])).to.deep.equal([
      [400, 'g'],
      [1, 'pk'],
      [2, 'dl'],
      [null, null],
      [1.5, 'tbsp'],
    ]);
    expect(p.recipe.ingredients[0].displayName).to.equal('kjøttdeig');
    expect(p.recipe.ingredients[2].optional).to.equal(true);
    expect(p.lines.map((l: { original: string }) => l.original)).to.deep.equal(['400 g kjøttdeig', '1 pk tacokrydder', '2 dl rømme (valgfritt)', 'salt og pepper', '1 ½ ss olje']);
    expect(p.lines[0].confidence).to.equal('high');
    expect(p.lines[3].confidence).to.not.equal('high');
    // Redirects followed: the address is where the page was found.
    expect(p.sourceUrl).to.equal(`${pages.url}/taco`);
    expect(p.imageUrl).to.equal(`${pages.url}/img/taco.jpg`);
    expect(p.warnings).to.be.an('array');
    expect((await owner.get(base)).json.total, 'nothing saved').to.equal(0);
    const saved = await owner.post(base, p.recipe);
    expect(saved.status, saved.text).to.equal(201);
    expect(saved.json.ingredients[0].foodKey).to.equal('kjøttdeig');
    expect(pages.userAgents.at(-1)).to.match(/^Mozilla\/5\.0 \(compatible; DinnerPlanner\/[^;]+; \+http/);
  });

  it('reads HTML the person sends without fetching anything or spending the budget', async () => {
    const { owner, path } = await family();
    const before = pages.userAgents.length;
    for (let i = 0; i < 6; i++) {
      const res = await owner.post(path, { html: recipePage('Lagret taco', 'bilde.jpg'), url: 'https://mat.example/oppskrift/taco' });
      expect(res.status, res.text).to.equal(200);
      expect([res.json.recipe.title, res.json.sourceUrl, res.json.imageUrl]).to.deep.equal(['Lagret taco', 'https://mat.example/oppskrift/taco', 'https://mat.example/oppskrift/bilde.jpg']);
    }
    const alone = await owner.post(path, { html: recipePage('Uten adresse', 'https://img.example/a.jpg') });
    expect([alone.status, alone.json.sourceUrl, alone.json.imageUrl]).to.deep.equal([200, null, 'https://img.example/a.jpg']);
    expect(pages.userAgents.length).to.equal(before);
  });

  it('reads a page without recipe markup from its headings and lists, fetched or sent, and says so with read_from_page_layout', async () => {
    const { owner, base, path } = await family();
    const fetched = await owner.post(path, { url: `${pages.url}/no-markup` });
    const sent = await owner.post(path, { html: layoutPage, url: 'https://mat.example/grateng' });
    for (const res of [fetched, sent]) {
      expect(res.status, res.text).to.equal(200);
      const p = res.json;
      expect(p.warnings).to.deep.equal(['read_from_page_layout']);
      expect([p.recipe.title, p.recipe.servings, p.recipe.totalMinutes, p.yields]).to.deep.equal(['Fiskegrateng', 4, 60, '4 porsjoner']);
      expect(p.lines.map((l: { original: string }) => l.original)).to.deep.equal(['500 g torsk', '4 dl melk', '3 ss smør', '4 ss hvetemel', 'salt og pepper']);
      expect(p.recipe.ingredients[0]).to.deep.include({ displayName: 'torsk', quantity: 500, unit: 'g' });
      expect(p.recipe.steps).to.deep.equal(['Lag en hvit saus av smør, mel og melk.', 'Legg fisken i en form, hell over sausen og stek i 40 minutter.']);
    }
    expect([fetched.json.sourceUrl, fetched.json.imageUrl]).to.deep.equal([`${pages.url}/no-markup`, `${pages.url}/img/grateng.jpg`]);
    expect([sent.json.sourceUrl, sent.json.imageUrl]).to.deep.equal(['https://mat.example/grateng', 'https://mat.example/img/grateng.jpg']);
    // The preview saves as it is.
    const saved = await owner.post(base, { ...sent.json.recipe, imageUrl: null });
    expect(saved.status, saved.text).to.equal(201);
    // A page that only mentions ingredients is still no recipe.
    const prose = '<!doctype html><html><head><title>Om merking</title></head><body><h1>Om merking</h1><h2>Ingredienser</h2><p>Ingredienser står oppført etter vekt, med den største mengden først, slik at du kan se hva varen mest består av.</p></body></html>';
    const none = await owner.post(path, { html: prose });
    expect([none.status, none.json.code]).to.deep.equal([422, 'recipe_not_on_page']);
  });

  it('decodes a declared charset and a gzipped page', async () => {
    const { owner, path } = await family();
    const latin = await owner.post(path, { url: `${pages.url}/latin1` });
    expect([latin.status, latin.json.recipe.title]).to.deep.equal([200, 'Rømmegrøt med smør']);
    const gz = await owner.post(path, { url: `${pages.url}/gzip-page` });
    expect([gz.status, gz.json.recipe.title]).to.deep.equal([200, 'Pakket taco']);
  });

  it('refuses addresses the guard refuses with 400 recipe_url_forbidden, redirect hops included', async () => {
    const port = Number(pages.host.split(':')[1]);
    const urls = [`http://127.0.0.1:${port + 1}/x`, 'http://localhost/x', 'http://10.0.0.1/x', 'http://[::1]/x', 'ftp://example.com/x', 'http://169.254.169.254/latest/meta-data', `${pages.url}/redirect-out`, `${pages.url}/redirect-localhost`];
    // Each try counts against the household's budget (4 here): two households share the eight.
    for (const group of [urls.slice(0, 4), urls.slice(4)]) {
      const { owner, path } = await family();
      for (const url of group) {
        const res = await owner.post(path, { url });
        expect([res.status, res.json.code], url).to.deep.equal([400, 'recipe_url_forbidden']);
      }
    }
  });

  for (const [what, page, status, code] of [
    ['an error status', '/missing', 422, 'recipe_page_unreachable'],
    ['an image', '/image', 422, 'recipe_page_not_html'],
    ['JSON', '/json', 422, 'recipe_page_not_html'],
    ['a page over the cap', '/big', 422, 'recipe_page_too_large'],
  ] as const) {
    it(`answers ${status} ${code} for ${what}`, async () => {
      const { owner, path } = await family();
      const res = await owner.post(path, { url: `${pages.url}${page}` });
      expect([res.status, res.json.code, res.headers.get('content-type')]).to.deep.equal([status, code, 'application/problem+json']);
    });
  }

  it('stops a gzip or brotli bomb at the cap of decoded bytes, a trickle at the deadline, and says when a page has no recipe', async () => {
    const { owner, path } = await family();
    for (const bomb of ['/gzip-bomb', '/br-bomb']) {
      const res = await owner.post(path, { url: `${pages.url}${bomb}` });
      expect([res.status, res.json.code], bomb).to.deep.equal([422, 'recipe_page_too_large']);
    }
    const started = Date.now();
    const slow = await owner.post(path, { url: `${pages.url}/trickle` });
    expect([slow.status, slow.json.code]).to.deep.equal([422, 'recipe_page_timeout']);
    expect(Date.now() - started).to.be.below(TIMEOUT_MS + 2000);
    const none = await owner.post(path, { url: `${pages.url}/no-recipe` });
    expect([none.status, none.json.code]).to.deep.equal([422, 'recipe_not_on_page']);
  });

  it('limits fetches per household (429 with Retry-After); another household goes on', async () => {
    const { owner, path } = await family();
    for (let i = 0; i < 4; i++) expect((await owner.post(path, { url: `${pages.url}/taco` })).status).to.equal(200);
    const over = await owner.post(path, { url: `${pages.url}/taco` });
    expect([over.status, over.json.code]).to.deep.equal([429, 'rate_limited']);
    expect(Number(over.headers.get('retry-after'))).to.be.greaterThan(0);
    const other = await family();
    expect((await other.owner.post(other.path, { url: `${pages.url}/taco` })).status).to.equal(200);
  });

  it('is for adults of the household, and checks its body', async () => {
    const { junior, stranger, path } = await family();
    const j = await junior.post(path, { url: `${pages.url}/taco` });
    expect([j.status, j.json.code]).to.deep.equal([403, 'adults_only']);
    const s = await stranger.post(path, { url: `${pages.url}/taco` });
    expect([s.status, s.json.code]).to.deep.equal([404, 'household_not_found']);
    const { owner, path: own } = await family();
    for (const body of [{}, { url: null }, { url: 'not an address' }, { url: '' }, { html: '' }, { url: 42 }]) {
      const res = await owner.post(own, body);
      expect([res.status, res.json.code], JSON.stringify(body)).to.deep.equal([400, 'validation_failed']);
    }
  });

  it('keeps the picture of a saved import when its bytes are an image, serves it with an ETag, and saves the recipe without one otherwise', async () => {
    const { owner, junior, stranger, base, path, h } = await family();
    const preview = (await owner.post(path, { url: `${pages.url}/taco` })).json;
    // The preview saves as it is, with where it came from and its picture.
    const saved = await owner.post(base, preview.recipe);
    expect(saved.status, saved.text).to.equal(201);
    const r = saved.json;
    expect([r.sourceUrl, r.imageUrl]).to.deep.equal([`${pages.url}/taco`, `${pages.url}/img/taco.jpg`]);
    expect(r.image).to.deep.include({ href: `/api/v1/households/${h}/recipes/${r.id}/image`, mediaType: 'image/png' });
    for (const reader of [owner, junior]) {
      const img = await reader.get(r.image.href);
      expect([img.status, img.headers.get('content-type'), img.headers.get('etag'), img.headers.get('x-content-type-options')]).to.deep.equal([200, 'image/png', r.image.etag, 'nosniff']);
      expect(img.headers.get('content-security-policy')).to.include("default-src 'none'");
    }
    const again = await owner.get(r.image.href, { headers: { 'If-None-Match': r.image.etag } });
    expect([again.status, again.text]).to.deep.equal([304, '']);
    expect((await stranger.get(r.image.href)).status).to.equal(404);
    // An SVG, or HTML calling itself a PNG, is no picture: the recipe is saved, without one (the old one goes).
    for (const bad of ['/img/evil.svg', '/img/fake.png']) {
      const res = await owner.put(`${base}/${r.id}`, { ...preview.recipe, imageUrl: `${pages.url}${bad}` });
      expect([res.status, res.json.image, res.json.imageUrl], bad).to.deep.equal([200, null, `${pages.url}${bad}`]);
      const gone = await owner.get(r.image.href);
      expect([gone.status, gone.json.code]).to.deep.equal([404, 'recipe_image_not_found']);
    }
    // An address the guard refuses is never fetched, and the recipe is still saved.
    const inside = await owner.post(base, { ...preview.recipe, imageUrl: 'http://127.0.0.1:9/secret.png' });
    expect([inside.status, inside.json.image]).to.deep.equal([201, null]);
    // An old client's replacement keeps both addresses and the picture.
    const back = await owner.put(`${base}/${r.id}`, { ...preview.recipe, imageUrl: `${pages.url}/img/taco.jpg` });
    expect(back.json.image.mediaType).to.equal('image/png');
    const { sourceUrl: _s, imageUrl: _i, ...old } = preview.recipe;
    const kept = await owner.put(`${base}/${r.id}`, { ...old, title: 'Taco lørdag' });
    expect([kept.json.title, kept.json.sourceUrl, kept.json.imageUrl, kept.json.image?.mediaType]).to.deep.equal(['Taco lørdag', `${pages.url}/taco`, `${pages.url}/img/taco.jpg`, 'image/png']);
    for (const address of ['ftp://x.example/a.png', 'not an address', 'javascript:alert(1)']) {
      const res = await owner.put(`${base}/${r.id}`, { ...old, imageUrl: address });
      expect([res.status, res.json.code], address).to.deep.equal([400, 'validation_failed']);
    }
    // Addresses over 2048 characters are too long, in a recipe and in an import alike; nothing is fetched.
    const long = `https://img.example/${'a'.repeat(2030)}.png`;
    for (const res of [await owner.put(`${base}/${r.id}`, { ...old, sourceUrl: long }), await owner.post(path, { url: long })]) {
      expect([res.status, res.json.code]).to.deep.equal([400, 'value_too_long']);
    }
  });

  it('is in the OpenAPI document with every problem code', async () => {
    const { owner } = await family();
    const doc = (await owner.get('/api/v1/openapi.json')).json;
    const op = doc.paths['/api/v1/households/{householdId}/recipes/import'].post;
    expect(op.operationId).to.equal('previewRecipeImport');
    const text = JSON.stringify(op.responses);
    for (const code of ['recipe_url_forbidden', 'recipe_page_unreachable', 'recipe_page_timeout', 'recipe_page_too_large', 'recipe_page_not_html', 'recipe_not_on_page', 'adults_only', 'rate_limited']) expect(text, code).to.include(code);
    for (const warning of ['read_from_page_layout', 'opengraph_only', 'servings_guessed']) expect(op.description, warning).to.include(warning);
  });
});
