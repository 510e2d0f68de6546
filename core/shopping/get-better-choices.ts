import type { FoodTableStore } from '../../ports/food-table-store.js';
import type { ReceiptStore } from '../../ports/receipt-store.js';
import type { Account } from '../accounts/types.js';
import { RECEIPT_LIMITS } from '../food/types.js';
import type { ErrorOf } from '../kernel/errors.js';
import type { HouseholdId } from '../kernel/ids.js';
import { fail, ok, type Result } from '../kernel/result.js';
import { rankBetterChoices, type BetterChoicesLine } from './better-choices.js';
import { getShoppingList, type ShoppingDeps } from './lists.js';

export interface BetterChoicesDeps extends ShoppingDeps {
  foodTable: FoodTableStore;
  receipts: ReceiptStore;
}

export interface BetterChoicesAnswer {
  readonly weeklyPlanId: string;
  readonly lines: readonly BetterChoicesLine[];
}

const DAY_MS = 86_400_000;

/**
 * GET shopping-list/better-choices (any member): the week's list as GET shopping-list answers it, then choices
 * for its heavily processed lines; none while the household has the price catalogue off. "Earlier buys" are the products on the household's receipts of the last
 * 365 days. Reads: the list's own, then the food table by the lines' foods with the household and receipts,
 * then the food table by the flagged foods' groups (only when a line is flagged).
 */
export async function getBetterChoices(
  deps: BetterChoicesDeps,
  caller: Account,
  householdId: HouseholdId,
  planId: string,
): Promise<Result<BetterChoicesAnswer, ErrorOf<'household-not-found' | 'plan-not-found'>>> {
  const listed = await getShoppingList(deps, caller, householdId, planId);
  if (!listed.ok) return listed;
  // With the price catalogue off the household wants no product suggestions at all.
  if (!listed.value.settings.priceCatalogueOn) return ok({ weeklyPlanId: planId, lines: [] });
  const lines = listed.value.list.lines.filter((l) => l.status === 'Buy');
  if (lines.length === 0) return ok({ weeklyPlanId: planId, lines: [] });
  const since = new Date(deps.clock.now().getTime() - RECEIPT_LIMITS.classificationDaysMax * DAY_MS);
  const [household, ofFoods, bought] = await Promise.all([
    deps.households.byId(householdId),
    deps.foodTable.byFoodKeys([...new Set(lines.map((l) => l.foodKey))]),
    deps.receipts.linesSince(householdId, since),
  ]);
  if (!household) return fail({ type: 'household-not-found' });
  const input = { lines, boughtProductIds: new Set(bought.flatMap((l) => (l.productId === null ? [] : [l.productId]))), chains: household.chains };
  // First pass on the lines' own foods finds which lines are flagged; their groups are read only then.
  const flagged = groupsToRead(lines, ofFoods);
  const ofGroups = flagged.length > 0 ? await deps.foodTable.byFoodGroups(flagged) : [];
  return ok({ weeklyPlanId: planId, lines: rankBetterChoices({ ...input, products: [...ofFoods, ...ofGroups] }) });
}

/** The food groups of the products of the lines' foods: a superset of the flagged lines' groups, read in one go. */
function groupsToRead(lines: readonly { foodKey: string }[], ofFoods: readonly { foodKey: string; foodGroup: string; novaGroup: number }[]): string[] {
  const keys = new Set(lines.map((l) => l.foodKey));
  // Only foods with a NOVA 4 product can be flagged.
  const heavy = new Set(ofFoods.filter((p) => p.novaGroup === 4 && keys.has(p.foodKey)).map((p) => p.foodKey));
  return [...new Set(ofFoods.filter((p) => heavy.has(p.foodKey)).map((p) => p.foodGroup))].sort();
}
