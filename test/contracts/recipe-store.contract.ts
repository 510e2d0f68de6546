import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { recipeSearchKey } from '../../core/recipes/tags.js';
import { recipeSummaryOf, type Ingredient, type Recipe, type RecipeContent } from '../../core/recipes/types.js';
import type { RecipePageQuery, RecipeWriteRefusal } from '../../ports/recipe-store.js';
import type { Backend } from './backends.js';
import { tomatoes } from '../support/recipes.js';
import { storeSuite } from './suite.js';
import { at, ownedHousehold } from './fixtures.js';

const line = (over: Partial<Ingredient> = {}): Ingredient => ({ ...tomatoes, foodKey: 'tomat', ...over });

const content = (over: Partial<RecipeContent> = {}): RecipeContent => ({
  title: 'Tomatsuppe',
  servings: 4,
  activeMinutes: null,
  totalMinutes: null,
  steps: [],
  ingredients: [],
  sourceUrl: null,
  imageUrl: null,
  tags: [],
  ...over,
});

const isRecipe = (x: Recipe | RecipeWriteRefusal | null): Recipe => {
  if (x === null || 'refused' in x) throw new Error(`expected a recipe, got ${JSON.stringify(x)}`);
  return x;
};

export function recipeStoreContract(backend: Backend): void {
  storeSuite(backend, 'RecipeStore', (s) => {
    async function household() {
      const { id } = await ownedHousehold(s, { at: at('2026-02-01T12:00:00.500Z') });
      return id;
    }
    const add = async (h: string, c: Partial<RecipeContent> = {}, when = at('2026-05-04T09:00:00.123Z')) =>
      isRecipe(await s.recipes.create(h, randomUUID(), content(c), when));

    it('round-trips a recipe: lines in order with numbers, nulls and booleans, steps, dates to the millisecond', async () => {
      const h = await household();
      const dough = await add(h, { title: 'Pizzadeig' });
      const id = randomUUID();
      const written: RecipeContent = {
        title: 'Pizza «Margherita» – æøå',
        servings: 3,
        activeMinutes: 25,
        totalMinutes: 90,
        steps: ['Lag deigen.', 'Stek på 250 °C i 12 minutter.', ''.padEnd(2000, 'x')],
        ingredients: [
          line({ displayName: 'Pizzadeig', foodKey: 'pizzadeig', quantity: 1, unit: null, baseRecipeId: dough.id }),
          line({ displayName: 'Tomater', foodKey: 'tomat', quantity: 0.1, unit: 'kg' }),
          line({ displayName: 'Mozzarella', foodKey: 'mozzarella', quantity: 125.5, unit: 'g', optional: true }),
          line({ displayName: 'Basilikum', foodKey: 'basilikum', quantity: null, unit: null, optional: true }),
          line({ displayName: 'Tomatsaus', foodKey: 'tomatsaus', quantity: 100000, unit: 'ml', reference: 'se tomatsausen' }),
        ],
        sourceUrl: 'https://mat.example/oppskrift/pizza?ref=æøå',
        imageUrl: 'https://img.example/pizza.webp',
        tags: ['hverdag', 'barn liker', 'ørret', 'x'.repeat(32)],
      };
      const created = isRecipe(await s.recipes.create(h, id, written, at('2026-05-04T09:00:00.123Z')));
      const expected: Recipe = { id, householdId: h, ...written, tags: written.tags!, image: null, createdAt: at('2026-05-04T09:00:00.123Z'), updatedAt: at('2026-05-04T09:00:00.123Z') };
      expect(created).to.deep.equal(expected);
      expect(await s.recipes.byId(h, id)).to.deep.equal(expected);
      const bare = await add(h, { title: 'Vann', servings: 1, steps: [], ingredients: [] });
      expect(await s.recipes.byId(h, bare.id)).to.deep.equal(bare);
      // Content that names no tags (a writer older than tags) is written with none.
      const { tags: _none, ...untagged } = content({ title: 'Gammel' });
      const old = isRecipe(await s.recipes.create(h, randomUUID(), untagged, at('2026-05-04T09:00:00.123Z')));
      expect(old.tags).to.deep.equal([]);
      expect((await s.recipes.byId(h, old.id))!.tags).to.deep.equal([]);
    });

    it('keeps every read and write inside the household', async () => {
      const h = await household();
      const other = await household();
      const r = await add(h);
      expect(await s.recipes.byId(other, r.id)).to.equal(null);
      expect(await s.recipes.byId(h, randomUUID())).to.equal(null);
      expect(await s.recipes.replace(other, r.id, content({ title: 'Stjålet' }), at('2026-05-05T00:00:00.000Z'))).to.equal(null);
      expect(await s.recipes.delete(other, r.id, at('2026-05-05T00:00:00.000Z'))).to.equal(false);
      expect(await s.recipes.titlesOf(other, [r.id])).to.deep.equal({});
      expect((await s.recipes.page(other, { titleKeyContains: null, after: null, limit: 10 })).total).to.equal(0);
      expect(await s.recipes.byId(h, r.id)).to.deep.equal(r);
    });

    it('names the titles of the household\'s recipes only, leaving unknown ids out', async () => {
      const h = await household();
      const other = await household();
      const a = await add(h, { title: 'Lasagne' });
      const b = await add(h, { title: 'Taco' });
      const theirs = await add(other, { title: 'Fårikål' });
      const missing = randomUUID();
      expect(await s.recipes.titlesOf(h, [a.id, b.id, a.id, theirs.id, missing])).to.deep.equal({ [a.id]: 'Lasagne', [b.id]: 'Taco' });
      expect(await s.recipes.titlesOf(h, [])).to.deep.equal({});
    });

    it('reads several of the household\'s recipes with their lines at once, leaving others\' and unknown ids out', async () => {
      const h = await household();
      const other = await household();
      const a = await add(h, { title: 'Lasagne', tags: ['hverdag'], ingredients: [line(), line({ displayName: 'Ost', foodKey: 'ost', quantity: 200, unit: 'g', optional: true })] });
      const b = await add(h, { title: 'Taco' });
      const theirs = await add(other, { title: 'Fårikål' });
      const got = await s.recipes.byIds(h, [b.id, a.id, a.id, theirs.id, randomUUID()]);
      expect([...got].sort((x, y) => (x.title < y.title ? -1 : 1))).to.deep.equal([a, b]);
      expect(await s.recipes.byIds(h, [])).to.deep.equal([]);
    });

    it('refuses a base that is unknown or another household\'s, writing nothing', async () => {
      const h = await household();
      const other = await household();
      const theirs = await add(other, { title: 'Deres deig' });
      const unknown = randomUUID();
      expect(await s.recipes.create(h, randomUUID(), content({ ingredients: [line({ baseRecipeId: unknown })] }), at('2026-05-04T09:00:00.000Z'))).to.deep.equal({
        refused: 'unknown-base',
        baseRecipeId: unknown,
      });
      expect(await s.recipes.create(h, randomUUID(), content({ ingredients: [line(), line({ baseRecipeId: theirs.id })] }), at('2026-05-04T09:00:00.000Z'))).to.deep.equal({
        refused: 'unknown-base',
        baseRecipeId: theirs.id,
      });
      const selfId = randomUUID();
      expect(await s.recipes.create(h, selfId, content({ ingredients: [line({ baseRecipeId: selfId })] }), at('2026-05-04T09:00:00.000Z'))).to.deep.equal({
        refused: 'unknown-base',
        baseRecipeId: selfId,
      });
      expect((await s.recipes.page(h, { titleKeyContains: null, after: null, limit: 10 })).total).to.equal(0);
      const mine = await add(h);
      expect(await s.recipes.replace(h, mine.id, content({ ingredients: [line({ baseRecipeId: theirs.id })] }), at('2026-05-05T00:00:00.000Z'))).to.deep.equal({
        refused: 'unknown-base',
        baseRecipeId: theirs.id,
      });
      expect(await s.recipes.byId(h, mine.id)).to.deep.equal(mine);
    });

    it('replaces every field and line, keeping createdAt', async () => {
      const h = await household();
      const sauce = await add(h, { title: 'Tomatsaus' });
      const r = await add(h, { title: 'Pasta', steps: ['Kok', 'Server'], tags: ['fisk', 'hverdag'], ingredients: [line(), line({ displayName: 'Løk', foodKey: 'løk' }), line({ displayName: 'Salt', foodKey: 'salt' })] });
      const next = content({
        tags: ['hverdag', 'rask'],
        title: 'Pasta med saus',
        servings: 2,
        activeMinutes: 10,
        totalMinutes: 20,
        steps: ['Kok pastaen'],
        ingredients: [line({ displayName: 'Saus', foodKey: 'saus', baseRecipeId: sauce.id, quantity: 0.5, unit: 'porsjon' }), line({ displayName: 'Pasta', foodKey: 'pasta', quantity: 400, unit: 'g' })],
      });
      const replaced = isRecipe(await s.recipes.replace(h, r.id, next, at('2026-05-06T08:30:00.999Z')));
      const expected: Recipe = { id: r.id, householdId: h, ...next, tags: next.tags!, image: null, createdAt: r.createdAt, updatedAt: at('2026-05-06T08:30:00.999Z') };
      expect(replaced).to.deep.equal(expected);
      expect(await s.recipes.byId(h, r.id)).to.deep.equal(expected);
      expect(await s.recipes.replace(h, randomUUID(), next, at('2026-05-06T08:30:00.999Z'))).to.equal(null);
    });

    it('refuses a replacement that closes a cycle of base recipes (A→A, A→B→A, A→B→C→A), changing nothing', async () => {
      const h = await household();
      const a = await add(h, { title: 'A' });
      const b = await add(h, { title: 'B', ingredients: [line({ baseRecipeId: a.id })] });
      const c = await add(h, { title: 'C', ingredients: [line({ baseRecipeId: b.id })] });
      const when = at('2026-05-07T00:00:00.000Z');
      expect(await s.recipes.replace(h, a.id, content({ title: 'A', ingredients: [line({ baseRecipeId: a.id })] }), when)).to.deep.equal({ refused: 'cycle' });
      expect(await s.recipes.replace(h, a.id, content({ title: 'A', ingredients: [line({ baseRecipeId: b.id })] }), when)).to.deep.equal({ refused: 'cycle' });
      expect(await s.recipes.replace(h, a.id, content({ title: 'A', ingredients: [line(), line({ baseRecipeId: c.id })] }), when)).to.deep.equal({ refused: 'cycle' });
      expect(await s.recipes.byId(h, a.id)).to.deep.equal(a);
      // A diamond is no cycle: D uses B and C, which both lead to A.
      const d = await add(h, { title: 'D', ingredients: [line({ baseRecipeId: b.id }), line({ baseRecipeId: c.id })] });
      expect(isRecipe(await s.recipes.replace(h, d.id, content({ title: 'D', ingredients: [line({ baseRecipeId: c.id }), line({ baseRecipeId: a.id })] }), when)).ingredients).to.have.length(2);
    });

    it('lets only one of two concurrent replacements that together would close a cycle through', async () => {
      const h = await household();
      for (let round = 0; round < 3; round++) {
        const a = await add(h, { title: `A${round}` });
        const b = await add(h, { title: `B${round}` });
        const when = at('2026-05-07T00:00:00.000Z');
        const answers = await Promise.all([
          s.recipes.replace(h, a.id, content({ title: `A${round}`, ingredients: [line({ baseRecipeId: b.id })] }), when),
          s.recipes.replace(h, b.id, content({ title: `B${round}`, ingredients: [line({ baseRecipeId: a.id })] }), when),
        ]);
        expect(answers.filter((x) => x !== null && 'refused' in x)).to.deep.equal([{ refused: 'cycle' }]);
        const links = [(await s.recipes.byId(h, a.id))!, (await s.recipes.byId(h, b.id))!].map((r) => r.ingredients.length);
        expect(links.sort()).to.deep.equal([0, 1]);
      }
    });

    it('pages by title without regard to case (code point order), then id, with total, filter and position', async () => {
      const h = await household();
      const other = await household();
      await add(other, { title: 'apple pie' });
      const titles = ['banana bread', 'Apple pie', 'apple pie', 'Øllebrød', 'Ærtesuppe', 'Åpen sandwich', 'cake 100%', 'cake_1', 'Zucchini'];
      const made = await Promise.all(titles.map((title) => add(h, { title })));
      const key = (r: Recipe) => r.title.toLowerCase();
      const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
      const expected = [...made].sort((x, y) => byCodePoint(key(x), key(y)) || byCodePoint(x.id, y.id));
      // å (U+00E5) < æ (U+00E6) < ø (U+00F8), all after z.
      expect(expected.map((r) => r.title).slice(-3)).to.deep.equal(['Åpen sandwich', 'Ærtesuppe', 'Øllebrød']);

      const seen: Recipe[] = [];
      let after = null;
      for (;;) {
        const page = await s.recipes.page(h, { titleKeyContains: null, after, limit: 4 });
        expect(page.total).to.equal(titles.length);
        seen.push(...page.items);
        const last = page.items[page.items.length - 1]!;
        if (!page.more) break;
        after = { titleKey: key(last), id: last.id };
      }
      expect(seen.map((r) => r.id)).to.deep.equal(expected.map((r) => r.id));
      expect(seen[0]).to.deep.equal(expected[0]);

      const apples = await s.recipes.page(h, { titleKeyContains: 'apple', after: null, limit: 10 });
      expect(apples.total).to.equal(2);
      expect(apples.more).to.equal(false);
      expect(apples.items.map((r) => r.title).sort()).to.deep.equal(['Apple pie', 'apple pie']);
      // LIKE wildcards in the filter are plain characters.
      expect((await s.recipes.page(h, { titleKeyContains: '100%', after: null, limit: 10 })).items.map((r) => r.title)).to.deep.equal(['cake 100%']);
      expect((await s.recipes.page(h, { titleKeyContains: '_', after: null, limit: 10 })).items.map((r) => r.title)).to.deep.equal(['cake_1']);
      expect((await s.recipes.page(h, { titleKeyContains: 'æ', after: null, limit: 10 })).items.map((r) => r.title)).to.deep.equal(['Ærtesuppe']);
      const none = await s.recipes.page(h, { titleKeyContains: 'pizza', after: null, limit: 10 });
      expect(none).to.deep.equal({ items: [], total: 0, more: false });
      const exact = await s.recipes.page(h, { titleKeyContains: null, after: null, limit: titles.length });
      expect(exact.more).to.equal(false);
    });

    it('finds recipes by title, a line\'s name or a tag, any case and æøå included, and by exact tag, paging in order', async () => {
      const h = await household();
      const other = await household();
      await add(other, { title: 'Ørret', tags: ['fisk'] });
      const trout = await add(h, { title: 'Ørret i ovn', ingredients: [line({ displayName: 'Sitron', foodKey: 'sitron' })], tags: ['fisk', 'helg'] });
      const salad = await add(h, { title: 'Salat', ingredients: [line({ displayName: 'Røkt ØRRET', foodKey: 'røkt-ørret' })], tags: ['hverdag'] });
      const taco = await add(h, { title: 'Taco', ingredients: [line({ displayName: 'Kjøttdeig', foodKey: 'kjøttdeig' })], tags: ['barn liker', 'hverdag'] });
      const soup = await add(h, { title: 'Fiskesuppe 100%', ingredients: [line({ displayName: 'Torsk', foodKey: 'torsk' })], tags: ['fiskesuppe_'] });
      const titles = async (q: { text?: string; tag?: string }) =>
        (await s.recipes.page(h, { titleKeyContains: null, textContains: q.text === undefined ? null : recipeSearchKey(q.text), tag: q.tag ?? null, after: null, limit: 10 })).items.map((r) => r.title);
      // Title, a line's name, any case of Ø; another household's Ørret is not found.
      expect(await titles({ text: 'ørret' })).to.deep.equal(['Salat', 'Ørret i ovn']);
      expect(await titles({ text: 'ØRRET' })).to.deep.equal(['Salat', 'Ørret i ovn']);
      expect(await titles({ text: 'kjøtt' })).to.deep.equal(['Taco']);
      expect(await titles({ text: 'BARN  LIKER' })).to.deep.equal(['Taco']);
      expect(await titles({ text: 'fisk' })).to.deep.equal(['Fiskesuppe 100%', 'Ørret i ovn']);
      // A match never spans two parts, and LIKE's wildcards are plain characters.
      expect(await titles({ text: 'ovn sitron' })).to.deep.equal([]);
      expect(await titles({ text: '100%' })).to.deep.equal(['Fiskesuppe 100%']);
      expect(await titles({ text: 'e_' })).to.deep.equal(['Fiskesuppe 100%']);
      // An exact tag: 'fisk' is not 'fiskesuppe_'; both filters hold together.
      expect(await titles({ tag: 'fisk' })).to.deep.equal(['Ørret i ovn']);
      expect(await titles({ tag: 'hverdag' })).to.deep.equal(['Salat', 'Taco']);
      expect(await titles({ tag: 'hverdag', text: 'ørret' })).to.deep.equal(['Salat']);
      expect(await titles({ tag: 'hverd' })).to.deep.equal([]);

      const seen: string[] = [];
      let after = null;
      for (;;) {
        const page = await s.recipes.page(h, { titleKeyContains: null, textContains: null, tag: 'hverdag', after, limit: 1 });
        expect(page.total).to.equal(2);
        seen.push(...page.items.map((r) => r.id));
        if (!page.more) break;
        const last = page.items[0]!;
        after = { titleKey: last.title.toLowerCase(), id: last.id };
      }
      expect(seen).to.deep.equal([salad.id, taco.id]);

      // A replacement's lines and tags are what is found from then on.
      const replaced = isRecipe(await s.recipes.replace(h, taco.id, content({ title: 'Taco', ingredients: [line({ displayName: 'Kylling', foodKey: 'kylling' })], tags: ['fredag'] }), at('2026-05-09T00:00:00.000Z')));
      expect(replaced.tags).to.deep.equal(['fredag']);
      expect(await titles({ text: 'kjøtt' })).to.deep.equal([]);
      expect(await titles({ text: 'kylling' })).to.deep.equal(['Taco']);
      expect(await titles({ tag: 'hverdag' })).to.deep.equal(['Salat']);
      expect(await titles({ tag: 'fredag' })).to.deep.equal(['Taco']);
      expect(soup.tags).to.deep.equal(['fiskesuppe_']);
      expect(trout.tags).to.deep.equal(['fisk', 'helg']);
    });

    it('answers the same page as summaries: no steps, the lines\' names in order, tags and picture, same total and paging', async () => {
      const h = await household();
      const other = await household();
      await add(other, { title: 'Kake', ingredients: [line({ displayName: 'Mel', foodKey: 'mel' })] });
      await add(h, { title: 'Bålkaffe', steps: ['Kok'], ingredients: [line({ displayName: 'Kaffe', foodKey: 'kaffe' })], tags: ['tur'] });
      const cake = await add(h, {
        title: 'Kake',
        steps: ['Rør', 'Stek'],
        ingredients: [line({ displayName: 'Mel', foodKey: 'mel' }), line({ displayName: 'Egg', foodKey: 'egg' }), line({ displayName: 'Sukker', foodKey: 'sukker' })],
        tags: ['helg', 'barn liker'],
      });
      await add(h, { title: 'Vann', steps: [], ingredients: [] });
      const pictured = await s.recipes.setImage(h, cake.id, { sourceUrl: null, mediaType: 'image/webp', bytes: new Uint8Array([1, 2, 3]), etag: '"cake"' }, at('2026-05-08T10:00:00.000Z'));
      const queries: RecipePageQuery[] = [
        { titleKeyContains: null, after: null, limit: 10 },
        { titleKeyContains: null, textContains: recipeSearchKey('EGG'), tag: null, after: null, limit: 10 },
        { titleKeyContains: null, textContains: null, tag: 'tur', after: null, limit: 10 },
        { titleKeyContains: null, after: null, limit: 2 },
        { titleKeyContains: null, after: { titleKey: 'kake', id: cake.id }, limit: 2 },
      ];
      for (const q of queries) {
        const whole = await s.recipes.page(h, q);
        const summaries = await s.recipes.summaryPage(h, q);
        expect(summaries.total, JSON.stringify(q)).to.equal(whole.total);
        expect(summaries.more, JSON.stringify(q)).to.equal(whole.more);
        expect(summaries.items, JSON.stringify(q)).to.deep.equal(whole.items.map(recipeSummaryOf));
      }
      const [first, second, third] = (await s.recipes.summaryPage(h, queries[0]!)).items;
      expect([first?.title, second?.title, third?.title]).to.deep.equal(['Bålkaffe', 'Kake', 'Vann']);
      expect(second).to.deep.equal({
        id: cake.id,
        householdId: h,
        title: 'Kake',
        servings: cake.servings,
        activeMinutes: cake.activeMinutes,
        totalMinutes: cake.totalMinutes,
        ingredientNames: ['Mel', 'Egg', 'Sukker'],
        tags: ['helg', 'barn liker'],
        image: { sourceUrl: null, mediaType: 'image/webp', etag: '"cake"' },
        updatedAt: pictured!.updatedAt,
      });
      expect(third?.ingredientNames).to.deep.equal([]);
      expect(third?.image).to.equal(null);
      expect((await s.recipes.summaryPage(other, { titleKeyContains: null, after: null, limit: 10 })).items.map((r) => r.title)).to.deep.equal(['Kake']);
    });

    it('answers summaries that follow every write: a new recipe, a replacement, a deletion, between two reads', async () => {
      const h = await household();
      const titles = async (textContains: string | null = null) =>
        (await s.recipes.summaryPage(h, { titleKeyContains: null, textContains, tag: null, after: null, limit: 10 })).items.map((r) => `${r.title}: ${r.ingredientNames.join(', ')} #${r.tags.join(' #')}`);
      const soup = await add(h, { title: 'Suppe', ingredients: [line({ displayName: 'Tomat' })], tags: ['hverdag'] });
      expect(await titles()).to.deep.equal(['Suppe: Tomat #hverdag']);
      const taco = await add(h, { title: 'Taco', ingredients: [line({ displayName: 'Lefse' })], tags: [] });
      expect(await titles()).to.deep.equal(['Suppe: Tomat #hverdag', 'Taco: Lefse #']);
      isRecipe(await s.recipes.replace(h, soup.id, content({ title: 'Ærtesuppe', ingredients: [line({ displayName: 'Erter' })], tags: ['vinter'] }), at('2026-05-05T09:00:00.000Z')));
      expect(await titles()).to.deep.equal(['Taco: Lefse #', 'Ærtesuppe: Erter #vinter']);
      expect(await titles('erter')).to.deep.equal(['Ærtesuppe: Erter #vinter']);
      expect(await titles('tomat')).to.deep.equal([]);
      expect(await s.recipes.delete(h, taco.id, at('2026-05-06T09:00:00.000Z'))).to.equal(true);
      expect(await titles()).to.deep.equal(['Ærtesuppe: Erter #vinter']);
    });

    it('counts the tags of the household\'s recipes, following replacements, deletions and none of another household', async () => {
      const h = await household();
      const other = await household();
      await add(other, { title: 'Deres', tags: ['fisk', 'deres'] });
      const counts = async (of = h) => [...(await s.recipes.tagCounts(of))].sort((a, b) => (a.tag < b.tag ? -1 : 1));
      expect(await counts()).to.deep.equal([]);
      const a = await add(h, { title: 'A', tags: ['fisk', 'hverdag'] });
      await add(h, { title: 'B', tags: ['hverdag'] });
      const c = await add(h, { title: 'C', tags: ['hverdag', 'barn liker'] });
      await add(h, { title: 'D' });
      expect(await counts()).to.deep.equal([
        { tag: 'barn liker', count: 1 },
        { tag: 'fisk', count: 1 },
        { tag: 'hverdag', count: 3 },
      ]);
      await s.recipes.replace(h, a.id, content({ title: 'A', tags: [] }), at('2026-05-09T00:00:00.000Z'));
      expect(await s.recipes.delete(h, c.id, at('2026-05-09T00:00:00.000Z'))).to.equal(true);
      expect(await counts()).to.deep.equal([{ tag: 'hverdag', count: 1 }]);
      expect((await s.recipes.byId(h, a.id))!.tags).to.deep.equal([]);
      expect(await counts(other)).to.deep.equal([
        { tag: 'deres', count: 1 },
        { tag: 'fisk', count: 1 },
      ]);
      await s.households.delete(other);
      expect(await counts(other)).to.deep.equal([]);
    });

    it('deletes a recipe; lines that used it as their base become a reference to its title', async () => {
      const h = await household();
      const dough = await add(h, { title: 'Pizzadeig' });
      const pizza = await add(h, { title: 'Pizza', ingredients: [line({ displayName: 'Deig', foodKey: 'deig', baseRecipeId: dough.id }), line()] });
      const calzone = await add(h, { title: 'Calzone', ingredients: [line({ displayName: 'Deig', foodKey: 'deig', baseRecipeId: dough.id, optional: true })] });
      const untouched = await add(h, { title: 'Salat', ingredients: [line()] });
      const when = at('2026-05-08T17:00:00.250Z');
      expect(await s.recipes.delete(h, dough.id, when)).to.equal(true);
      expect(await s.recipes.byId(h, dough.id)).to.equal(null);
      expect(await s.recipes.delete(h, dough.id, when)).to.equal(false);
      expect(await s.recipes.byId(h, pizza.id)).to.deep.equal({
        ...pizza,
        ingredients: [{ ...pizza.ingredients[0]!, baseRecipeId: null, reference: 'Pizzadeig' }, pizza.ingredients[1]!],
        updatedAt: when,
      });
      expect(await s.recipes.byId(h, calzone.id)).to.deep.equal({
        ...calzone,
        ingredients: [{ ...calzone.ingredients[0]!, baseRecipeId: null, reference: 'Pizzadeig' }],
        updatedAt: when,
      });
      expect(await s.recipes.byId(h, untouched.id)).to.deep.equal(untouched);
      expect(await s.recipes.titlesOf(h, [dough.id, pizza.id])).to.deep.equal({ [pizza.id]: 'Pizza' });
    });

    it('forgets the recipes of a deleted household', async () => {
      const h = await household();
      const r = await add(h);
      await s.households.delete(h);
      expect(await s.recipes.byId(h, r.id)).to.equal(null);
      expect(await s.recipes.titlesOf(h, [r.id])).to.deep.equal({});
    });

    it('reads every recipe of the household with its lines, by title key then id, and none of another household', async () => {
      const h = await household();
      const other = await household();
      const dough = await add(h, { title: 'pizzadeig', ingredients: [line({ displayName: 'Hvetemel', foodKey: 'hvetemel', quantity: 500, unit: 'g' })] });
      const pizza = await add(h, {
        title: 'Pizza',
        totalMinutes: 40,
        tags: ['helg', 'barn liker'],
        ingredients: [line({ displayName: 'Pizzadeig', foodKey: 'pizzadeig', quantity: 1, baseRecipeId: dough.id }), line({ displayName: 'Ost', foodKey: 'ost', quantity: 200, unit: 'g', optional: true })],
      });
      const soup = await add(h, { title: 'Ærtesuppe', activeMinutes: 20 });
      await add(other, { title: 'Annen' });
      const all = await s.recipes.all(h);
      // Title keys in code point order: pizza < pizzadeig < ærtesuppe.
      expect(all.map((r) => r.title)).to.deep.equal(['Pizza', 'pizzadeig', 'Ærtesuppe']);
      expect(all.find((r) => r.id === pizza.id)).to.deep.equal(await s.recipes.byId(h, pizza.id));
      expect(all.find((r) => r.id === pizza.id)!.tags).to.deep.equal(['helg', 'barn liker']);
      expect(all.find((r) => r.id === soup.id)).to.deep.equal(soup);
      expect(await s.recipes.all(randomUUID())).to.deep.equal([]);
    });
  });
}
