import { expect } from 'chai';
import sharp from 'sharp';
import { httpSuite } from '../support/http-suite.js';
import { aiRecipe, completion, FakeRecipeAi } from '../support/fake-recipe-ai.js';
import type { Client } from '../support/client.js';

/** A small photo, as a phone would send it (the fake AI reads nothing of it: it answers what the test says). */
const photo = () => sharp({ create: { width: 64, height: 48, channels: 3, background: '#d9a441' } }).jpeg().toBuffer();
/** The smallest file that sniffs as a PDF. */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n');

const send = (client: Client, path: string, bytes: Uint8Array, type: string) => client.request('POST', path, { rawBody: bytes, headers: { 'Content-Type': type } });

const ai = new FakeRecipeAi();
after(() => ai.stop());

// A recipe read from a photo or a PDF by the optional AI, against an OpenAI-compatible server on loopback.
httpSuite('recipe import from a picture with the AI over HTTP', { env: async () => ({ AI_BASE_URL: await ai.start(), AI_MODEL: 'vision-model', AI_API_KEY: 'sk-test', AI_MONTHLY_CALLS: '3' }) }, function (server) {
  this.timeout(20_000);
  beforeEach(() => {
    ai.calls = [];
    ai.answer = () => completion(aiRecipe());
  });

  async function family() {
    const h = await server.household('Familien Bråten');
    const { client: junior } = await h.join('Junior', 'Sofie Bråten');
    const { client: stranger } = await server.signedIn('Stranger');
    return { owner: h.owner, junior, stranger, id: h.id, base: `${h.base}/recipes`, path: `${h.base}/recipes/import/picture`, choices: `${h.base}/recipes/import/choices` };
  }

  it('tells every member that pictures are read here, and what they may be', async () => {
    const { owner, junior, stranger, choices } = await family();
    for (const member of [owner, junior]) {
      const res = await member.get(choices);
      expect(res.status, res.text).to.equal(200);
      expect(res.json).to.deep.equal({ text: { maxChars: 50_000 }, picture: { mediaTypes: ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'], maxBytes: 10 * 1024 * 1024 } });
    }
    expect((await stranger.get(choices)).status).to.equal(404);
  });

  it('reads a photo into the preview, its lines parsed with confidences, sends the AI the picture and nothing of the household, and saves nothing', async () => {
    const { owner, id, base, path } = await family();
    const bytes = await photo();
    const res = await send(owner, path, bytes, 'image/jpeg');
    expect(res.status, res.text).to.equal(200);
    const p = res.json;
    expect([p.recipe.title, p.recipe.servings, p.recipe.totalMinutes, p.recipe.activeMinutes, p.yields, p.sourceUrl, p.imageUrl]).to.deep.equal(['Fiskekaker', 4, 40, 20, '4 porsjoner', null, null]);
    expect(p.warnings[0]).to.equal('read_by_ai');
    expect(p.recipe.ingredients.map((i: { displayName: string; quantity: number | null; unit: string | null }) => [i.displayName, i.quantity, i.unit])).to.deep.equal([
      ['hyse', 500, 'g'],
      ['egg', 1, 'pcs'],
      ['potetmel', 2, 'tbsp'],
      ['salt', 1, 'tsp'],
      ['muskat', null, null],
    ]);
    expect(p.lines.map((l: { confidence: string }) => l.confidence)).to.deep.equal(['high', 'high', 'high', 'high', 'low']);
    expect((await owner.get(base)).json.total, 'nothing saved').to.equal(0);

    expect(ai.calls).to.have.length(1);
    const call = ai.calls[0]!;
    expect(call.authorization).to.equal('Bearer sk-test');
    expect(call.body['model']).to.equal('vision-model');
    expect(call.body['response_format']).to.deep.equal({ type: 'json_object' });
    const parts = (call.body['messages'] as { role: string; content: unknown }[]).find((m) => m.role === 'user')!.content as { type: string; image_url?: { url: string } }[];
    expect(parts.find((c) => c.type === 'image_url')!.image_url!.url).to.equal(`data:image/jpeg;base64,${bytes.toString('base64')}`);
    // Nothing of the household goes out: not its id, its name, its members' names or addresses.
    const me = (await owner.get('/api/v1/me')).json;
    for (const secret of [id, 'Bråten', 'Familien', 'Sofie', 'Owner', me.email, me.id]) expect(call.text, secret).to.not.contain(secret);

    const saved = await owner.post(base, p.recipe);
    expect(saved.status, saved.text).to.equal(201);
  });

  it('sends a PDF as a file part named recipe.pdf', async () => {
    const { owner, path } = await family();
    const res = await send(owner, path, PDF, 'application/pdf');
    expect(res.status, res.text).to.equal(200);
    const parts = (ai.calls[0]!.body['messages'] as { role: string; content: unknown }[]).find((m) => m.role === 'user')!.content as { type: string; file?: { filename: string; file_data: string } }[];
    expect(parts.find((c) => c.type === 'file')!.file).to.deep.equal({ filename: 'recipe.pdf', file_data: `data:application/pdf;base64,${PDF.toString('base64')}` });
    expect(parts.some((c) => c.type === 'image_url')).to.equal(false);
  });

  it('answers 502 recipe_picture_unreadable for an answer that is not JSON or breaks the schema, 422 when there is no recipe, 502 when the AI fails', async () => {
    const cases: [() => ReturnType<typeof completion>, number, string][] = [
      [() => completion('Here is the recipe: fish cakes with potatoes.'), 502, 'recipe_picture_unreadable'],
      [() => ({ status: 200, body: 'not json at all' }), 502, 'recipe_picture_unreadable'],
      [() => completion({ recipe: { title: 'Fiskekaker', ingredients: [500, 'egg'], steps: [] } }), 502, 'recipe_picture_unreadable'],
      [() => completion({ recipe: { ingredients: ['1 egg'], steps: ['Stek.'] } }), 502, 'recipe_picture_unreadable'],
      [() => completion({ title: 'Fiskekaker' }), 502, 'recipe_picture_unreadable'],
      [() => completion({ recipe: null }), 422, 'recipe_not_in_picture'],
      [() => ({ status: 500, body: { error: 'overloaded' } }), 502, 'recipe_reader_unreachable'],
    ];
    for (const [answer, status, code] of cases) {
      // A household of its own for each, so the quota (3) does not run out.
      const { owner, base, path } = await family();
      ai.answer = answer;
      const res = await send(owner, path, await photo(), 'image/png');
      expect([res.status, res.json?.code], res.text).to.deep.equal([status, code]);
      expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
      expect((await owner.get(base)).json.total).to.equal(0);
    }
  });

  it('refuses a file that is no picture or PDF (422, the AI not asked), a Content-Type it does not take (415) and a file too large (413)', async () => {
    const { owner, path } = await family();
    const text = Buffer.from('Fiskekaker: 500 g hyse, 1 egg.');
    const fake = await send(owner, path, text, 'image/jpeg');
    expect([fake.status, fake.json.code]).to.deep.equal([422, 'recipe_picture_not_supported']);
    const empty = await send(owner, path, new Uint8Array(0), 'image/jpeg');
    expect([empty.status, empty.json.code]).to.deep.equal([422, 'recipe_picture_not_supported']);
    const svg = await send(owner, path, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml');
    expect([svg.status, svg.json.code]).to.deep.equal([415, 'unsupported_media_type']);
    const big = await send(owner, path, Buffer.alloc(10 * 1024 * 1024 + 1), 'image/png');
    expect([big.status, big.json.code]).to.deep.equal([413, 'payload_too_large']);
    expect(ai.calls).to.have.length(0);
    // None of these spent a call: three pictures still go through.
    for (let i = 0; i < 3; i++) expect((await send(owner, path, await photo(), 'image/jpeg')).status).to.equal(200);
  });

  it("counts each picture as one AI call of the household's month: past the quota 429 ai_quota_used with Retry-After", async () => {
    const { owner, path } = await family();
    for (let i = 0; i < 3; i++) expect((await send(owner, path, await photo(), 'image/jpeg')).status).to.equal(200);
    const over = await send(owner, path, await photo(), 'image/jpeg');
    expect([over.status, over.json.code]).to.deep.equal([429, 'ai_quota_used']);
    expect(Number(over.headers.get('retry-after'))).to.be.greaterThan(0);
    expect(ai.calls).to.have.length(3);
    // Another household has its own quota.
    const other = await family();
    expect((await send(other.owner, other.path, await photo(), 'image/jpeg')).status).to.equal(200);
  });

  it('is for adults of the household: a Junior gets 403, someone outside 404, and the AI is not asked', async () => {
    const { junior, stranger, path } = await family();
    const j = await send(junior, path, await photo(), 'image/jpeg');
    expect([j.status, j.json.code]).to.deep.equal([403, 'adults_only']);
    const s = await send(stranger, path, await photo(), 'image/jpeg');
    expect([s.status, s.json.code]).to.deep.equal([404, 'household_not_found']);
    expect(ai.calls).to.have.length(0);
  });
});

httpSuite('recipe import from a picture without an AI over HTTP', {}, function (server) {
  this.timeout(20_000);

  it('says pictures are not read here, and the route answers 404 recipe_reader_unavailable', async () => {
    const h = await server.household();
    const choices = await h.owner.get(`${h.base}/recipes/import/choices`);
    expect([choices.status, choices.json.picture]).to.deep.equal([200, null]);
    const res = await send(h.owner, `${h.base}/recipes/import/picture`, await photo(), 'image/jpeg');
    expect([res.status, res.json.code]).to.deep.equal([404, 'recipe_reader_unavailable']);
  });
});
