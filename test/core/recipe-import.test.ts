import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { emptyTables, memoryHouseholdStore } from '../../adapters/memory/stores.js';
import type { Account } from '../../core/accounts/types.js';
import { DEFAULT_IMPORT_SERVINGS, previewOf, previewRecipeImport, type RecipeImportDeps } from '../../core/recipes/import.js';
import type { ExtractedRecipe } from '../../ports/recipe-page.js';
import type { RecipePageRead } from '../../ports/recipe-page-reader.js';
import { person, storedHousehold } from './support.js';

const page = (over: Partial<ExtractedRecipe> = {}): ExtractedRecipe => ({
  title: 'Fiskesuppe',
  ingredientLines: ['400 g torsk', '2 dl fløte', 'salt'],
  steps: ['Kok opp kraften.', 'Legg i fisken.'],
  yields: '4 porsjoner',
  servings: 4,
  totalMinutes: 40,
  activeMinutes: 15,
  imageUrl: 'https://mat.example/suppe.jpg',
  source: 'json-ld',
  warnings: [],
  ...over,
});

/** A reader that answers what the test says and counts what it was asked; a gate with a budget. */
function world(answer: RecipePageRead = { ok: true, recipe: page(), url: 'https://mat.example/suppe' }, budget = 10) {
  const t = emptyTables();
  const asked: string[] = [];
  const gated: string[] = [];
  const deps: RecipeImportDeps = {
    households: memoryHouseholdStore(t),
    recipePages: {
      fromUrl: async (url) => (asked.push(`url ${url}`), answer),
      fromHtml: async (html, url) => (asked.push(`html ${url}`), answer),
    },
    importGate: async (key) => (gated.push(key), gated.length <= budget ? { allowed: true } : { allowed: false, retryAfterSec: 60 }),
  };
  async function household(owner: Account, others: [Account, 'Adult' | 'Junior'][] = []) {
    const now = new Date('2026-11-25T10:00:00.000Z');
    const id = await storedHousehold(deps.households, owner, now);
    for (const [who, role] of others) await deps.households.addMember(id, { id: randomUUID(), displayName: who.displayName, role, accountId: who.id, createdAt: now });
    return id;
  }
  return { deps, asked, gated, household };
}

describe('recipe import (domain)', () => {
  it('previews a fetched page for an adult; a Junior gets adults-only and a stranger household-not-found, neither fetching', async () => {
    const { deps, asked, gated, household } = world();
    const [kari, junior, stranger] = [person('kari'), person('junior'), person('stranger')];
    const h = await household(kari, [[junior, 'Junior']]);
    const r = await previewRecipeImport(deps, kari, h, { url: 'https://mat.example/suppe' });
    expect(r.ok && r.value.recipe.title).to.equal('Fiskesuppe');
    expect(r.ok && r.value.sourceUrl).to.equal('https://mat.example/suppe');
    expect(await previewRecipeImport(deps, junior, h, { url: 'https://x.example/' })).to.deep.equal({ ok: false, error: { type: 'adults-only' } });
    expect(await previewRecipeImport(deps, stranger, h, { url: 'https://x.example/' })).to.deep.equal({ ok: false, error: { type: 'household-not-found' } });
    expect(asked).to.deep.equal(['url https://mat.example/suppe']);
    expect(gated).to.deep.equal([h]);
  });

  it('spends the household budget only on fetches, and answers throttled when it is spent', async () => {
    const { deps, asked, gated, household } = world(undefined, 1);
    const kari = person('kari');
    const h = await household(kari);
    expect((await previewRecipeImport(deps, kari, h, { html: '<html></html>', url: null })).ok).to.equal(true);
    expect((await previewRecipeImport(deps, kari, h, { url: 'https://a.example/' })).ok).to.equal(true);
    expect(await previewRecipeImport(deps, kari, h, { url: 'https://b.example/' })).to.deep.equal({ ok: false, error: { type: 'recipe-import-throttled', retryAfterSec: 60 } });
    expect(asked).to.deep.equal(['html null', 'url https://a.example/']);
    expect(gated).to.have.length(2);
  });

  it('passes the page\'s failure on as a tagged value', async () => {
    const { deps, household } = world({ ok: false, reason: 'not-html' });
    const kari = person('kari');
    const h = await household(kari);
    expect(await previewRecipeImport(deps, kari, h, { url: 'https://a.example/x.png' })).to.deep.equal({ ok: false, error: { type: 'recipe-page-failed', reason: 'not-html' } });
  });

  it('parses each line into quantity, unit and food, keeps what it cannot read whole, and says how sure it is', () => {
    const p = previewOf(page({ ingredientLines: ['400 g torsk', '2 dl fløte', 'litt av hvert, etter smak', '—', 'Til sausen:', '1 ½ ss smør'] }), 'https://mat.example/suppe');
    expect(p.recipe.ingredients.map((i) => [i.quantity, i.unit, i.displayName])).to.deep.equal([
      [400, 'g', 'torsk'],
      [2, 'dl', 'fløte'],
      [null, null, p.recipe.ingredients[2]!.displayName],
      [1.5, 'tbsp', 'smør'],
    ]);
    expect(p.recipe.ingredients[2]!.displayName).to.not.equal('');
    expect(p.lines.map((l) => l.original)).to.deep.equal(['400 g torsk', '2 dl fløte', 'litt av hvert, etter smak', '1 ½ ss smør']);
    expect(p.lines[0]!.confidence).to.equal('high');
    expect(p.lines[2]!.confidence).to.not.equal('high');
    expect(p.warnings).to.include('lines_dropped');
    expect(p.recipe.ingredients.every((i) => i.baseRecipeId === null && i.reference === null)).to.equal(true);
  });

  it('keeps a RecipeRequest\'s limits: servings guessed when missing or out of range, active time never over total, at most 100 lines and steps', () => {
    for (const servings of [null, 0, 101]) {
      const p = previewOf(page({ servings }), null);
      expect(p.recipe.servings).to.equal(DEFAULT_IMPORT_SERVINGS);
      expect(p.warnings).to.include('servings_guessed');
    }
    expect(previewOf(page(), null).warnings).to.not.include('servings_guessed');
    const times = previewOf(page({ totalMinutes: 20, activeMinutes: 30 }), null).recipe;
    expect([times.totalMinutes, times.activeMinutes]).to.deep.equal([20, null]);
    const huge = previewOf(page({ totalMinutes: 20_000, activeMinutes: null }), null).recipe;
    expect(huge.totalMinutes).to.equal(null);
    const many = previewOf(page({ ingredientLines: Array.from({ length: 130 }, (_, i) => `${i + 1} g mel`), steps: Array.from({ length: 120 }, (_, i) => `Steg ${i}`) }), null);
    expect([many.recipe.ingredients.length, many.lines.length, many.recipe.steps.length]).to.deep.equal([100, 100, 100]);
    expect(previewOf(page({ title: 'x'.repeat(300) }), null).recipe.title).to.have.length(200);
  });
});
