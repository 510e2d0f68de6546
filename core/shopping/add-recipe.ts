import type { Account } from '../accounts/types.js';
import { requireMember } from '../households/access.js';
import { aisleOf } from '../pantry/model.js';
import { getPlan, openWeekPlan } from '../plans/plans.js';
import { dateIn, weekStartOf, type IsoDate } from '../kernel/dates.js';
import type { ErrorOf } from '../kernel/errors.js';
import type { HouseholdId } from '../kernel/ids.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { contentOf, deriveList, type DerivedLine } from './derive.js';
import { recipesReaching } from '../recipes/reaching.js';
import { householdAmounts, refresh, shoppingStarted, type ListAnswer, type ShoppingDeps } from './lists.js';
import { joined, packField } from './line-amounts.js';
import { shoppingSettingsOf, type ShoppingLine, type ShoppingList } from './types.js';
import { convert } from '../food/units.js';

export const RECIPE_PORTIONS = { min: 1, max: 100 } as const;

type AddDenied = ErrorOf<'household-not-found' | 'plan-not-found' | 'recipe-not-found'>;

/**
 * Lays a recipe's lines over the list (pure). A food already listed whose unit converts gets the amount added to
 * that line (what is in the basket stays; the line opens again for the rest); otherwise a line of its own, `AddedRecipe`, tied to no day. The amounts
 * go into extraQuantity, so they survive deriving again as hand-added amounts do.
 */
export function addRecipeLines(list: ShoppingList, added: readonly DerivedLine[], gramsPerPiece: (foodKey: string) => number | null, newId: () => string): ShoppingLine[] {
  const lines = [...list.lines];
  const after = shoppingStarted(list);
  for (const d of added) {
    // "To taste" lines add nothing to buy.
    if (d.requiredQuantity <= 0) continue;
    const gpp = gramsPerPiece(d.foodKey);
    const i = lines.findIndex((l) => l.foodKey === d.foodKey && convert(d.requiredQuantity, d.unit, l.unit, gpp) !== null);
    if (i >= 0) {
      lines[i] = joined(lines[i]!, convert(d.requiredQuantity, d.unit, lines[i]!.unit, gpp)!, after);
      continue;
    }
    lines.push({
      id: newId(),
      foodKey: d.foodKey,
      displayName: d.displayName,
      requiredQuantity: d.requiredQuantity,
      unit: d.unit,
      extraQuantity: d.requiredQuantity,
      status: 'Buy',
      purchasedQuantity: 0,
      purchasedUnit: null,
      reasonCode: 'AddedRecipe',
      haveQuantity: 0,
      relatedPlanEntryIds: [],
      isManual: false,
      addedAfterShopping: after,
      aisle: aisleOf(d.foodKey),
      suggestedPrice: null,
      suggestedProductName: null,
      suggestedPriceSource: 'None',
      suggestedPriceIsAggregate: false,
      tickNotified: false,
      preferenceFit: d.preferenceFit,
      // The household's package size, as the derivation gave it (no price is asked for a recipe added by hand).
      ...packField(d.pack),
    });
  }
  return lines;
}

/**
 * POST plans/{planId}/shopping-list/recipe (any member): the recipe's lines for `portions` (default its servings),
 * base recipes expanded and scaled, optional lines left out, named references kept among the list's
 * skippedReferences (with the week's own) for as long as the list lives. A stored list is never derived again here: the lines are added to it
 * as it is (only a plan with no stored list yet gets its list derived first).
 */
export async function addRecipeToPlanList(
  deps: ShoppingDeps,
  caller: Account,
  householdId: HouseholdId,
  planId: string,
  input: { recipeId: string; portions?: number | undefined },
): Promise<Result<ListAnswer, AddDenied>> {
  const plan = await getPlan(deps, caller, householdId, planId);
  if (!plan.ok) return plan;
  const [recipes, { gramsPerPiece, packOf }, household] = await Promise.all([recipesReaching(deps, householdId, [input.recipeId]), householdAmounts(deps, householdId), deps.households.byId(householdId)]);
  if (!household) return fail({ type: 'household-not-found' });
  const recipe = recipes.get(input.recipeId);
  if (!recipe) return fail({ type: 'recipe-not-found' });
  const portions = input.portions ?? recipe.servings;
  const derived = deriveList({
    plan: { days: [{ id: recipe.id, cookedAtHome: true, recipeId: recipe.id, portions }] },
    recipes,
    pantry: [],
    gramsPerPiece,
    packOf,
    prices: new Map(),
    dislikes: household.dislikes,
  });
  // A recipe added by hand leaves its optional ingredients out.
  const lines = derived.lines.filter((l) => l.reasonCode !== 'OptionalOnly');
  let priceError: unknown = null;
  if (!(await deps.shoppingLists.byPlan(householdId, planId))) {
    const made = await refresh(deps, caller, householdId, planId, false);
    if (!made.ok) return made;
    priceError = made.value.priceError;
  }
  const { list } = await deps.shoppingLists.change(householdId, planId, { listId: deps.ids.newId() }, (current) => {
    // The list was stored above; it goes only with its plan (deleted meanwhile: nothing to add to).
    if (!current) return { write: null, result: null };
    const added = addRecipeLines(current, lines, gramsPerPiece, () => deps.ids.newId());
    const union = (a: readonly string[]) => [...new Set([...a, ...derived.skippedReferences])];
    return { write: { ...contentOf(current), lines: added, skippedReferences: union(current.skippedReferences), addedReferences: union(current.addedReferences) }, result: null };
  });
  if (!list) return fail({ type: 'plan-not-found' });
  return ok({ list, settings: shoppingSettingsOf(household), priceError });
}

/**
 * POST shopping-list/recipe (any member), addressed by week: `weekStart` is any date of the wanted week (default the
 * household's current week in its time zone). An unplanned week gets an empty plan (made through the plan store: a
 * Junior may add a recipe, so no adult is needed) and a fresh list; a list in progress is only added to.
 */
export async function addRecipeToWeekList(
  deps: ShoppingDeps,
  caller: Account,
  householdId: HouseholdId,
  input: { recipeId: string; weekStart?: IsoDate | undefined; portions?: number | undefined },
): Promise<Result<ListAnswer, AddDenied>> {
  const member = await requireMember(deps, householdId, caller.id);
  if (!member.ok) return member;
  const household = await deps.households.byId(householdId);
  if (!household) return fail({ type: 'household-not-found' });
  if (!(await deps.recipes.byId(householdId, input.recipeId))) return fail({ type: 'recipe-not-found' });
  const week = weekStartOf(input.weekStart ?? dateIn(household.timeZoneId, deps.clock.now()));
  const plan = await openWeekPlan(deps, household, week);
  return addRecipeToPlanList(deps, caller, householdId, plan.id, { recipeId: input.recipeId, portions: input.portions });
}
