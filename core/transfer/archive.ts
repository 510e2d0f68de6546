import type { HouseholdArchive } from '../../ports/household-archive.js';
import type { HouseholdStore } from '../../ports/household-store.js';
import type { MealEventStore } from '../../ports/meal-event-store.js';
import type { PantryMergeStore } from '../../ports/pantry-merge-store.js';
import type { PantryObservationStore } from '../../ports/pantry-observation-store.js';
import type { PlanStore } from '../../ports/plan-store.js';
import type { RecipeImageStore } from '../../ports/recipe-image.js';
import type { RecipeStore } from '../../ports/recipe-store.js';
import type { ShoppingListStore } from '../../ports/shopping-list-store.js';
import type { UnitWeightStore } from '../../ports/unit-weight-store.js';
import type { Recipe } from '../recipes/types.js';
import type { HouseholdId } from '../kernel/ids.js';

/** The stores a household archive is read from and written to (on a database: all bound to one transaction). */
export interface ArchiveStores {
  readonly households: HouseholdStore;
  readonly recipes: RecipeStore;
  readonly recipeImages: RecipeImageStore;
  readonly plans: PlanStore;
  readonly events: MealEventStore;
  readonly pantry: PantryObservationStore;
  readonly pantryMerges: PantryMergeStore;
  readonly unitWeights: UnitWeightStore;
  readonly shoppingLists: ShoppingListStore;
}

const FIRST_DAY = '0001-01-01';
const LAST_DAY = '9999-12-31';

/** The recipes with every base before the recipes that use it (a base of another household is not followed). */
export function basesFirst(recipes: readonly Recipe[]): Recipe[] {
  const byId = new Map(recipes.map((r) => [r.id, r]));
  const placed = new Set<string>();
  const out: Recipe[] = [];
  const place = (r: Recipe, path: Set<string>) => {
    if (placed.has(r.id) || path.has(r.id)) return;
    path.add(r.id);
    for (const line of r.ingredients) {
      const base = line.baseRecipeId === null ? undefined : byId.get(line.baseRecipeId);
      if (base) place(base, path);
    }
    path.delete(r.id);
    placed.add(r.id);
    out.push(r);
  };
  for (const r of recipes) place(r, new Set());
  return out;
}

/** Everything the household keeps, read through the stores (one snapshot when they share a transaction). */
export async function readArchive(s: ArchiveStores, householdId: HouseholdId): Promise<HouseholdArchive | null> {
  const household = await s.households.byId(householdId);
  if (!household) return null;
  const recipes = basesFirst(await s.recipes.all(householdId));
  const images: { recipeId: string; image: NonNullable<Awaited<ReturnType<RecipeImageStore['get']>>> }[] = [];
  for (const r of recipes) {
    if (r.image === null) continue;
    const image = await s.recipeImages.get(householdId, r.id);
    if (image) images.push({ recipeId: r.id, image });
  }
  const plans = await s.plans.weeksBetween(householdId, FIRST_DAY, LAST_DAY);
  // In one read, in the plans' order: a household of five years has 260.
  const listOf = new Map((await s.shoppingLists.ofHousehold(householdId)).map((l) => [l.planId, l]));
  const shoppingLists = plans.flatMap((plan) => {
    const list = listOf.get(plan.id);
    return list ? [{ ...list, derivation: null }] : [];
  });
  return {
    household,
    recipes,
    images,
    plans,
    events: await s.events.eventsBetween(householdId, FIRST_DAY, LAST_DAY),
    observations: await s.pantry.ofHousehold(householdId),
    merges: await s.pantryMerges.activeMerges(householdId),
    rejections: await s.pantryMerges.rejections(householdId),
    unitWeights: await s.unitWeights.list(householdId, null),
    shoppingLists,
  };
}

/**
 * Writes a whole new household through the stores, in an order that satisfies every reference: the household and
 * its members, recipes (bases first) and their pictures, plans, events, the pantry, then the shopping lists. Each
 * row keeps the times it carries. Throws when a store refuses a part (the caller's transaction then keeps nothing).
 */
export async function writeArchive(s: ArchiveStores, a: HouseholdArchive): Promise<void> {
  const h = a.household.id;
  const [first, ...others] = a.household.members;
  if (!first) throw new Error('a household needs a member');
  const { members: _members, updatedAt: _updatedAt, ...household } = a.household;
  await s.households.create(household, { ...first });
  for (const m of others) await s.households.addMember(h, { ...m });
  for (const r of basesFirst(a.recipes)) {
    const { id, image: _image, householdId: _h, createdAt, updatedAt, ...content } = r;
    const made = await s.recipes.create(h, id, content, createdAt);
    if ('refused' in made) throw new Error(`recipe ${id} refused: ${made.refused}`);
    if (updatedAt.getTime() !== createdAt.getTime()) await s.recipes.replace(h, id, content, updatedAt);
  }
  for (const { recipeId, image } of a.images) {
    if (!(await s.recipeImages.put(h, recipeId, image))) throw new Error(`the picture of recipe ${recipeId} has no recipe`);
  }
  for (const plan of a.plans) {
    const days = [...plan.days].sort((x, y) => (x.date < y.date ? -1 : 1));
    await s.plans.getOrCreate(h, plan.weekStart, { planId: plan.id, dayIds: days.map((d) => d.id), at: plan.createdAt });
    for (const d of days) {
      if (d.recipeId === null && d.portionsOverride === null && d.note === null && d.leftoversOf === null) continue;
      const set = await s.plans.setDay(h, plan.id, d.date, { recipeId: d.recipeId, portionsOverride: d.portionsOverride, note: d.note }, plan.updatedAt);
      if (!set) throw new Error(`plan ${plan.id} refused its day ${d.date}`);
    }
  }
  // Leftovers once every dish is written (writing a dish clears the leftovers of its day).
  for (const plan of a.plans) {
    for (const d of plan.days) if (d.leftoversOf !== null) await s.plans.setLeftovers(h, plan.id, d.date, d.leftoversOf, plan.updatedAt);
  }
  if (a.events.length > 0) await s.events.create(a.events);
  await s.pantry.addAll(a.observations);
  for (const m of a.merges) {
    if ((await s.pantryMerges.merge(m)) !== 'merged') throw new Error(`merge of ${m.fromKey} refused`);
  }
  for (const r of a.rejections) await s.pantryMerges.reject(r);
  for (const w of a.unitWeights) await s.unitWeights.put(w);
  for (const list of a.shoppingLists) {
    const { id, householdId: _h, planId, version: _v, derivation: _d, ...content } = list;
    await s.shoppingLists.change(h, planId, { listId: id }, () => ({ write: content, result: null, derivation: null }));
  }
}
