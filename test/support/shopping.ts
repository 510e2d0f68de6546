import { expect } from 'chai';
import { ownedHousehold } from './household.js';

export type RecipeLine = { displayName: string; quantity: number | null; unit: string | null; optional?: boolean; baseRecipeId?: string | null; reference?: string | null };

/** A recipe's request body: lines are neither optional nor linked unless they say so. */
export const recipeBody = (title: string, servings: number, lines: RecipeLine[]) => ({
  title,
  servings,
  activeMinutes: null,
  totalMinutes: null,
  steps: [],
  ingredients: lines.map((l) => ({ optional: false, baseRecipeId: null, reference: null, ...l })),
});

/** The fields of ShoppingListItemResponse the tests read. */
export interface ShoppingItem {
  id: string;
  foodKey: string;
  displayName: string;
  requiredQuantity: number;
  unit: string;
  status: string;
  purchasedQuantity: number;
  purchasedUnit: string | null;
  reasonCode: string;
  haveQuantity: number;
  relatedPlanEntryIds: string[];
  isManual: boolean;
  addedAfterShopping: boolean;
  suggestedPrice: number | null;
}

/** A fresh Owner's household with the plan of the week starting `monday`, and the path of its shopping list. */
export async function plannedWeek(serverUrl: string, monday: string) {
  const h = await ownedHousehold(serverUrl);
  const plan = (await h.owner.put(`${h.base}/plans/week/${monday}`)).json;
  return { ...h, plan, list: `${h.base}/plans/${plan.id}/shopping-list` };
}
export type PlannedWeek = Awaited<ReturnType<typeof plannedWeek>>;

/** Creates a recipe of the household (201 expected). */
export async function addDish(h: Pick<PlannedWeek, 'owner' | 'base'>, body: ReturnType<typeof recipeBody>) {
  const res = await h.owner.post(`${h.base}/recipes`, body);
  expect(res.status, res.text).to.equal(201);
  return res.json as { id: string; ingredients: { foodKey: string }[] };
}
