import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { httpSuite } from '../support/http-suite.js';

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAMAAAAoyzS7AAAAA1BMVEXAOSuU7d9gAAAACklEQVQI12NgAAAAAgAB4iG8MwAAAABJRU5ErkJggg==', 'base64');
const WEEK = '2026-11-23';
const line = (displayName: string, quantity: number | null = 200, unit: string | null = 'g') => ({ displayName, quantity, unit, optional: false, baseRecipeId: null, reference: null });

/** A document with every id replaced by the order it first appears in, and the export's own moment left out. */
function canonical(doc: Record<string, unknown>): unknown {
  const ids = new Map<string, string>();
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string' && uuid.test(v)) {
      if (!ids.has(v)) ids.set(v, `#${ids.size}`);
      return ids.get(v);
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  const { exportedAt: _at, ...rest } = doc;
  return walk(rest);
}

let images: Server;
let imageUrl: string;
async function startImages() {
  images = createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(PNG));
  await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
  const { port } = images.address() as AddressInfo;
  imageUrl = `http://127.0.0.1:${port}/suppe.png`;
  return { OUTBOUND_ALLOW_HOSTS: `127.0.0.1:${port}`, HOUSEHOLD_IMPORT_MAX_BYTES: String(2 * 1024 * 1024) };
}

httpSuite('household export and import', { env: startImages }, function (server) {
  this.timeout(30_000);
  after(() => new Promise<void>((resolve) => images.close(() => resolve())));

  /** A household with something of every part: members, recipes (a base, a picture), a plan, events, the pantry and a shopping trip. */
  async function richHousehold() {
    const h = await server.household('Berg');
    const { owner, base } = h;
    const adult = await h.join('Adult', 'Eva');
    const ola = (await owner.post(`${base}/members`, { displayName: 'Ola', role: 'Junior' })).json;
    expect((await owner.patch(base, { language: 'en', dinnerTime: '17:30', chains: ['KIWI'], dislikes: ['koriander'], libraryRecipesOn: true })).status).to.equal(200);
    const dough = (await owner.post(`${base}/recipes`, { title: 'Pizzadeig', servings: 4, activeMinutes: 10, totalMinutes: 60, steps: ['Elt'], ingredients: [line('hvetemel', 500), line('gjær', 1, 'pk')] })).json;
    const pizza = (
      await owner.post(`${base}/recipes`, {
        title: 'Pizza',
        servings: 4,
        activeMinutes: 20,
        totalMinutes: 90,
        steps: ['Kjevle ut', 'Stek'],
        tags: ['Helg', 'barn liker'],
        ingredients: [{ ...line('Pizzadeig', 1, null), baseRecipeId: dough.id }, line('tomatsaus'), { ...line('basilikum', null, null), optional: true }, { ...line('ost', null, null), reference: null }],
      })
    ).json;
    const soup = (await owner.post(`${base}/recipes`, { title: 'Suppe', servings: 2, activeMinutes: null, totalMinutes: null, steps: [], ingredients: [line('gulrøtter', 300)], imageUrl })).json;
    expect(soup.image?.mediaType).to.equal('image/png');
    const plan = (await owner.put(`${base}/plans/week/${WEEK}`)).json;
    expect((await owner.put(`${base}/plans/${plan.id}/days/2026-11-24`, { recipeId: pizza.id, portions: 6, note: 'Fredagspizza på en tirsdag' })).status).to.equal(200);
    expect((await owner.put(`${base}/plans/${plan.id}/days/2026-11-26`, { recipeId: soup.id, portions: null, note: null })).status).to.equal(200);
    const guests = {
      date: '2026-11-24',
      eventType: 'Guests',
      servingTime: '18:00',
      availableCookingMinutes: 90,
      notes: 'Besteforeldre',
      guests: [{ guestType: 'Adult', guestCount: 2, dietaryNotes: 'Ingen nøtter', avoids: ['nøtter'] }],
      memberAttendance: [{ householdMemberId: ola.id, isPresent: false, dietaryNotes: null }],
    };
    expect((await owner.post(`${base}/events`, guests)).status).to.equal(201);
    const obs = `${base}/inventory/observations`;
    for (const o of [
      { displayName: 'Cherrytomater', observationType: 'Purchased', quantity: 250, unit: 'g', storageLocation: 'Fridge', bestBefore: '2026-11-30' },
      { displayName: 'Tomater', observationType: 'Seen', quantity: 4, unit: 'stk', storageLocation: 'Pantry' },
      { displayName: 'Løk', observationType: 'Purchased', quantity: 3, unit: 'stk', storageLocation: 'Pantry' },
    ]) {
      expect((await owner.post(obs, o)).status).to.be.oneOf([200, 201]);
    }
    expect((await owner.post(`${base}/inventory/merges`, { fromKey: 'cherrytomat', toKey: 'tomat', source: 'Manual' })).status).to.equal(200);
    expect((await owner.post(`${base}/inventory/merge-rejections`, { keyA: 'løk', keyB: 'rødløk' })).status).to.equal(204);
    expect((await owner.put(`${base}/inventory/unit-weights/løk/stk`, { grams: 110 })).status).to.equal(200);
    const list = `${base}/plans/${plan.id}/shopping-list`;
    const shopping = (await owner.get(list)).json;
    expect(shopping.items.length).to.be.greaterThan(0);
    const added = (await owner.post(`${list}/items`, { displayName: 'Kaffe', quantity: 1, unit: 'pk' })).json;
    const coffee = (added.items ?? added.list?.items ?? []).find((i: { displayName: string }) => i.displayName === 'Kaffe') ?? added;
    expect((await owner.patch(`${base}/shopping-items/${coffee.id}`, { status: 'Purchased' })).status).to.equal(200);
    expect((await owner.post(`${list}/complete?markAllBought=false`)).status).to.equal(200);
    return { ...h, adult, plan, list };
  }

  it('an export makes the same household elsewhere: every part, the pictures, the list; exporting that again gives the same document but its ids', async () => {
    const h = await richHousehold();
    const res = await h.owner.get(`${h.base}/export`);
    expect(res.status, res.text).to.equal(200);
    expect(res.headers.get('content-disposition')).to.match(/^attachment; filename="Berg-\d{4}-\d{2}-\d{2}\.json"/);
    const doc = res.json;
    // The published schema describes it.
    const schemaRes = await new (await import('../support/client.js')).Client(server.url).get(new URL(doc.$schema).pathname);
    expect(schemaRes.status).to.equal(200);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const validate = ajv.compile(schemaRes.json);
    expect(validate(doc), JSON.stringify(validate.errors?.slice(0, 3))).to.equal(true);
    expect([doc.format, doc.version, doc.members.length, doc.recipes.length, doc.plans.length, doc.mealEvents.length, doc.shoppingLists.length]).to.deep.equal(['dinner-household', 1, 3, 3, 1, 1, 1]);
    // Three seen and bought by hand, and the coffee the closed trip wrote.
    expect(doc.pantry.observations.map((o: { displayName: string }) => o.displayName)).to.have.members(['Cherrytomater', 'Tomater', 'Løk', 'Kaffe']);
    expect(doc.shoppingLists[0].trip.observationIds).to.have.length(1);
    expect(doc.pantry.merges.map((m: { fromKey: string; toKey: string }) => [m.fromKey, m.toKey])).to.deep.equal([['cherrytomat', 'tomat']]);
    expect(doc.pantry.unitWeights.map((w: { grams: number }) => w.grams)).to.deep.equal([110]);
    expect(Buffer.from(doc.recipes.find((r: { title: string }) => r.title === 'Suppe').image.data, 'base64').equals(PNG)).to.equal(true);
    const tagsOf = (recipes: { title: string; tags: string[] }[]) => recipes.map((r) => [r.title, r.tags]);
    expect(tagsOf(doc.recipes)).to.have.deep.members([
      ['Pizzadeig', []],
      ['Pizza', ['helg', 'barn liker']],
      ['Suppe', []],
    ]);
    // No account, address or password of anyone.
    expect(res.text).not.to.match(/@example\.com|passwordHash|\$argon2|accountId|securityStamp/);

    // Someone else, on "another instance", makes a household of it.
    const { client: per } = await server.signedIn('Per');
    const made = await per.request('POST', '/api/v1/households/import', { rawBody: res.text, headers: { 'Content-Type': 'application/json' } });
    expect(made.status, made.text).to.equal(201);
    expect(made.headers.get('location')).to.equal(`/api/v1/households/${made.json.id}`);
    expect(made.json.id).not.to.equal(h.id);
    const members = made.json.members.map((m: { displayName: string; role: string; userId: string | null }) => [m.displayName, m.role, m.userId !== null]);
    expect(members).to.have.deep.members([
      ['Owner', 'Owner', true],
      ['Eva', 'Adult', false],
      ['Ola', 'Junior', false],
    ]);
    expect([made.json.plan, made.json.language, made.json.dinnerTime]).to.deep.equal(['Free', 'en', '17:30']);
    const nb = `/api/v1/households/${made.json.id}`;
    const again = await per.get(`${nb}/export`);
    expect(again.status).to.equal(200);
    expect(canonical(again.json)).to.deep.equal(canonical(doc));
    // The new household works as itself: its list reads as the old one did, and the picture is served.
    const newPlan = (await per.put(`${nb}/plans/week/${WEEK}`)).json;
    expect(newPlan.days.find((d: { date: string }) => d.date === '2026-11-24').note).to.equal('Fredagspizza på en tirsdag');
    const oldList = (await h.owner.get(h.list)).json;
    const newList = (await per.get(`${nb}/plans/${newPlan.id}/shopping-list`)).json;
    const shape = (l: { items: { displayName: string; requiredQuantity: number; unit: string; status: string }[]; completedAt: string | null }) => ({
      done: l.completedAt,
      items: l.items.map((i) => [i.displayName, i.requiredQuantity, i.unit, i.status]),
    });
    expect(shape(newList)).to.deep.equal(shape(oldList));
    const soup = (await per.get(`${nb}/recipes?q=suppe`)).json.items[0];
    expect((await per.get(`${nb}/recipes?tag=helg`)).json.items.map((r: { title: string }) => r.title)).to.deep.equal(['Pizza']);
    expect((await per.get(`${nb}/recipe-tags`)).json.items).to.deep.equal([
      { tag: 'barn liker', count: 1 },
      { tag: 'helg', count: 1 },
    ]);
    const picture = await fetch(`${server.url}${soup.image.href}`, { headers: { Cookie: `app_session=${per.cookie}` } });
    expect(Buffer.from(await picture.arrayBuffer()).equals(PNG)).to.equal(true);
    // The old household is as it was.
    expect((await h.owner.get(h.base)).json.members.length).to.equal(3);
  });

  it('imports a document written before recipes had tags (its recipes come with none), and tags in tag form, each once', async () => {
    const h = await server.household('Moe');
    expect((await h.owner.post(`${h.base}/recipes`, { title: 'Grøt', servings: 2, activeMinutes: null, totalMinutes: 20, steps: [], ingredients: [line('ris', 200)], tags: ['frokost'] })).status).to.equal(201);
    const doc = (await h.owner.get(`${h.base}/export`)).json;
    const { client } = await server.signedIn();
    const send = (body: unknown) => client.request('POST', '/api/v1/households/import', { rawBody: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });
    const tagsAfter = async (body: unknown) => {
      const res = await send(body);
      expect(res.status, res.text).to.equal(201);
      return (await client.get(`/api/v1/households/${res.json.id}/recipes`)).json.items.map((r: { tags: string[] }) => r.tags);
    };
    const { tags: _tags, ...untagged } = doc.recipes[0];
    expect(await tagsAfter({ ...doc, recipes: [untagged] })).to.deep.equal([[]]);
    expect(await tagsAfter({ ...doc, recipes: [{ ...doc.recipes[0], tags: [' Frokost ', 'FROKOST', 'Barn  liker'] }] })).to.deep.equal([['frokost', 'barn liker']]);
    const before = (await client.get('/api/v1/me')).json.memberships.length;
    for (const [tags, code] of [
      [Array.from({ length: 13 }, (_, i) => `t${i}`), 'value_too_long'],
      [['x'.repeat(33)], 'value_too_long'],
      [[' '], 'validation_failed'],
    ] as const) {
      const res = await send({ ...doc, recipes: [{ ...doc.recipes[0], tags }] });
      expect([res.status, res.json.code], res.text).to.deep.equal([400, code]);
    }
    expect((await client.get('/api/v1/me')).json.memberships.length).to.equal(before);
  });

  it('only an Owner exports; a member who is not, or a stranger, is refused', async () => {
    const h = await server.household();
    const adult = await h.join('Adult');
    const adultRes = await adult.client.get(`${h.base}/export`);
    expect([adultRes.status, adultRes.json.code]).to.deep.equal([403, 'owner_only']);
    const { client: stranger } = await server.signedIn();
    const strangerRes = await stranger.get(`${h.base}/export`);
    expect([strangerRes.status, strangerRes.json.code]).to.deep.equal([404, 'household_not_found']);
    expect((await new (await import('../support/client.js')).Client(server.url).get(`${h.base}/export`)).status).to.equal(401);
  });

  it('a file that cannot make a household is refused with a sentence of where, and nothing is written', async () => {
    const h = await server.household('Lie');
    const recipe = (await h.owner.post(`${h.base}/recipes`, { title: 'Grøt', servings: 2, activeMinutes: null, totalMinutes: 20, steps: [], ingredients: [line('ris', 200)] })).json;
    expect(recipe.id).to.be.a('string');
    expect((await h.owner.put(`${h.base}/plans/week/${WEEK}`)).status).to.be.oneOf([200, 201]);
    const doc = (await h.owner.get(`${h.base}/export`)).json;
    const { client } = await server.signedIn();
    const households = async () => (await client.get('/api/v1/me')).json.memberships.length;
    const send = (body: unknown) => client.request('POST', '/api/v1/households/import', { rawBody: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });
    const cases: [unknown, number, string, RegExp?][] = [
      ['{ not json', 400, 'validation_failed'],
      [JSON.stringify({ ...doc, household: { ...doc.household, name: 'Lie\u0000' } }), 400, 'validation_failed', /NUL/],
      [{ hello: 'world' }, 400, 'not_a_household_document'],
      [{ ...doc, version: 2 }, 400, 'household_document_too_new', /version 2/],
      [{ ...doc, members: [] }, 400, 'household_document_invalid', /exportedBy/],
      [{ ...doc, household: { ...doc.household, name: '' } }, 400, 'validation_failed', /household\.name/],
      [{ ...doc, household: { ...doc.household, timeZoneId: 'Mars/Olympus' } }, 400, 'time_zone_unknown'],
      [{ ...doc, recipes: [{ ...doc.recipes[0], ingredients: [{ ...doc.recipes[0].ingredients[0], baseRecipeId: '00000000-0000-4000-8000-000000000000' }] }] }, 400, 'household_document_invalid', /recipes\.0\.ingredients\.0\.baseRecipeId/],
      [{ ...doc, recipes: [{ ...doc.recipes[0], image: { sourceUrl: 'https://x.example/a.png', mediaType: 'image/png', data: Buffer.from('<svg onload="alert(1)"/>').toString('base64') } }] }, 400, 'household_document_invalid', /recipes\.0\.image\.data/],
      [{ ...doc, plans: [{ ...doc.plans[0], weekStart: '2026-11-24' }] }, 400, 'household_document_invalid', /plans\.0\.weekStart/],
      [{ ...doc, recipes: [...doc.recipes, doc.recipes[0]] }, 400, 'household_document_invalid', /recipes\.1\.id/],
    ];
    for (const [body, status, code, detail] of cases) {
      const res = await send(body);
      expect([res.status, res.json?.code], res.text).to.deep.equal([status, code]);
      if (detail) expect(res.json.detail).to.match(detail);
    }
    const wrongType = await client.request('POST', '/api/v1/households/import', { rawBody: JSON.stringify(doc), headers: { 'Content-Type': 'text/plain' } });
    expect(wrongType.status).to.equal(415);
    const big = await send({ ...doc, padding: 'x'.repeat(2 * 1024 * 1024) });
    expect([big.status, big.json.code]).to.deep.equal([413, 'payload_too_large']);
    expect(await households()).to.equal(0);
    // The same file, whole, makes the household.
    expect((await send(doc)).status).to.equal(201);
    expect(await households()).to.equal(1);
  });

  it('replays an import sent twice under one Idempotency-Key: one household, the same answer', async () => {
    const h = await server.household('Dahl');
    const text = (await h.owner.get(`${h.base}/export`)).text;
    const { client } = await server.signedIn();
    const send = (key: string) => client.request('POST', '/api/v1/households/import', { rawBody: text, headers: { 'Content-Type': 'application/json', 'Idempotency-Key': key } });
    const first = await send('import-1');
    const again = await send('import-1');
    expect([first.status, again.status, again.headers.get('idempotent-replayed')]).to.deep.equal([201, 201, 'true']);
    expect(again.json.id).to.equal(first.json.id);
    expect((await client.get('/api/v1/me')).json.memberships.length).to.equal(1);
    // Another file under the same key is another request.
    const other = await client.request('POST', '/api/v1/households/import', { rawBody: text.replace('"Dahl"', '"Dahl 2"'), headers: { 'Content-Type': 'application/json', 'Idempotency-Key': 'import-1' } });
    expect([other.status, other.json.code]).to.deep.equal([422, 'idempotency_key_reused']);
  });
});
