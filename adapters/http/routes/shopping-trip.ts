import type Koa from 'koa';
import * as v from 'valibot';
import { addRecipeToPlanList, addRecipeToWeekList, RECIPE_PORTIONS } from '../../../core/shopping/add-recipe.js';
import type { ListAnswer } from '../../../core/shopping/lists.js';
import { completeShoppingTrip, reopenShoppingTrip } from '../../../core/shopping/trip.js';
import { problemFor } from '../problem.js';
import { defineRoute, type AnyRoute } from '../route.js';
import { Uuid, IsoDate } from '../schemas.js';
import type { ServiceDeps } from '../deps.js';

const Portions = v.pipe(v.number(), v.integer('a whole number'), v.minValue(RECIPE_PORTIONS.min, `at least ${RECIPE_PORTIONS.min}`), v.maxValue(RECIPE_PORTIONS.max, `at most ${RECIPE_PORTIONS.max}`));
const AddRecipeToShoppingListRequest = v.object({ recipeId: Uuid, portions: v.optional(Portions) });
const AddRecipeToWeekShoppingListRequest = v.object({ recipeId: Uuid, weekStart: v.optional(IsoDate), portions: v.optional(Portions) });

const TRIP_DOC =
  'tripSummary (null while the trip is open) counts, at the closing: linesBought (lines bought whole), linesLeft ' +
  '(lines still Buy) and observationsWritten (Purchased pantry observations the closing wrote).';

/**
 * Closing and reopening the shopping trip, and adding a recipe's lines to a week's list. The list's answer and its
 * schema come from routes/shopping.ts (passed in: that file lists these routes, so importing it back would be a cycle).
 */
export function shoppingTripRoutes(deps: ServiceDeps, list: { answer: (ctx: Koa.Context, a: ListAnswer) => void; schema: v.GenericSchema }): AnyRoute[] {
  const { answer, schema: ShoppingListResponse } = list;
  const tag = 'Shopping list';
  const base = '/api/v1/households/{householdId}/plans/{planId}/shopping-list';
  const responses = { 200: { description: 'The list', schema: ShoppingListResponse } };
  return [
    defineRoute({
      method: 'POST',
      path: `${base}/complete`,
      operationId: 'completeShoppingTrip',
      summary: 'Close the shopping trip',
      description:
        'Idempotent. The first call closes the trip (completedAt set): with markAllBought=true every line still to buy is ' +
        'bought whole by the closing; every line with a purchase on it is written to the pantry as a Purchased ' +
        'observation of the amount bought; one receipt-reminder push goes to the caller. Later calls write nothing and ' +
        `answer the closed list. ${TRIP_DOC}`,
      tag,
      auth: 'session',
      rateLimit: 'backstop',
      params: v.object({ householdId: Uuid, planId: Uuid }),
      query: v.object({ markAllBought: v.optional(v.picklist(['true', 'false'])) }),
      responses,
      problems: { household_not_found: 404, plan_not_found: 404 },
      handler: async (ctx, { caller, params, query }) => {
        const result = await completeShoppingTrip(deps, caller.account, params.householdId, params.planId, { markAllBought: query.markAllBought === 'true' });
        if (!result.ok) throw problemFor(result.error);
        answer(ctx, result.value);
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${base}/reopen`,
      operationId: 'reopenShoppingTrip',
      summary: 'Open the shopping trip again',
      description:
        'Idempotent. The pantry observations the closing wrote are removed (exactly those), lines the closing ticked get ' +
        'their earlier state back, ticks the household made stay. Reopening an open list changes nothing.',
      tag,
      auth: 'session',
      rateLimit: 'backstop',
      params: v.object({ householdId: Uuid, planId: Uuid }),
      responses,
      problems: { household_not_found: 404, plan_not_found: 404 },
      handler: async (ctx, { caller, params }) => {
        const result = await reopenShoppingTrip(deps, caller.account, params.householdId, params.planId);
        if (!result.ok) throw problemFor(result.error);
        answer(ctx, result.value);
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${base}/recipe`,
      operationId: 'addRecipeToShoppingList',
      summary: 'Add a recipe\'s lines to the week\'s list',
      description:
        'Lines for portions (1..100, default the recipe\'s servings) tied to no day, reasonCode AddedRecipe, kept when the ' +
        'list is derived again; a food already listed whose unit converts gets the amount added. Base recipes add their ' +
        'lines, scaled; optional lines are left out; named references are reported in skippedReferences, not bought. The ' +
        'stored list is not derived again. 404 when the plan or the recipe is not the household\'s.',
      tag,
      auth: 'session',
      rateLimit: 'backstop',
      params: v.object({ householdId: Uuid, planId: Uuid }),
      body: AddRecipeToShoppingListRequest,
      responses,
      problems: { household_not_found: 404, plan_not_found: 404, recipe_not_found: 404 },
      handler: async (ctx, { caller, params, body }) => {
        const result = await addRecipeToPlanList(deps, caller.account, params.householdId, params.planId, body);
        if (!result.ok) throw problemFor(result.error);
        answer(ctx, result.value);
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/households/{householdId}/shopping-list/recipe',
      operationId: 'addRecipeToWeekShoppingList',
      summary: 'Add a recipe\'s lines to a week\'s list, by week',
      description:
        'weekStart is any date of the wanted week (default the household\'s current week in its time zone). An unplanned ' +
        'week gets an empty plan and a fresh list; a list in progress is only added to, never derived again. Lines as ' +
        'for plans/{planId}/shopping-list/recipe. 404 when the recipe is not the household\'s.',
      tag,
      auth: 'session',
      rateLimit: 'backstop',
      params: v.object({ householdId: Uuid }),
      body: AddRecipeToWeekShoppingListRequest,
      responses,
      problems: { household_not_found: 404, recipe_not_found: 404 },
      handler: async (ctx, { caller, params, body }) => {
        const result = await addRecipeToWeekList(deps, caller.account, params.householdId, body);
        if (!result.ok) throw problemFor(result.error);
        answer(ctx, result.value);
      },
    }),
  ];
}
