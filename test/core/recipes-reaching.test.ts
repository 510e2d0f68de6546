import { expect } from 'chai';
import { normalizeFoodKey } from '../../core/kernel/food-key.js';
import { recipesReaching } from '../../core/recipes/reaching.js';
import type { Ingredient, Recipe } from '../../core/recipes/types.js';

describe('the recipes a dish reaches through its bases (domain)', () => {
  const ing = (displayName: string, baseRecipeId: string | null = null): Ingredient => ({ displayName, foodKey: normalizeFoodKey(displayName), quantity: 1, unit: 'stk', optional: false, baseRecipeId, reference: null });
  const recipe = (id: string, ingredients: Ingredient[]): Recipe => ({ id, householdId: 'h', title: id, servings: 4, activeMinutes: null, totalMinutes: null, steps: [], ingredients, sourceUrl: null, imageUrl: null, tags: [], image: null, createdAt: new Date(0), updatedAt: new Date(0) });
  const basil = recipe('basil-oil', [ing('Basilikum')]);
  const pesto = recipe('pesto', [ing('Pinjekjerner'), ing('Basilikumolje', 'basil-oil')]);
  const pasta = recipe('pasta', [ing('Spaghetti'), ing('Grønn saus', 'pesto')]);
  const soup = recipe('soup', [ing('Gulrot'), ing('Borte', 'gone')]);
  const all = new Map([basil, pesto, pasta, soup].map((r) => [r.id, r]));

  /** A store that counts what it is asked for, level by level. */
  const counting = () => {
    const asked: string[][] = [];
    return { asked, recipes: { byIds: async (_h: string, ids: readonly string[]) => (asked.push([...ids]), ids.flatMap((id) => all.get(id) ?? [])) } };
  };

  it('reads the recipes asked for, then each level of bases once, and a base that is gone once only', async () => {
    const deps = counting();
    const found = await recipesReaching(deps, 'h', ['pasta', 'soup', 'pasta']);
    expect([...found.keys()].sort()).to.deep.equal(['basil-oil', 'pasta', 'pesto', 'soup']);
    expect(deps.asked).to.deep.equal([['pasta', 'soup'], ['pesto', 'gone'], ['basil-oil']]);
  });

  it('takes recipes already read as they are, and reads only the bases they lack', async () => {
    const deps = counting();
    const found = await recipesReaching(deps, 'h', ['pasta', 'soup'], [pasta, soup]);
    expect([...found.keys()].sort()).to.deep.equal(['basil-oil', 'pasta', 'pesto', 'soup']);
    expect(deps.asked).to.deep.equal([['pesto', 'gone'], ['basil-oil']]);
    // Known recipes without bases: nothing is read at all.
    const none = counting();
    expect([...(await recipesReaching(none, 'h', ['basil-oil'], [basil])).keys()]).to.deep.equal(['basil-oil']);
    expect(none.asked).to.deep.equal([]);
  });
});
