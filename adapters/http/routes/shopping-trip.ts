import * as v from 'valibot';
import { addRecipeToPlanList, addRecipeToWeekList, RECIPE_PORTIONS } from '../../../core/shopping/add-recipe.js';
import { completeShoppingTrip, reopenShoppingTrip, UNTICKED_CHOICES } from '../../../core/shopping/trip.js';
import { callerHouseholdAnd, callerHouseholdAndBody, callerHouseholdAndThenBody, resource } from '../route.js';
import { Uuid, IsoDate, PlanPath } from '../schemas.js';
import { LIST_PATH, listAnswer, type ShoppingRouteDeps } from './shopping-list.js';

const Portions = v.pipe(v.number(), v.integer('a whole number'), v.minValue(RECIPE_PORTIONS.min, `at least ${RECIPE_PORTIONS.min}`), v.maxValue(RECIPE_PORTIONS.max, `at most ${RECIPE_PORTIONS.max}`));
const AddRecipeToShoppingListRequest = v.object({ recipeId: Uuid, portions: v.optional(Portions) });
const AddRecipeToWeekShoppingListRequest = v.object({ recipeId: Uuid, weekStart: v.optional(IsoDate), portions: v.optional(Portions) });

const TRIP_DOC =
  'tripSummary (null while the trip is open) counts, at the closing: linesBought (lines bought whole), linesLeft ' +
  '(lines still Buy) and observationsWritten (Purchased pantry observations the closing wrote).';
const COMPLETE_TRIP_DOC =
  'Idempotent. The first call closes the trip (completedAt set). unticked says what becomes of the lines still to ' +
  'buy: bought (every one is bought whole by the closing), drop (they stay unbought on the closed list) or keep ' +
  '(what is left of each, its need less the pantry and less what was bought of it, is carried into the next ' +
  'week\'s list as a hand-added amount, reasonCode Manual or added to the line of the same food; that week gets an ' +
  'empty plan when it has none, and its list is derived first when it has none; a closed list there is left as it ' +
  'is). Without unticked, markAllBought=true means bought and anything else drop; with it, markAllBought is not ' +
  'read. Every line with a purchase on it is written to the pantry as a Purchased observation of the amount ' +
  'bought; one receipt-reminder push goes to the caller. Later calls write nothing and answer the closed list. ' +
  TRIP_DOC;
const REOPEN_TRIP_DOC =
  'Idempotent. The pantry observations the closing wrote are removed (exactly those), lines the closing ticked get ' +
  'their earlier state back, ticks the household made stay; amounts the closing carried into the next week\'s ' +
  'list (unticked=keep) are taken back off it while that list is open (a line only they made goes). ' +
  'tripSummary.observationsWritten of the closed list is how many observations go. Reopening an open list changes nothing.';
const ADD_RECIPE_DOC =
  'Lines for portions (1..100, default the recipe\'s servings) tied to no day, reasonCode AddedRecipe, kept when the ' +
  'list is derived again; a food already listed whose unit converts gets the amount added. Base recipes add their ' +
  'lines, scaled; optional lines are left out; named references are reported in skippedReferences, not bought. The ' +
  'stored list is not derived again. 404 when the plan or the recipe is not the household\'s.';
const ADD_RECIPE_BY_WEEK_DOC =
  'weekStart is any date of the wanted week (default the household\'s current week in its time zone). An unplanned ' +
  'week gets an empty plan and a fresh list; a list in progress is only added to, never derived again. Lines as ' +
  'for plans/{planId}/shopping-list/recipe. 404 when the recipe is not the household\'s.';

// Closing and reopening the shopping trip, and adding a recipe's lines to a week's list: each answers the whole list.
const { route, householdRoute } = resource<ShoppingRouteDeps>('Shopping list');

export const completeShoppingTripRoute = route({
  method: 'POST',
  path: `${LIST_PATH}/complete`,
  operationId: 'completeShoppingTrip',
  auth: 'session-or-token',
  summary: 'Close the shopping trip',
  description: COMPLETE_TRIP_DOC,
  params: PlanPath,
  query: v.object({
    markAllBought: v.optional(v.picklist(['true', 'false'])),
    unticked: v.optional(v.pipe(v.picklist(UNTICKED_CHOICES), v.description('What becomes of the lines still to buy: bought, keep (for the next week\'s list) or drop.'))),
  }),
  errors: ['household-not-found', 'plan-not-found'],
  run: ({ deps, caller, params, query }) =>
    completeShoppingTrip(deps, caller.account, params.householdId, params.planId, { markAllBought: query.markAllBought === 'true', unticked: query.unticked }),
  ...listAnswer,
});

export const reopenShoppingTripRoute = route({
  method: 'POST',
  path: `${LIST_PATH}/reopen`,
  operationId: 'reopenShoppingTrip',
  auth: 'session-or-token',
  summary: 'Open the shopping trip again',
  description: REOPEN_TRIP_DOC,
  params: PlanPath,
  errors: ['household-not-found', 'plan-not-found'],
  run: callerHouseholdAnd('planId', reopenShoppingTrip),
  ...listAnswer,
});

export const addRecipeToShoppingListRoute = route({
  method: 'POST',
  path: `${LIST_PATH}/recipe`,
  operationId: 'addRecipeToShoppingList',
  auth: 'session-or-token',
  summary: 'Add a recipe\'s lines to the week\'s list',
  description: ADD_RECIPE_DOC,
  params: PlanPath,
  body: AddRecipeToShoppingListRequest,
  errors: ['household-not-found', 'plan-not-found', 'recipe-not-found'],
  run: callerHouseholdAndThenBody('planId', addRecipeToPlanList),
  ...listAnswer,
});

export const addRecipeToWeekShoppingListRoute = householdRoute({
  method: 'POST',
  path: '/api/v1/households/{householdId}/shopping-list/recipe',
  operationId: 'addRecipeToWeekShoppingList',
  auth: 'session-or-token',
  summary: 'Add a recipe\'s lines to a week\'s list, by week',
  description: ADD_RECIPE_BY_WEEK_DOC,
  body: AddRecipeToWeekShoppingListRequest,
  // plan-not-found: the week's plan was deleted while the recipe's lines were being added.
  errors: ['recipe-not-found', 'plan-not-found'],
  run: callerHouseholdAndBody(addRecipeToWeekList),
  ...listAnswer,
});
