import * as v from 'valibot';
import { addShoppingItem, generateShoppingList, readShoppingList, removeShoppingItem, updateShoppingItem } from '../../../core/shopping/lists.js';
import { LINE_STATUSES, SHOPPING_QUANTITY_MAX } from '../../../core/shopping/types.js';
import { getShoppingSettings, updateShoppingSettings } from '../../../core/shopping/settings.js';
import type { Logger } from '../../../ports/logger.js';
import { getBetterChoicesRoute } from './better-choices.js';
import { addRecipeToShoppingListRoute, addRecipeToWeekShoppingListRoute, completeShoppingTripRoute, reopenShoppingTripRoute } from './shopping-trip.js';
import { etagOf, LIST_PATH, listAnswer, ShoppingListItemResponse, ShoppingListResponse, toItem, type ShoppingRouteDeps } from './shopping-list.js';
import { callerAndHousehold, callerHouseholdAnd, callerHouseholdAndBody, callerHouseholdAndThenBody, mount, noContent, resource } from '../route.js';
import { IsoDateTime, PlanPath, Uuid } from '../schemas.js';
import type { ServiceDeps } from '../deps.js';
import { ifNoneMatchHolds } from '../conditional.js';

const Quantity = v.pipe(v.number(), v.gtValue(0, 'greater than 0'), v.maxValue(SHOPPING_QUANTITY_MAX, `at most ${SHOPPING_QUANTITY_MAX}`));
const Unit = v.pipe(v.string(), v.trim(), v.minLength(1, 'a unit'), v.maxLength(32, 'at most 32 characters'));
const AddShoppingItemRequest = v.object({
  displayName: v.pipe(v.string(), v.maxLength(200, 'at most 200 characters')),
  quantity: v.optional(Quantity),
  unit: v.optional(Unit),
});
const UpdateShoppingItemRequest = v.object({
  status: v.picklist(LINE_STATUSES),
  purchasedQuantity: v.optional(Quantity),
  purchasedUnit: v.optional(Unit),
});


const ShoppingSettingsResponse = v.object({ sharingOff: v.boolean(), priceCatalogueOn: v.boolean() });
const UpdateShoppingSettingsRequest = v.object({ sharingOff: v.optional(v.boolean()), priceCatalogueOn: v.optional(v.boolean()) });
const ItemPath = v.object({ householdId: Uuid, itemId: Uuid });
/** When a change sent late was made (the later action wins; core/shopping/line-changes.ts). */
const ActedAt = v.object({
  actedAt: v.optional(
    v.pipe(
      IsoDateTime,
      v.description(
        'When the person made this change, for a change sent late (made offline): a change of the line that another member made after it stands, and this one answers 409 shopping_line_changed naming it (change, changedBy, changedAt, displayName), unless it asks for what the line already is. A time after now counts as now. Left out: the change counts as made now.',
      ),
    ),
  ),
});
const actedAtOf = (q: { actedAt?: string | undefined }) => (q.actedAt === undefined ? {} : { actedAt: new Date(q.actedAt) });
const SETTINGS_DOC =
  'sharingOff (default false): no list pushes (an item added, items ticked) reach the other members; pushes already queued ' +
  'are held back too, as the setting stands when they are handed over. priceCatalogueOn (default true): false leaves ' +
  'suggested prices out of every list (suggestedPrice null, suggestedPriceSource None, priceTotal null) and better-choices ' +
  'answers no lines. Every ShoppingListResponse echoes both.';

const LIST_DOC =
  'The list is derived from the week: each day cooked at home with a dish adds its recipe\'s lines scaled by the day\'s ' +
  'portions over the servings, base recipes included (scaled by the line\'s quantity, in batches); named references are ' +
  'listed in skippedReferences, never bought. Lines merge per food and convertible unit. A food only optional lines want ' +
  '(or lines of a base an optional line points at) is a line with reasonCode OptionalOnly, status Buy, left out of ' +
  'toBuyCount, priceTotal and a closed trip\'s linesLeft (ticking it works as for any line); optional amounts of a food ' +
  'some required line needs are not added. What the pantry likely holds (UseSoon, LikelyAvailable) counts against the ' +
  'need: a food it covers whole is not listed, one it covers in part has reasonCode PartlyInPantry (or stays OptionalOnly) ' +
  'and haveQuantity. reasonCode is one of Planned, PartlyInPantry, OptionalOnly, Manual (added by hand), AddedRecipe ' +
  '(added with a recipe). Ticks and hand-added amounts are kept when the list is derived again: what is bought ' +
  'stays bought (purchasedQuantity), and a line whose need grew past it opens again (status Buy, counted in toBuyCount) ' +
  'with the rest in remainingQuantity and remaining. The week asks before ' +
  'buying more: once the list holds a day\'s dish, a rise of that day\'s portions (guests, a member back from an absence, ' +
  'a closed day opened again, a new member) does not grow it; the rise is listed in wouldAdd (per food and unit, what ' +
  'generate would add now) and staleSince says since when the list has held it back. generate applies it and clears both. ' +
  'A drop (EatingOut, Travel, PersonAbsent, fewer guests) shrinks the list at once, and a new dish on a day or a ' +
  'portionsOverride set on the plan applies at once as well, since a person chose it on the plan.';
const GET_LIST_DOC =
  `${LIST_DOC} A read derives the list again when anything it is derived from moved since it was last derived ` +
  '(the week\'s plan and events, members, settings, recipes, the pantry\'s observations, merges and unit weights, ' +
  'the food table\'s prices), or when a pantry row it counted may have decayed below trust (and at least daily); ' +
  'the result is stored only when its content changed (its version, and so the weak ETag, moves only then). ' +
  'A matching If-None-Match on a current list answers 304 without a body and without deriving anything.';
const GENERATE_LIST_DOC =
  `${LIST_DOC} Generate applies what the list held back (wouldAdd becomes empty, staleSince null). Two members ` +
  'generating at once apply it once: each derives the week as it is, so the second finds nothing more to add. ' +
  'Prices are optional: a failing price provider gives a list without suggestions.';
const ADD_ITEM_DOC =
  'Without quantity and unit both are read from the name ("2 kg poteter", "500g kjøttdeig"); no amount means 1 pcs. ' +
  'A food already on the list whose unit converts gets the amount added to that line (extraQuantity grows; what is in the basket ' +
  'stays, and the line opens again with the rest in remaining); ' +
  'otherwise a line of its own. Hand-added amounts survive regeneration. 400 on an empty name or a quantity not ' +
  'greater than 0 or above 100000. The household gets one push.';
const UPDATE_ITEM_DOC =
  'Buy clears the line\'s purchase. Purchased without purchasedQuantity means all of it was bought: what a shop sells ' +
  'for the rest (`remaining`, whole pieces and packages, rounded up) is added to what was in the basket, in the line\'s ' +
  'unit, so purchasedQuantity may exceed the need and the pantry gets what was bought. With purchasedQuantity, it is ' +
  'the total bought so far: less than the line needs keeps the line open (status Buy, purchasedQuantity set, the ' +
  'remainder still to buy). A purchasedUnit other than the line\'s is converted (pieces ↔ mass by the household\'s ' +
  'piece weight); one that does not convert is kept as said in purchasedUnit and the line stays open. The first ' +
  'purchase on a line queues one ticked-items push. A change sent late (made offline) says when it was made in ' +
  'actedAt: the later action in time wins, so another member\'s later change of the line stands (409 ' +
  'shopping_line_changed), and a line another member removed before it comes back with this change.';
const REMOVE_ITEM_DOC =
  'Any member. A line only a person put on the list (reasonCode Manual: added by hand; AddedRecipe: added with a recipe) ' +
  'is removed, ticked or not, and does not come back when the list is derived again. A line the week\'s dishes need ' +
  '(Planned, PartlyInPantry) answers 409 shopping_line_not_removable and stays, also when an amount was added to it by ' +
  'hand. The list is brought up to date first, so a line whose dish has left the week counts as hand-added. An unknown ' +
  'id or another household\'s line answers 404 shopping_item_not_found. A removal sent late (made offline) says when ' +
  'it was made in actedAt: another member\'s later change of the line (a tick, say) stands and this answers 409 ' +
  'shopping_line_changed; a removed line is kept with its removal, so that a later change of it sent late puts it back.';

const { route, handledRoute, householdRoute } = resource<ShoppingRouteDeps>('Shopping list');

const getShoppingSettingsRoute = householdRoute({
  method: 'GET',
  path: '/api/v1/households/{householdId}/shopping-settings',
  operationId: 'getShoppingSettings',
  auth: 'session-or-token',
  summary: "The household's shopping settings",
  description: `Any member. ${SETTINGS_DOC}`,
  responses: { 200: { description: 'The settings', schema: ShoppingSettingsResponse } },
  run: callerAndHousehold(getShoppingSettings),
});

const updateShoppingSettingsRoute = householdRoute({
  method: 'PATCH',
  path: '/api/v1/households/{householdId}/shopping-settings',
  operationId: 'updateShoppingSettings',
  auth: 'session-or-token',
  summary: "Change the household's shopping settings (adults only)",
  description: `Adults only (a Junior gets 403 adults_only). A setting left out keeps its value; an empty body changes nothing. ${SETTINGS_DOC}`,
  body: UpdateShoppingSettingsRequest,
  responses: { 200: { description: 'The settings after the change', schema: ShoppingSettingsResponse } },
  errors: ['adults-only'],
  run: callerHouseholdAndBody(updateShoppingSettings),
});

const getShoppingListRoute = handledRoute({
  method: 'GET',
  path: LIST_PATH,
  operationId: 'getShoppingList',
  auth: 'session-or-token',
  summary: 'The week\'s shopping list',
  description: GET_LIST_DOC,
  params: PlanPath,
  responses: {
    200: { description: 'The list', schema: ShoppingListResponse, headers: { ETag: 'W/"<list id>-<version>" (with -s while sharingOff, -p while priceCatalogueOn is false)', 'Cache-Control': 'private, no-cache' } },
    304: { description: 'Not modified since the ETag sent' },
  },
  errors: ['household-not-found', 'plan-not-found'],
  handle: async (ctx, input) => {
    const { deps, caller, params, refuse } = input;
    const inm = ctx.req.headers['if-none-match'] ?? '';
    const result = await readShoppingList(deps, caller.account, params.householdId, params.planId, (stamp, settings) => ifNoneMatchHolds(inm, etagOf(stamp, settings)));
    if (!result.ok) throw refuse(result.error);
    const read = result.value;
    if (read.kind === 'unchanged' || ifNoneMatchHolds(inm, etagOf(read.answer.list, read.answer.settings))) {
      // Node's own setHeader: Koa's ctx.set makes arrays and a closure a header (GET /me, W1), on the path W5 measures.
      ctx.res.setHeader('ETag', read.kind === 'unchanged' ? etagOf(read.stamp, read.settings) : etagOf(read.answer.list, read.answer.settings));
      ctx.res.setHeader('Cache-Control', 'private, no-cache');
      ctx.status = 304;
      return;
    }
    ctx.set(listAnswer.headers(read.answer));
    ctx.body = listAnswer.reply(read.answer, input);
  },
});

const generateShoppingListRoute = route({
  method: 'POST',
  path: `${LIST_PATH}/generate`,
  operationId: 'generateShoppingList',
  auth: 'session-or-token',
  summary: 'Derive the week\'s shopping list again now',
  description: GENERATE_LIST_DOC,
  params: PlanPath,
  errors: ['household-not-found', 'plan-not-found'],
  run: callerHouseholdAnd('planId', generateShoppingList),
  ...listAnswer,
});

const addShoppingItemRoute = route({
  method: 'POST',
  path: `${LIST_PATH}/items`,
  operationId: 'addShoppingItem',
  auth: 'session-or-token',
  summary: 'Add a line by hand',
  description: ADD_ITEM_DOC,
  params: PlanPath,
  body: AddShoppingItemRequest,
  responses: { 200: { description: 'The line', schema: ShoppingListItemResponse } },
  errors: ['household-not-found', 'plan-not-found', 'shopping-item-name-empty', 'shopping-quantity-out-of-bounds'],
  run: callerHouseholdAndThenBody('planId', addShoppingItem),
  reply: toItem,
});

const updateShoppingItemRoute = route({
  method: 'PATCH',
  path: '/api/v1/households/{householdId}/shopping-items/{itemId}',
  operationId: 'updateShoppingItem',
  auth: 'session-or-token',
  summary: 'Tick or untick a line',
  description: UPDATE_ITEM_DOC,
  params: ItemPath,
  query: ActedAt,
  body: UpdateShoppingItemRequest,
  responses: { 200: { description: 'The line', schema: ShoppingListItemResponse } },
  errors: ['household-not-found', 'shopping-item-not-found', 'shopping-quantity-out-of-bounds', 'shopping-line-changed'],
  run: ({ deps, caller, params, query, body }) => updateShoppingItem(deps, caller.account, params.householdId, params.itemId, { ...body, ...actedAtOf(query) }),
  reply: toItem,
});

const removeShoppingItemRoute = route({
  method: 'DELETE',
  path: '/api/v1/households/{householdId}/shopping-items/{itemId}',
  operationId: 'removeShoppingItem',
  auth: 'session-or-token',
  summary: 'Remove a line put on the list by hand',
  description: REMOVE_ITEM_DOC,
  params: ItemPath,
  query: ActedAt,
  ...noContent('Removed'),
  // plan-not-found: the line's plan was deleted while the list was brought up to date.
  errors: ['household-not-found', 'shopping-item-not-found', 'shopping-line-not-removable', 'plan-not-found', 'shopping-line-changed'],
  run: ({ deps, caller, params, query }) => removeShoppingItem(deps, caller.account, params.householdId, params.itemId, actedAtOf(query)),
});

export const shoppingRoutes = (deps: ServiceDeps, logger: Logger) =>
  mount<ShoppingRouteDeps>({ ...deps, logger }, [
    getShoppingSettingsRoute,
    updateShoppingSettingsRoute,
    getBetterChoicesRoute,
    completeShoppingTripRoute,
    reopenShoppingTripRoute,
    addRecipeToShoppingListRoute,
    addRecipeToWeekShoppingListRoute,
    getShoppingListRoute,
    generateShoppingListRoute,
    addShoppingItemRoute,
    updateShoppingItemRoute,
    removeShoppingItemRoute,
  ]);
