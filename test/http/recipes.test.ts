import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Client } from '../support/client.js';
import { httpSuite } from '../support/http-suite.js';
import { onionSoup, onionSoupRead, onions, tomatoes, tomatoSoup } from '../support/recipes.js';

const ingredient = (over: Record<string, unknown> = {}) => ({ ...tomatoes, ...over });

const recipeBody = (over: Record<string, unknown> = {}) => ({
  ...tomatoSoup,
  steps: ['Kok opp tomatene.', 'Mos og smak til.'],
  ingredients: [ingredient()],
  ...over,
});

httpSuite('recipes over HTTP', {}, (server) => {
  /** A household of its own: the Owner, a Junior of it, and someone not in it. */
  async function family() {
    const { client: owner } = await server.signedIn('Kari');
    const { client: junior } = await server.signedIn('Junior');
    const { client: stranger } = await server.signedIn('Stranger');
    const res = await owner.post('/api/v1/households', { name: 'Hansen' });
    expect(res.status, res.text).to.equal(201);
    const h: string = res.json.id;
    const me = (await junior.get('/api/v1/me')).json;
    await server.runtime.deps.households.addMember(h, { id: randomUUID(), displayName: 'Junior', role: 'Junior', accountId: me.user.id, createdAt: new Date('2026-05-01T00:00:00.000Z') });
    return { owner, junior, stranger, h, base: `/api/v1/households/${h}/recipes` };
  }

  async function create(client: Client, base: string, body: Record<string, unknown> = recipeBody()) {
    const res = await client.post(base, body);
    expect(res.status, res.text).to.equal(201);
    return res.json;
  }

  it('creates a recipe (201, Location, food keys) that every member reads back', async () => {
    const { owner, junior, base } = await family();
    const body = recipeBody({
      title: '  Pizza Margherita ',
      ingredients: [
        ingredient({ displayName: ' Cherry Tomatoes ', quantity: 0.25, unit: 'kg' }),
        ingredient({ displayName: 'Crème fraîche', quantity: null, unit: null, optional: true }),
        ingredient({ displayName: 'Pizzadeig', quantity: 1, reference: 'se pizzadeigen' }),
        ingredient({ displayName: 'Gulrøtter', quantity: 2, unit: 'stk' }),
      ],
    });
    const res = await owner.post(base, body);
    expect(res.status, res.text).to.equal(201);
    const r = res.json;
    expect(res.headers.get('location')).to.equal(`${base}/${r.id}`);
    expect(r).to.deep.equal({
      id: r.id,
      title: 'Pizza Margherita',
      servings: 4,
      activeMinutes: 15,
      totalMinutes: 30,
      steps: ['Kok opp tomatene.', 'Mos og smak til.'],
      ingredients: [
        { displayName: 'Cherry Tomatoes', foodKey: 'cherry-tomato', quantity: 0.25, unit: 'kg', optional: false, baseRecipeId: null, reference: null },
        { displayName: 'Crème fraîche', foodKey: 'creme-fraiche', quantity: null, unit: null, optional: true, baseRecipeId: null, reference: null },
        { displayName: 'Pizzadeig', foodKey: 'pizzadeig', quantity: 1, unit: null, optional: false, baseRecipeId: null, reference: 'se pizzadeigen' },
        { displayName: 'Gulrøtter', foodKey: 'gulrot', quantity: 2, unit: 'stk', optional: false, baseRecipeId: null, reference: null },
      ],
      // Sent by no client older than recipe import: none, and no picture.
      sourceUrl: null,
      imageUrl: null,
      // Sent by no client older than tags: none.
      tags: [],
      image: null,
      createdAt: r.createdAt,
      updatedAt: r.createdAt,
    });
    expect(Date.parse(r.createdAt)).to.be.a('number').and.not.NaN;
    expect((await owner.get(`${base}/${r.id}`)).json).to.deep.equal(r);
    const asJunior = await junior.get(`${base}/${r.id}`);
    expect(asJunior.status).to.equal(200);
    expect(asJunior.json).to.deep.equal(r);
  });

  it('accepts PascalCase property names', async () => {
    const { owner, base } = await family();
    const res = await owner.post(base, {
      Title: 'Taco',
      Servings: 4,
      ActiveMinutes: null,
      TotalMinutes: null,
      Steps: [],
      Ingredients: [{ DisplayName: 'Lomper', Quantity: 8, Unit: null, Optional: false, BaseRecipeId: null, Reference: null }],
    });
    expect(res.status, res.text).to.equal(201);
    expect(res.json.ingredients[0]).to.include({ displayName: 'Lomper', foodKey: 'lompe' });
  });

  it('refuses bodies out of shape (400 validation_failed) and over a limit (400 value_too_long), writing nothing', async () => {
    const { owner, base } = await family();
    const failed: Record<string, unknown>[] = [
      {},
      recipeBody({ title: '   ' }),
      recipeBody({ title: null }),
      recipeBody({ servings: 0 }),
      recipeBody({ servings: 101 }),
      recipeBody({ servings: 2.5 }),
      recipeBody({ activeMinutes: -1 }),
      recipeBody({ activeMinutes: 1.5 }),
      recipeBody({ activeMinutes: 40, totalMinutes: 30 }),
      recipeBody({ totalMinutes: 10_081 }),
      recipeBody({ steps: ['   '] }),
      recipeBody({ steps: 'Kok' }),
      recipeBody({ ingredients: [ingredient({ displayName: '' })] }),
      recipeBody({ ingredients: [ingredient({ displayName: '!!!' })] }),
      recipeBody({ ingredients: [ingredient({ quantity: 0 })] }),
      recipeBody({ ingredients: [ingredient({ quantity: -2 })] }),
      recipeBody({ ingredients: [ingredient({ quantity: 100_001 })] }),
      recipeBody({ ingredients: [ingredient({ quantity: '2' })] }),
      recipeBody({ ingredients: [ingredient({ optional: undefined })] }),
      recipeBody({ ingredients: [ingredient({ baseRecipeId: 'not-a-uuid' })] }),
      recipeBody({ ingredients: [ingredient({ baseRecipeId: randomUUID(), reference: 'both' })] }),
      recipeBody({ ingredients: [ingredient({ unit: '' })] }),
    ];
    for (const body of failed) {
      const res = await owner.post(base, body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.json.code, JSON.stringify(body)).to.equal('validation_failed');
    }
    const tooLong: Record<string, unknown>[] = [
      recipeBody({ title: 'x'.repeat(201) }),
      recipeBody({ steps: ['x'.repeat(2001)] }),
      recipeBody({ steps: Array.from({ length: 101 }, (_, i) => `Steg ${i}`) }),
      recipeBody({ ingredients: Array.from({ length: 101 }, () => ingredient()) }),
      recipeBody({ ingredients: [ingredient({ displayName: 'x'.repeat(201) })] }),
      recipeBody({ ingredients: [ingredient({ unit: 'x'.repeat(33) })] }),
      recipeBody({ ingredients: [ingredient({ reference: 'x'.repeat(201) })] }),
    ];
    for (const body of tooLong) {
      const res = await owner.post(base, body);
      expect(res.status).to.equal(400);
      expect(res.json.code).to.equal('value_too_long');
    }
    const atLimits = recipeBody({
      title: 'x'.repeat(200),
      servings: 100,
      activeMinutes: 0,
      totalMinutes: 10_080,
      steps: Array.from({ length: 100 }, () => 'y'.repeat(2000)),
      ingredients: Array.from({ length: 100 }, (_, i) => ingredient({ displayName: `Ingrediens ${i}`, quantity: 100_000, unit: 'u'.repeat(32) })),
    });
    const ok = await owner.post(base, atLimits);
    expect(ok.status, ok.text).to.equal(201);
    expect(ok.json.ingredients.map((i: { displayName: string }) => i.displayName)).to.deep.equal(Array.from({ length: 100 }, (_, i) => `Ingrediens ${i}`));
    expect((await owner.get(base)).json.total).to.equal(1);
  });

  it('lets a Junior read but not write (403 adults_only), and answers 404 household_not_found to a stranger', async () => {
    const { owner, junior, stranger, base } = await family();
    const r = await create(owner, base);
    for (const res of [await junior.post(base, recipeBody()), await junior.put(`${base}/${r.id}`, recipeBody({ title: 'Nei' })), await junior.delete(`${base}/${r.id}`)]) {
      expect(res.status).to.equal(403);
      expect(res.json.code).to.equal('adults_only');
    }
    expect((await junior.get(base)).json.total).to.equal(1);
    for (const res of [
      await stranger.post(base, recipeBody()),
      await stranger.get(base),
      await stranger.get(`${base}/${r.id}`),
      await stranger.put(`${base}/${r.id}`, recipeBody()),
      await stranger.delete(`${base}/${r.id}`),
    ]) {
      expect(res.status).to.equal(404);
      expect(res.json.code).to.equal('household_not_found');
    }
    expect((await owner.get(`${base}/${r.id}`)).json).to.deep.equal(r);
  });

  it("answers 404 recipe_not_found for an unknown id and for another household's recipe", async () => {
    const a = await family();
    const b = await family();
    const theirs = await create(b.owner, b.base);
    for (const id of [randomUUID(), theirs.id]) {
      for (const res of [await a.owner.get(`${a.base}/${id}`), await a.owner.put(`${a.base}/${id}`, recipeBody()), await a.owner.delete(`${a.base}/${id}`)]) {
        expect(res.status).to.equal(404);
        expect(res.json.code).to.equal('recipe_not_found');
      }
    }
    expect((await a.owner.get(`${a.base}/not-a-uuid`)).status).to.equal(400);
    expect((await b.owner.get(`${b.base}/${theirs.id}`)).json).to.deep.equal(theirs);
  });

  it('replaces a recipe whole with PUT, keeping createdAt', async () => {
    const { owner, base } = await family();
    const r = await create(owner, base, recipeBody({ ingredients: [ingredient(), ingredient({ displayName: 'Løk' }), ingredient({ displayName: 'Salt' })] }));
    const res = await owner.put(`${base}/${r.id}`, recipeBody({ ...onionSoup(), ingredients: [ingredient(onions)] }));
    expect(res.status, res.text).to.equal(200);
    expect(res.json).to.deep.equal({
      id: r.id,
      ...onionSoupRead(),
      tags: [],
      createdAt: r.createdAt,
      updatedAt: res.json.updatedAt,
    });
    expect(Date.parse(res.json.updatedAt)).to.be.at.least(Date.parse(r.updatedAt));
    expect((await owner.get(`${base}/${r.id}`)).json).to.deep.equal(res.json);
    const bad = await owner.put(`${base}/${r.id}`, recipeBody({ servings: 0 }));
    expect(bad.status).to.equal(400);
  });

  it("refuses another household's recipe as a base (400 base_recipe_unknown) and cycles (400 recipe_cycle)", async () => {
    const a = await family();
    const b = await family();
    const theirs = await create(b.owner, b.base, recipeBody({ title: 'Deres deig' }));
    for (const id of [theirs.id, randomUUID()]) {
      const res = await a.owner.post(a.base, recipeBody({ ingredients: [ingredient({ displayName: 'Deig', baseRecipeId: id })] }));
      expect(res.status).to.equal(400);
      expect(res.json.code).to.equal('base_recipe_unknown');
    }
    const dough = await create(a.owner, a.base, recipeBody({ title: 'Pizzadeig' }));
    const pizza = await create(a.owner, a.base, recipeBody({ title: 'Pizza', ingredients: [ingredient({ displayName: 'Deig', baseRecipeId: dough.id })] }));
    const calzone = await create(a.owner, a.base, recipeBody({ title: 'Calzone', ingredients: [ingredient({ displayName: 'Pizza', baseRecipeId: pizza.id })] }));
    expect(pizza.ingredients[0].baseRecipeId).to.equal(dough.id);
    for (const target of [dough.id, pizza.id, calzone.id]) {
      const res = await a.owner.put(`${a.base}/${dough.id}`, recipeBody({ title: 'Pizzadeig', ingredients: [ingredient({ displayName: 'Sirkel', baseRecipeId: target })] }));
      expect(res.status, target).to.equal(400);
      expect(res.json.code).to.equal('recipe_cycle');
    }
    expect((await a.owner.get(`${a.base}/${dough.id}`)).json).to.deep.equal(dough);
    const theirBase = await a.owner.put(`${a.base}/${dough.id}`, recipeBody({ ingredients: [ingredient({ baseRecipeId: theirs.id })] }));
    expect(theirBase.json.code).to.equal('base_recipe_unknown');
  });

  it('deletes a recipe (204); recipes built on it keep the line as a reference to its title', async () => {
    const { owner, base } = await family();
    const sauce = await create(owner, base, recipeBody({ title: 'Tomatsaus' }));
    const pasta = await create(owner, base, recipeBody({ title: 'Pasta', ingredients: [ingredient({ displayName: 'Saus', baseRecipeId: sauce.id }), ingredient({ displayName: 'Spagetti' })] }));
    const res = await owner.delete(`${base}/${sauce.id}`);
    expect(res.status).to.equal(204);
    expect(res.text).to.equal('');
    expect((await owner.get(`${base}/${sauce.id}`)).json.code).to.equal('recipe_not_found');
    expect((await owner.delete(`${base}/${sauce.id}`)).json.code).to.equal('recipe_not_found');
    const after = (await owner.get(`${base}/${pasta.id}`)).json;
    expect(after.ingredients).to.deep.equal([
      { ...pasta.ingredients[0], baseRecipeId: null, reference: 'Tomatsaus' },
      pasta.ingredients[1],
    ]);
    expect(after.createdAt).to.equal(pasta.createdAt);
    expect((await owner.get(base)).json.total).to.equal(1);
  });

  it('lists by title without regard to case, then id, filtered by q, paged by opaque cursors', async () => {
    const { owner, junior, base } = await family();
    const other = await family();
    await create(other.owner, other.base, recipeBody({ title: 'Pizza' }));
    const titles = ['pizza', 'Pasta', 'Ærtesuppe', 'lasagne', 'Pizza bianca', 'Apple pie', 'apple crumble'];
    for (const title of titles) await create(owner, base, recipeBody({ title }));
    const all = await owner.get(base);
    expect(all.status).to.equal(200);
    expect(all.json.items.map((r: { title: string }) => r.title)).to.deep.equal(['apple crumble', 'Apple pie', 'lasagne', 'Pasta', 'pizza', 'Pizza bianca', 'Ærtesuppe']);
    expect(all.json).to.include({ total: 7, nextCursor: null });

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await junior.get(`${base}?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(page.status, page.text).to.equal(200);
      expect(page.json.total).to.equal(7);
      expect(page.json.items.length).to.be.at.most(3);
      seen.push(...page.json.items.map((r: { title: string }) => r.title));
      cursor = page.json.nextCursor;
      pages++;
    } while (cursor !== null);
    expect(pages).to.equal(3);
    expect(seen).to.deep.equal(all.json.items.map((r: { title: string }) => r.title));

    const pizzas = await owner.get(`${base}?q=PIZ&limit=1`);
    expect(pizzas.json.items.map((r: { title: string }) => r.title)).to.deep.equal(['pizza']);
    expect(pizzas.json.total).to.equal(2);
    const next: string = pizzas.json.nextCursor;
    expect(next).to.be.a('string');
    const second = await owner.get(`${base}?q=piz&limit=1&cursor=${encodeURIComponent(next)}`);
    expect(second.json).to.include({ total: 2, nextCursor: null });
    expect(second.json.items.map((r: { title: string }) => r.title)).to.deep.equal(['Pizza bianca']);
    expect((await owner.get(`${base}?q=ært`)).json.items.map((r: { title: string }) => r.title)).to.deep.equal(['Ærtesuppe']);
    expect((await owner.get(`${base}?q=zzz`)).json).to.deep.equal({ items: [], nextCursor: null, total: 0 });

    const [payload, tag] = next.split('.') as [string, string];
    const forged = `${Buffer.from(JSON.stringify(['a', randomUUID()])).toString('base64url')}.${tag}`;
    const foreign = [
      `${base}?cursor=${encodeURIComponent(next)}`, // another filter
      `${base}?q=pasta&cursor=${encodeURIComponent(next)}`,
      `${other.base}?q=piz&cursor=${encodeURIComponent(next)}`, // another household
      `${base}?q=piz&cursor=${encodeURIComponent(forged)}`,
      `${base}?q=piz&cursor=${encodeURIComponent(`${payload}.${'A'.repeat(22)}`)}`,
      `${base}?cursor=not-a-cursor`,
      `${base}?cursor=`,
      `${base}?cursor=${'x'.repeat(9000)}`,
    ];
    for (const url of foreign) {
      const who = url.startsWith(other.base) ? other.owner : owner;
      const res = await who.get(url);
      expect(res.status, url.slice(0, 200)).to.equal(400);
      expect(res.json.code).to.equal('validation_failed');
    }
    for (const limit of ['0', '101', 'abc', '-1', '2.5', '']) {
      const res = await owner.get(`${base}?limit=${limit}`);
      expect(res.status, limit).to.equal(400);
      expect(res.json.code).to.equal('validation_failed');
    }
    expect((await owner.get(`${base}?limit=100`)).json.items).to.have.length(7);
    expect((await owner.get(`${base}?limit=1`)).json.items).to.have.length(1);
  });

  it('keeps tags in one form, each once; left out on PUT keeps them, [] clears them', async () => {
    const { owner, junior, base } = await family();
    const r = await create(owner, base, recipeBody({ tags: ['  Hverdag ', 'barn   LIKER', 'hverdag', 'Fisk', 'x'.repeat(32)] }));
    expect(r.tags).to.deep.equal(['hverdag', 'barn liker', 'fisk', 'x'.repeat(32)]);
    expect((await junior.get(`${base}/${r.id}`)).json.tags).to.deep.equal(r.tags);
    // A client older than tags sends none: the recipe keeps its own.
    const kept = await owner.put(`${base}/${r.id}`, recipeBody({ title: 'Fiskesuppe' }));
    expect(kept.status, kept.text).to.equal(200);
    expect(kept.json.tags).to.deep.equal(r.tags);
    const twelve = Array.from({ length: 12 }, (_, i) => `Tagg ${i}`);
    const full = await owner.put(`${base}/${r.id}`, recipeBody({ Tags: twelve }));
    expect(full.status, full.text).to.equal(200);
    expect(full.json.tags).to.deep.equal(twelve.map((t) => t.toLowerCase()));
    const cleared = await owner.put(`${base}/${r.id}`, recipeBody({ tags: [] }));
    expect(cleared.json.tags).to.deep.equal([]);
    expect((await owner.get(`${base}/${r.id}`)).json.tags).to.deep.equal([]);
  });

  it('refuses too many tags or one too long (400 value_too_long) and a blank or non-text one (400 validation_failed), changing nothing', async () => {
    const { owner, base } = await family();
    const r = await create(owner, base, recipeBody({ tags: ['hverdag'] }));
    const refused: [unknown, string][] = [
      [Array.from({ length: 13 }, (_, i) => `t${i}`), 'value_too_long'],
      [['x'.repeat(33)], 'value_too_long'],
      [['fisk', ` ${'y'.repeat(32)} `], 'value_too_long'],
      [[''], 'validation_failed'],
      [['   '], 'validation_failed'],
      [[42], 'validation_failed'],
      [[null], 'validation_failed'],
      ['hverdag', 'validation_failed'],
      [null, 'validation_failed'],
    ];
    for (const [tags, code] of refused) {
      for (const res of [await owner.post(base, recipeBody({ title: 'Ny', tags })), await owner.put(`${base}/${r.id}`, recipeBody({ title: 'Endret', tags }))]) {
        expect(res.status, JSON.stringify(tags)).to.equal(400);
        expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
        expect(res.json.code, JSON.stringify(tags)).to.equal(code);
      }
    }
    const list = (await owner.get(base)).json;
    expect(list.total).to.equal(1);
    expect(list.items[0]).to.deep.equal(r);
    expect((await owner.get(base.replace(/recipes$/, 'recipe-tags'))).json).to.deep.equal({ items: [{ tag: 'hverdag', count: 1 }], total: 1 });
  });

  it('finds by title, ingredient or tag in any case (Ørret by ørret and ØRRET), filters by tag, and pages both', async () => {
    const { owner, junior, base } = await family();
    const other = await family();
    await create(other.owner, other.base, recipeBody({ title: 'Ørret', tags: ['fisk'] }));
    const trout = await create(owner, base, recipeBody({ title: 'Ørret i ovn', ingredients: [ingredient({ displayName: 'Sitron' })], tags: ['Fisk', 'helg'] }));
    const salad = await create(owner, base, recipeBody({ title: 'Salat', ingredients: [ingredient({ displayName: 'Røkt ørret' })], tags: ['hverdag'] }));
    const taco = await create(owner, base, recipeBody({ title: 'Taco', ingredients: [ingredient({ displayName: 'Kjøttdeig' })], tags: ['barn liker', 'hverdag'] }));
    await create(owner, base, recipeBody({ title: 'Pizza', ingredients: [ingredient({ displayName: 'Ost' })], tags: ['helg'] }));
    const titles = async (query: string) => {
      const res = await junior.get(`${base}?${query}`);
      expect(res.status, res.text).to.equal(200);
      return res.json.items.map((x: { title: string }) => x.title);
    };
    expect(await titles(`q=${encodeURIComponent('Ørret')}`)).to.deep.equal(['Salat', 'Ørret i ovn']);
    expect(await titles(`q=${encodeURIComponent('ørret')}`)).to.deep.equal(['Salat', 'Ørret i ovn']);
    expect(await titles(`q=${encodeURIComponent('ØRRET')}`)).to.deep.equal(['Salat', 'Ørret i ovn']);
    expect(await titles(`q=${encodeURIComponent('kjøtt')}`)).to.deep.equal(['Taco']);
    expect(await titles(`q=${encodeURIComponent('BARN LIKER')}`)).to.deep.equal(['Taco']);
    expect(await titles('tag=FISK')).to.deep.equal(['Ørret i ovn']);
    expect(await titles('tag=helg&q=ost')).to.deep.equal(['Pizza']);
    expect(await titles(`tag=${encodeURIComponent('barn liker')}`)).to.deep.equal(['Taco']);
    expect(await titles('tag=')).to.have.length(4);

    const first = (await owner.get(`${base}?tag=hverdag&q=r&limit=1`)).json;
    expect(first.items.map((x: { id: string }) => x.id)).to.deep.equal([salad.id]);
    expect(first.total).to.equal(2);
    const second = (await owner.get(`${base}?tag=hverdag&q=r&limit=1&cursor=${encodeURIComponent(first.nextCursor)}`)).json;
    expect(second).to.include({ total: 2, nextCursor: null });
    expect(second.items.map((x: { id: string }) => x.id)).to.deep.equal([taco.id]);
    for (const url of [`${base}?tag=helg&q=r&cursor=${encodeURIComponent(first.nextCursor)}`, `${base}?q=r&cursor=${encodeURIComponent(first.nextCursor)}`]) {
      const res = await owner.get(url);
      expect(res.status).to.equal(400);
      expect(res.json.code).to.equal('validation_failed');
    }
    const long = await owner.get(`${base}?tag=${'x'.repeat(33)}`);
    expect(long.status).to.equal(400);
    expect(long.json.code).to.equal('value_too_long');
    expect(trout.tags).to.deep.equal(['fisk', 'helg']);
  });

  it("lists the household's tags with counts for filter chips (GET recipe-tags), to members only", async () => {
    const { owner, junior, stranger, h, base } = await family();
    const tagsUrl = `/api/v1/households/${h}/recipe-tags`;
    expect((await owner.get(tagsUrl)).json).to.deep.equal({ items: [], total: 0 });
    await create(owner, base, recipeBody({ title: 'A', tags: ['hverdag', 'fisk'] }));
    await create(owner, base, recipeBody({ title: 'B', tags: ['Hverdag', 'barn liker'] }));
    const c = await create(owner, base, recipeBody({ title: 'C', tags: ['barn liker', 'hverdag'] }));
    const res = await junior.get(tagsUrl);
    expect(res.status).to.equal(200);
    expect(res.json).to.deep.equal({
      items: [
        { tag: 'hverdag', count: 3 },
        { tag: 'barn liker', count: 2 },
        { tag: 'fisk', count: 1 },
      ],
      total: 3,
    });
    expect((await owner.get(`${tagsUrl}?limit=1`)).json).to.deep.equal({ items: [{ tag: 'hverdag', count: 3 }], total: 3 });
    await owner.delete(`${base}/${c.id}`);
    expect((await owner.get(tagsUrl)).json.items).to.deep.equal([
      { tag: 'hverdag', count: 2 },
      { tag: 'barn liker', count: 1 },
      { tag: 'fisk', count: 1 },
    ]);
    for (const limit of ['0', '201', 'x']) {
      const bad = await owner.get(`${tagsUrl}?limit=${limit}`);
      expect(bad.status, limit).to.equal(400);
      expect(bad.json.code).to.equal('validation_failed');
    }
    const theirs = await stranger.get(tagsUrl);
    expect(theirs.status).to.equal(404);
    expect(theirs.json.code).to.equal('household_not_found');
  });

  it('answers the same pages as summaries (GET recipe-summaries): no steps, the lines\' names, cursors shared; members only', async () => {
    const { owner, junior, stranger, h, base } = await family();
    const summaries = `/api/v1/households/${h}/recipe-summaries`;
    const trout = await create(owner, base, recipeBody({ title: 'Ørret i ovn', ingredients: [ingredient({ displayName: 'Sitron' }), ingredient({ displayName: 'Smør' })], tags: ['fisk'] }));
    await create(owner, base, recipeBody({ title: 'Salat', ingredients: [ingredient({ displayName: 'Røkt ørret' })], tags: ['hverdag'] }));
    await create(owner, base, recipeBody({ title: 'Taco', ingredients: [ingredient({ displayName: 'Kjøttdeig' })], tags: ['hverdag'] }));
    for (const query of ['', 'q=%C3%98RRET', 'tag=hverdag', 'limit=1', 'q=zzz']) {
      const whole = await junior.get(`${base}?${query}`);
      const res = await junior.get(`${summaries}?${query}`);
      expect(res.status, res.text).to.equal(200);
      expect(res.json.total, query).to.equal(whole.json.total);
      expect(res.json.items.map((r: { id: string }) => r.id), query).to.deep.equal(whole.json.items.map((r: { id: string }) => r.id));
      expect(res.json.nextCursor === null, query).to.equal(whole.json.nextCursor === null);
    }
    const found = (await junior.get(`${summaries}?q=sitron`)).json;
    expect(found.items).to.deep.equal([
      {
        id: trout.id,
        title: 'Ørret i ovn',
        servings: trout.servings,
        activeMinutes: trout.activeMinutes,
        totalMinutes: trout.totalMinutes,
        ingredientNames: ['Sitron', 'Smør'],
        tags: ['fisk'],
        image: null,
        updatedAt: trout.updatedAt,
      },
    ]);
    // A cursor of either list pages the other (same household, q and tag); one of another filter is refused.
    const first = (await owner.get(`${base}?limit=1`)).json;
    const rest = (await owner.get(`${summaries}?limit=5&cursor=${encodeURIComponent(first.nextCursor)}`)).json;
    expect(rest.items.map((r: { title: string }) => r.title)).to.deep.equal(['Taco', 'Ørret i ovn']);
    const wrong = await owner.get(`${summaries}?tag=fisk&cursor=${encodeURIComponent(first.nextCursor)}`);
    expect(wrong.status).to.equal(400);
    expect(wrong.json.code).to.equal('validation_failed');
    for (const bad of ['limit=0', 'limit=101', `q=${'x'.repeat(201)}`]) expect((await owner.get(`${summaries}?${bad}`)).status, bad).to.equal(400);
    const theirs = await stranger.get(summaries);
    expect(theirs.status).to.equal(404);
    expect(theirs.json.code).to.equal('household_not_found');
  });

  it('pages 50 recipes by default', async () => {
    const { owner, base } = await family();
    for (let i = 0; i < 51; i++) await create(owner, base, recipeBody({ title: `Rett ${String(i).padStart(2, '0')}`, steps: [], ingredients: [] }));
    const first = await owner.get(base);
    expect(first.json.items).to.have.length(50);
    expect(first.json.total).to.equal(51);
    const rest = await owner.get(`${base}?cursor=${encodeURIComponent(first.json.nextCursor)}`);
    expect(rest.json.items.map((r: { title: string }) => r.title)).to.deep.equal(['Rett 50']);
    expect(rest.json.nextCursor).to.equal(null);
  });

  it('documents the routes and the food-key rule in the OpenAPI document', async () => {
    const { owner } = await family();
    const doc = (await owner.get('/api/v1/openapi.json')).json;
    const collection = doc.paths['/api/v1/households/{householdId}/recipes'];
    const item = doc.paths['/api/v1/households/{householdId}/recipes/{recipeId}'];
    expect(Object.keys(collection).sort()).to.deep.equal(['get', 'post']);
    expect(Object.keys(item).sort()).to.deep.equal(['delete', 'get', 'put']);
    expect(collection.post.description).to.contain('NFKC').and.contain('base_recipe_unknown').and.contain('recipe_cycle');
    expect(JSON.stringify(collection.post.responses['201'])).to.contain('NFKC');
    expect(item.delete.description).to.contain('reference');
    expect(collection.get.description).to.contain('displayName').and.contain('tag');
    expect(collection.post.description).to.contain('value_too_long').and.contain('at most 12 tags');
    expect(collection.get.parameters.map((p: { name: string }) => p.name)).to.include.members(['q', 'tag', 'cursor', 'limit']);
    const tags = doc.paths['/api/v1/households/{householdId}/recipe-tags'];
    expect(Object.keys(tags)).to.deep.equal(['get']);
    expect(tags.get.operationId).to.equal('listRecipeTags');
  });
});
