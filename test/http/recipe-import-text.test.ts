import { expect } from 'chai';
import { httpSuite } from '../support/http-suite.js';
import { TEST_RATE_LIMITS } from '../support/server.js';

const PASTE = [
  'Fiskegrateng',
  '4 porsjoner',
  'Tid: 50 min',
  '',
  'Ingredienser:',
  '- 600 g torsk',
  '- 3 dl melk',
  '- 2 ss smør',
  '- 1/2 ts muskat',
  '',
  'Slik gjør du:',
  '1. Legg fisken i en smurt form.',
  '2. Lag en hvit saus av smør, mel og melk.',
  '3. Hell sausen over og stek i 30 minutter.',
].join('\r\n');

// The import of a recipe pasted as text: read in the service, nothing fetched, no budget spent, nothing saved.
httpSuite('recipe import from pasted text over HTTP', { env: { RATE_LIMITS: `${TEST_RATE_LIMITS},recipe-import-per-household=2/3600` } }, function (server) {
  this.timeout(20_000);

  async function family() {
    const h = await server.household();
    const { client: junior } = await h.join('Junior');
    const { client: stranger } = await server.signedIn('Stranger');
    return { owner: h.owner, junior, stranger, base: `${h.base}/recipes`, path: `${h.base}/recipes/import` };
  }

  it('answers the preview a page import gives, with read_from_text first, and it saves as it is', async () => {
    const { owner, base, path } = await family();
    const res = await owner.post(path, { text: PASTE });
    expect(res.status, res.text).to.equal(200);
    const p = res.json;
    expect([p.recipe.title, p.recipe.servings, p.recipe.totalMinutes, p.yields, p.sourceUrl, p.imageUrl]).to.deep.equal(['Fiskegrateng', 4, 50, '4 porsjoner', null, null]);
    expect(p.warnings[0]).to.equal('read_from_text');
    expect(p.recipe.steps).to.deep.equal(['Legg fisken i en smurt form.', 'Lag en hvit saus av smør, mel og melk.', 'Hell sausen over og stek i 30 minutter.']);
    expect(p.recipe.ingredients.map((i: { displayName: string; quantity: number; unit: string }) => [i.displayName, i.quantity, i.unit])).to.deep.equal([
      ['torsk', 600, 'g'],
      ['melk', 3, 'dl'],
      ['smør', 2, 'tbsp'],
      ['muskat', 0.5, 'tsp'],
    ]);
    expect(p.lines.map((l: { original: string; confidence: string }) => [l.original, l.confidence])).to.deep.equal([
      ['600 g torsk', 'high'],
      ['3 dl melk', 'high'],
      ['2 ss smør', 'high'],
      ['1/2 ts muskat', 'high'],
    ]);
    expect((await owner.get(base)).json.total, 'nothing saved').to.equal(0);
    const saved = await owner.post(base, p.recipe);
    expect(saved.status, saved.text).to.equal(201);
    expect(saved.json.title).to.equal('Fiskegrateng');
  });

  it('spends no import budget (2 an hour here): text is read, not fetched', async () => {
    const { owner, path } = await family();
    for (let i = 0; i < 5; i++) expect((await owner.post(path, { text: `Rett ${i}\n2 egg\nStek eggene i smør.` })).status).to.equal(200);
  });

  it('refuses text too long (400 value_too_long), without a letter or a digit, or together with url or html (400), changing nothing', async () => {
    const { owner, base, path } = await family();
    const long = await owner.post(path, { text: 'Suppe\n' + 'x'.repeat(50_000) });
    expect([long.status, long.json.code], long.text).to.deep.equal([400, 'value_too_long']);
    expect(long.headers.get('content-type')).to.match(/^application\/problem\+json/);
    for (const body of [{ text: '  \n — \n' }, { text: '' }, { text: PASTE, url: 'https://mat.example/x' }, { text: PASTE, html: '<html></html>' }, { text: 42 }]) {
      const res = await owner.post(path, body);
      expect([res.status, res.json.code], JSON.stringify(body)).to.deep.equal([400, 'validation_failed']);
    }
    expect((await owner.get(base)).json.total).to.equal(0);
  });

  it('is for adults of the household: a Junior gets 403, someone outside 404', async () => {
    const { junior, stranger, path } = await family();
    const j = await junior.post(path, { text: PASTE });
    expect([j.status, j.json.code]).to.deep.equal([403, 'adults_only']);
    const s = await stranger.post(path, { text: PASTE });
    expect([s.status, s.json.code]).to.deep.equal([404, 'household_not_found']);
  });
});
