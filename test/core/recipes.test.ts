import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { fixedClock } from '../../adapters/clock/system-clock.js';
import { uuidIds } from '../../adapters/crypto/node-crypto.js';
import { hmacPageCursors } from '../../adapters/crypto/page-cursors.js';
import { memoryRecipeImageStore } from '../../adapters/memory/recipe-image-store.js';
import { memoryRecipeStore } from '../../adapters/memory/recipe-store.js';
import { emptyTables, memoryHouseholdStore } from '../../adapters/memory/stores.js';
import type { Account } from '../../core/accounts/types.js';
import type { HouseholdRole } from '../../core/households/types.js';
import {
  createRecipe,
  deleteRecipe,
  getRecipe,
  listRecipes,
  listRecipeTags,
  recipeImage,
  replaceRecipe,
  type IngredientInput,
  type RecipeList,
  type RecipeDeps,
  type RecipeInput,
} from '../../core/recipes/recipes.js';
import type { Recipe } from '../../core/recipes/types.js';
import type { Result } from '../../core/kernel/result.js';
import { onionSoup, onionSoupRead, onions, tomatoes, tomatoSoup } from '../support/recipes.js';
import { person, storedHousehold } from './support.js';

const line = (over: Partial<IngredientInput> = {}): IngredientInput => ({ ...tomatoes, ...over });

const recipe = (over: Partial<RecipeInput> = {}): RecipeInput => ({
  ...tomatoSoup,
  steps: ['Kok opp', 'Mos'],
  ingredients: [line()],
  ...over,
});

function value<T>(r: Result<T, unknown>): T {
  if (!r.ok) throw new Error(`expected success, got ${JSON.stringify(r.error)}`);
  return r.value;
}

function world() {
  const t = emptyTables();
  const clock = fixedClock(new Date('2026-05-04T09:00:00.000Z'));
  // Pictures: any address ending in .png is a 1-byte PNG "fetched" from it; any other gives no image.
  const fetched: string[] = [];
  const deps: RecipeDeps = {
    households: memoryHouseholdStore(t),
    recipes: memoryRecipeStore(t),
    recipeImages: memoryRecipeImageStore(t),
    recipeImageFetcher: {
      fetch: async (url) => {
        fetched.push(url);
        return url.endsWith('.png') ? { ok: true, image: { sourceUrl: url, mediaType: 'image/png', bytes: new Uint8Array([url.length]), etag: `"${url.length}"` } } : { ok: false, reason: 'not-an-image' };
      },
    },
    pageCursors: hmacPageCursors(),
    ids: uuidIds,
    clock,
  };
  async function household(owner: Account) {
    return storedHousehold(deps.households, owner, clock.now());
  }
  async function join(householdId: string, who: Account, role: HouseholdRole) {
    await deps.households.addMember(householdId, { id: randomUUID(), displayName: who.displayName, role, accountId: who.id, createdAt: clock.now() });
  }
  /** Kari's household and Per's, each its Owner. */
  async function kariAndPer() {
    const kari = person('kari');
    const per = person('per');
    return { kari, per, h: await household(kari), other: await household(per) };
  }
  return { t, deps, clock, household, join, fetched, kariAndPer };
}

describe('recipes (domain)', () => {
  it('lets an adult add a recipe with server-made food keys; a Junior gets adults-only, a stranger household-not-found', async () => {
    const { deps, household, join } = world();
    const kari = person('kari');
    const ola = person('ola');
    const junior = person('junior');
    const h = await household(kari);
    await join(h, ola, 'Adult');
    await join(h, junior, 'Junior');
    const made = value(await createRecipe(deps, ola, h, recipe({ ingredients: [line({ displayName: 'Cherry Tomatoes' }), line({ displayName: 'Gulrøtter' })] })));
    expect(made).to.include({ householdId: h, title: 'Tomatsuppe', servings: 4, activeMinutes: 15, totalMinutes: 30 });
    expect(made.ingredients.map((i) => i.foodKey)).to.deep.equal(['cherry-tomato', 'gulrot']);
    expect(made.createdAt).to.deep.equal(new Date('2026-05-04T09:00:00.000Z'));
    expect(await createRecipe(deps, junior, h, recipe())).to.deep.equal({ ok: false, error: { type: 'adults-only' } });
    expect(await createRecipe(deps, person('stranger'), h, recipe())).to.deep.equal({ ok: false, error: { type: 'household-not-found' } });
    expect(value(await getRecipe(deps, junior, h, made.id))).to.deep.equal(made);
    expect(await getRecipe(deps, person('stranger'), h, made.id)).to.deep.equal({ ok: false, error: { type: 'household-not-found' } });
    expect(value(await listRecipes(deps, junior, h, { q: null, cursor: null, limit: 50 })).total).to.equal(1);
  });

  it("refuses another household's recipe as a base, and an unknown one", async () => {
    const { deps, kariAndPer } = world();
    const { kari, per, h, other } = await kariAndPer();
    const theirs = value(await createRecipe(deps, per, other, recipe({ title: 'Deres pizzadeig' })));
    expect(await createRecipe(deps, kari, h, recipe({ ingredients: [line({ baseRecipeId: theirs.id })] }))).to.deep.equal({
      ok: false,
      error: { type: 'base-recipe-unknown', baseRecipeId: theirs.id },
    });
    const missing = randomUUID();
    expect(await createRecipe(deps, kari, h, recipe({ ingredients: [line({ baseRecipeId: missing })] }))).to.deep.equal({
      ok: false,
      error: { type: 'base-recipe-unknown', baseRecipeId: missing },
    });
    expect(await getRecipe(deps, kari, h, theirs.id)).to.deep.equal({ ok: false, error: { type: 'recipe-not-found' } });
    expect(value(await listRecipes(deps, kari, h, { q: null, cursor: null, limit: 50 })).total).to.equal(0);
  });

  it('refuses cycles of base recipes: A→A, A→B→A, A→B→C→A', async () => {
    const { deps, household } = world();
    const kari = person('kari');
    const h = await household(kari);
    const a = value(await createRecipe(deps, kari, h, recipe({ title: 'A' })));
    const b = value(await createRecipe(deps, kari, h, recipe({ title: 'B', ingredients: [line({ displayName: 'A', baseRecipeId: a.id })] })));
    const c = value(await createRecipe(deps, kari, h, recipe({ title: 'C', ingredients: [line({ displayName: 'B', baseRecipeId: b.id })] })));
    const cycle = { ok: false, error: { type: 'recipe-cycle' } };
    expect(await replaceRecipe(deps, kari, h, a.id, recipe({ title: 'A', ingredients: [line({ baseRecipeId: a.id })] }))).to.deep.equal(cycle);
    expect(await replaceRecipe(deps, kari, h, a.id, recipe({ title: 'A', ingredients: [line({ baseRecipeId: b.id })] }))).to.deep.equal(cycle);
    expect(await replaceRecipe(deps, kari, h, a.id, recipe({ title: 'A', ingredients: [line(), line({ baseRecipeId: c.id })] }))).to.deep.equal(cycle);
    expect(value(await getRecipe(deps, kari, h, a.id))).to.deep.equal(a);
    // C may point straight at A as well as through B: shared bases are no cycle.
    const c2 = value(await replaceRecipe(deps, kari, h, c.id, recipe({ title: 'C', ingredients: [line({ baseRecipeId: b.id }), line({ baseRecipeId: a.id })] })));
    expect(c2.ingredients.map((i) => i.baseRecipeId)).to.deep.equal([b.id, a.id]);
  });

  it('replaces a recipe whole, keeping createdAt and moving updatedAt', async () => {
    const { deps, clock, household, join } = world();
    const kari = person('kari');
    const junior = person('junior');
    const h = await household(kari);
    await join(h, junior, 'Junior');
    const r = value(await createRecipe(deps, kari, h, recipe({ ingredients: [line(), line({ displayName: 'Løk' }), line({ displayName: 'Salt', quantity: null })] })));
    clock.advance(3_600_000);
    const replaced = value(
      await replaceRecipe(deps, kari, h, r.id, recipe({ ...onionSoup(), ingredients: [line(onions)] })),
    );
    expect(replaced).to.deep.equal({
      id: r.id,
      householdId: h,
      ...onionSoupRead(),
      tags: [],
      createdAt: r.createdAt,
      updatedAt: clock.now(),
    });
    expect(await replaceRecipe(deps, junior, h, r.id, recipe())).to.deep.equal({ ok: false, error: { type: 'adults-only' } });
    expect(await replaceRecipe(deps, kari, h, randomUUID(), recipe())).to.deep.equal({ ok: false, error: { type: 'recipe-not-found' } });
    expect(value(await getRecipe(deps, kari, h, r.id))).to.deep.equal(replaced);
  });

  it('deletes a recipe: plan hooks hear of it, recipes built on it keep the line as a reference to its title', async () => {
    const { t, deps, clock, household, join } = world();
    const heard: [string, string][] = [];
    t.onRecipeDeleted.push((householdId, recipeId) => heard.push([householdId, recipeId]));
    const kari = person('kari');
    const junior = person('junior');
    const h = await household(kari);
    await join(h, junior, 'Junior');
    const sauce = value(await createRecipe(deps, kari, h, recipe({ title: 'Tomatsaus' })));
    const pasta = value(await createRecipe(deps, kari, h, recipe({ title: 'Pasta', ingredients: [line({ displayName: 'Saus', baseRecipeId: sauce.id }), line({ displayName: 'Pasta' })] })));
    expect(await deleteRecipe(deps, junior, h, sauce.id)).to.deep.equal({ ok: false, error: { type: 'adults-only' } });
    expect(await deleteRecipe(deps, person('stranger'), h, sauce.id)).to.deep.equal({ ok: false, error: { type: 'household-not-found' } });
    expect(heard).to.deep.equal([]);
    clock.advance(60_000);
    expect(await deleteRecipe(deps, kari, h, sauce.id)).to.deep.equal({ ok: true, value: undefined });
    expect(heard).to.deep.equal([[h, sauce.id]]);
    expect(await getRecipe(deps, kari, h, sauce.id)).to.deep.equal({ ok: false, error: { type: 'recipe-not-found' } });
    expect(await deleteRecipe(deps, kari, h, sauce.id)).to.deep.equal({ ok: false, error: { type: 'recipe-not-found' } });
    const after = value(await getRecipe(deps, kari, h, pasta.id));
    expect(after.ingredients.map((i) => [i.displayName, i.baseRecipeId, i.reference])).to.deep.equal([
      ['Saus', null, 'Tomatsaus'],
      ['Pasta', null, null],
    ]);
    expect(after.updatedAt).to.deep.equal(clock.now());
    expect(heard).to.have.length(1);
  });

  it('pages by title with cursors bound to the household and the filter', async () => {
    const { deps, kariAndPer } = world();
    const { kari, per, h, other } = await kariAndPer();
    for (const title of ['pizza', 'Pasta', 'Ærtesuppe', 'lasagne', 'Pizza bianca']) await createRecipe(deps, kari, h, recipe({ title }));
    await createRecipe(deps, per, other, recipe({ title: 'Pizza' }));
    const seen: Recipe[] = [];
    let cursor: string | null = null;
    do {
      const page: RecipeList = value(await listRecipes(deps, kari, h, { q: null, cursor, limit: 2 }));
      expect(page.total).to.equal(5);
      seen.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(seen.map((r) => r.title)).to.deep.equal(['lasagne', 'Pasta', 'pizza', 'Pizza bianca', 'Ærtesuppe']);

    const pizzas = value(await listRecipes(deps, kari, h, { q: ' PIZZA ', cursor: null, limit: 1 }));
    expect(pizzas.items.map((r) => r.title)).to.deep.equal(['pizza']);
    expect(pizzas.total).to.equal(2);
    const next = pizzas.nextCursor!;
    expect(value(await listRecipes(deps, kari, h, { q: 'pizza', cursor: next, limit: 1 }))).to.include({ nextCursor: null, total: 2 });
    const invalid = { ok: false, error: { type: 'page-cursor-invalid', boundTo: 'this household, q and tag' } };
    expect(await listRecipes(deps, kari, h, { q: 'pasta', cursor: next, limit: 1 })).to.deep.equal(invalid);
    expect(await listRecipes(deps, kari, h, { q: null, cursor: next, limit: 1 })).to.deep.equal(invalid);
    expect(await listRecipes(deps, per, other, { q: 'pizza', cursor: next, limit: 1 })).to.deep.equal(invalid);
    expect(await listRecipes(deps, kari, h, { q: 'pizza', cursor: `${next}x`, limit: 1 })).to.deep.equal(invalid);
    expect(await listRecipes(deps, kari, h, { q: 'pizza', cursor: 'bm90IGEgY3Vyc29y', limit: 1 })).to.deep.equal(invalid);
    // A cursor whose position was edited (here: to start before 'lasagne') fails its check.
    const [payload, tag] = next.split('.') as [string, string];
    const edited = Buffer.from(JSON.stringify(['a', randomUUID()])).toString('base64url');
    expect(payload).to.not.equal(edited);
    expect(await listRecipes(deps, kari, h, { q: 'pizza', cursor: `${edited}.${tag}`, limit: 1 })).to.deep.equal(invalid);
  });

  it('keeps tags in one form (trimmed, one space, lower case), each once; left out: none on a new recipe, the same on a replaced one', async () => {
    const { deps, kariAndPer } = world();
    const { kari, h } = await kariAndPer();
    const made = value(await createRecipe(deps, kari, h, recipe({ tags: ['  Fisk ', 'barn \t LIKER', 'FISK', 'ﬁsk', 'Ørret', '   '] })));
    // 'ﬁsk' is NFKC 'fisk'; the blank one is not a tag (the HTTP schema refuses it before it gets here).
    expect(made.tags).to.deep.equal(['fisk', 'barn liker', 'ørret']);
    expect(value(await createRecipe(deps, kari, h, recipe({ title: 'Uten' }))).tags).to.deep.equal([]);
    const kept = value(await replaceRecipe(deps, kari, h, made.id, recipe({ title: 'Fiskegrateng' })));
    expect(kept.tags).to.deep.equal(['fisk', 'barn liker', 'ørret']);
    const changed = value(await replaceRecipe(deps, kari, h, made.id, recipe({ tags: ['Hverdag', 'fisk'] })));
    expect(changed.tags).to.deep.equal(['hverdag', 'fisk']);
    expect(value(await replaceRecipe(deps, kari, h, made.id, recipe({ tags: [] }))).tags).to.deep.equal([]);
    expect(value(await getRecipe(deps, kari, h, made.id)).tags).to.deep.equal([]);
  });

  it('finds recipes by title, ingredient or tag in any case (æøå too) and by exact tag, with cursors bound to both filters', async () => {
    const { deps, kariAndPer } = world();
    const { kari, per, h, other } = await kariAndPer();
    await createRecipe(deps, kari, h, recipe({ title: 'Ørret i ovn', ingredients: [line({ displayName: 'Sitron' })], tags: ['fisk', 'helg'] }));
    await createRecipe(deps, kari, h, recipe({ title: 'Salat', ingredients: [line({ displayName: 'Røkt ørret' })], tags: ['hverdag'] }));
    await createRecipe(deps, kari, h, recipe({ title: 'Taco', ingredients: [line({ displayName: 'Kjøttdeig' })], tags: ['Barn liker', 'hverdag'] }));
    await createRecipe(deps, kari, h, recipe({ title: 'Pizza', ingredients: [line({ displayName: 'Ost' })], tags: ['helg', 'barn liker'] }));
    await createRecipe(deps, per, other, recipe({ title: 'Ørret', tags: ['fisk'] }));
    const titles = async (q: string | null, tag: string | null = null) => value(await listRecipes(deps, kari, h, { q, tag, cursor: null, limit: 50 })).items.map((r) => r.title);
    expect(await titles('ørret')).to.deep.equal(['Salat', 'Ørret i ovn']);
    expect(await titles('ØRRET')).to.deep.equal(['Salat', 'Ørret i ovn']);
    expect(await titles(' KJØTT ')).to.deep.equal(['Taco']);
    expect(await titles('barn  liker')).to.deep.equal(['Pizza', 'Taco']);
    expect(await titles('sitron')).to.deep.equal(['Ørret i ovn']);
    expect(await titles(null, ' HELG ')).to.deep.equal(['Pizza', 'Ørret i ovn']);
    expect(await titles('ost', 'helg')).to.deep.equal(['Pizza']);
    expect(await titles('', '')).to.have.length(4);
    expect(await titles(null, 'hel')).to.deep.equal([]);

    const first = value(await listRecipes(deps, kari, h, { q: 'e', tag: 'hverdag', cursor: null, limit: 1 }));
    expect(first).to.include({ total: 2 });
    expect(first.items.map((r) => r.title)).to.deep.equal(['Salat']);
    const rest = value(await listRecipes(deps, kari, h, { q: 'E', tag: 'HVERDAG', cursor: first.nextCursor, limit: 1 }));
    expect(rest).to.include({ total: 2, nextCursor: null });
    expect(rest.items.map((r) => r.title)).to.deep.equal(['Taco']);
    const invalid = { ok: false, error: { type: 'page-cursor-invalid', boundTo: 'this household, q and tag' } };
    expect(await listRecipes(deps, kari, h, { q: 'e', tag: 'helg', cursor: first.nextCursor, limit: 1 })).to.deep.equal(invalid);
    expect(await listRecipes(deps, kari, h, { q: 'e', tag: null, cursor: first.nextCursor, limit: 1 })).to.deep.equal(invalid);
  });

  it("lists the household's tags with their counts, the most carried first, to members only", async () => {
    const { deps, join, kariAndPer } = world();
    const { kari, per, h, other } = await kariAndPer();
    const junior = person('junior');
    await join(h, junior, 'Junior');
    expect(value(await listRecipeTags(deps, kari, h, 50))).to.deep.equal({ items: [], total: 0 });
    await createRecipe(deps, kari, h, recipe({ title: 'A', tags: ['hverdag', 'fisk'] }));
    await createRecipe(deps, kari, h, recipe({ title: 'B', tags: ['Hverdag', 'barn liker'] }));
    const c = value(await createRecipe(deps, kari, h, recipe({ title: 'C', tags: ['barn liker', 'hverdag', 'ørret'] })));
    await createRecipe(deps, per, other, recipe({ title: 'D', tags: ['deres'] }));
    expect(value(await listRecipeTags(deps, junior, h, 50))).to.deep.equal({
      items: [
        { tag: 'hverdag', count: 3 },
        { tag: 'barn liker', count: 2 },
        { tag: 'fisk', count: 1 },
        { tag: 'ørret', count: 1 },
      ],
      total: 4,
    });
    expect(value(await listRecipeTags(deps, kari, h, 2))).to.deep.equal({ items: [{ tag: 'hverdag', count: 3 }, { tag: 'barn liker', count: 2 }], total: 4 });
    await deleteRecipe(deps, kari, h, c.id);
    expect(value(await listRecipeTags(deps, kari, h, 50)).items).to.deep.equal([
      { tag: 'hverdag', count: 2 },
      { tag: 'barn liker', count: 1 },
      { tag: 'fisk', count: 1 },
    ]);
    expect(await listRecipeTags(deps, person('stranger'), h, 50)).to.deep.equal({ ok: false, error: { type: 'household-not-found' } });
  });

  it('keeps where a recipe came from and its picture: fetched on a new address, kept when left out, gone with null or a failed fetch', async () => {
    const { deps, household, fetched } = world();
    const kari = person('kari');
    const h = await household(kari);
    const made = value(await createRecipe(deps, kari, h, recipe({ sourceUrl: 'https://mat.example/suppe', imageUrl: 'https://img.example/a.png' })));
    expect([made.sourceUrl, made.imageUrl, made.image]).to.deep.equal(['https://mat.example/suppe', 'https://img.example/a.png', { sourceUrl: 'https://img.example/a.png', mediaType: 'image/png', etag: '"25"' }]);
    expect(value(await recipeImage(deps, kari, h, made.id)).bytes).to.deep.equal(new Uint8Array([25]));
    // An older client replaces the recipe without either address: both stay, nothing is fetched again.
    const kept = value(await replaceRecipe(deps, kari, h, made.id, recipe({ title: 'Suppe' })));
    expect([kept.sourceUrl, kept.imageUrl, kept.image?.etag]).to.deep.equal(['https://mat.example/suppe', 'https://img.example/a.png', '"25"']);
    expect(fetched).to.deep.equal(['https://img.example/a.png']);
    // A new address is fetched; one that gives no image leaves none (not the old one).
    expect(value(await replaceRecipe(deps, kari, h, made.id, recipe({ imageUrl: 'https://img.example/bb.png' }))).image?.etag).to.equal('"26"');
    const svg = value(await replaceRecipe(deps, kari, h, made.id, recipe({ imageUrl: 'https://img.example/evil.svg' })));
    expect([svg.imageUrl, svg.image]).to.deep.equal(['https://img.example/evil.svg', null]);
    expect(await recipeImage(deps, kari, h, made.id)).to.deep.equal({ ok: false, error: { type: 'recipe-image-not-found' } });
    expect(value(await getRecipe(deps, kari, h, made.id)).image).to.equal(null);
    // null clears both.
    value(await replaceRecipe(deps, kari, h, made.id, recipe({ imageUrl: 'https://img.example/c.png' })));
    const cleared = value(await replaceRecipe(deps, kari, h, made.id, recipe({ sourceUrl: null, imageUrl: null })));
    expect([cleared.sourceUrl, cleared.imageUrl, cleared.image]).to.deep.equal([null, null, null]);
    expect((await recipeImage(deps, kari, h, made.id)).ok).to.equal(false);
  });

  it('shows a picture to members only, and deletes it with its recipe', async () => {
    const { deps, household, join } = world();
    const [kari, junior, stranger] = [person('kari'), person('junior'), person('stranger')];
    const h = await household(kari);
    await join(h, junior, 'Junior');
    const other = await household(stranger);
    const made = value(await createRecipe(deps, kari, h, recipe({ imageUrl: 'https://img.example/a.png' })));
    expect((await recipeImage(deps, junior, h, made.id)).ok).to.equal(true);
    expect(await recipeImage(deps, stranger, h, made.id)).to.deep.equal({ ok: false, error: { type: 'household-not-found' } });
    expect(await recipeImage(deps, stranger, other, made.id)).to.deep.equal({ ok: false, error: { type: 'recipe-image-not-found' } });
    value(await deleteRecipe(deps, kari, h, made.id));
    expect(await deps.recipeImages.get(h, made.id)).to.equal(null);
  });
});
