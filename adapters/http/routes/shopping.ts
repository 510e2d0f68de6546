import type Koa from 'koa';
import * as v from 'valibot';
import { addShoppingItem, generateShoppingList, listTotals, readShoppingList, removeShoppingItem, updateShoppingItem, type ListAnswer } from '../../../core/shopping/lists.js';
import { LINE_STATUSES, PREFERENCE_FITS, REASON_CODES, SHOPPING_QUANTITY_MAX, type ShoppingLine, type ShoppingList, type ShoppingSettings } from '../../../core/shopping/types.js';
import { getShoppingSettings, updateShoppingSettings } from '../../../core/shopping/settings.js';
import { AISLES } from '../../../core/pantry/model.js';
import type { Logger } from '../../../ports/logger.js';
import { problemFor } from '../problem.js';
import { betterChoicesRoute } from './better-choices.js';
import { shoppingTripRoutes } from './shopping-trip.js';
import { defineRoute, type AnyRoute } from '../route.js';
import { IsoDateTime, Uuid } from '../schemas.js';
import type { ServiceDeps } from '../deps.js';
import { ifNoneMatchHolds } from '../conditional.js';

const ShoppingListItemResponse = v.object({
  id: Uuid,
  foodKey: v.string(),
  displayName: v.string(),
  requiredQuantity: v.number(),
  unit: v.string(),
  status: v.picklist(LINE_STATUSES),
  purchasedQuantity: v.number(),
  purchasedUnit: v.nullable(v.string()),
  reasonCode: v.picklist(REASON_CODES),
  haveQuantity: v.number(),
  relatedPlanEntryIds: v.array(Uuid),
  addedAfterShopping: v.boolean(),
  suggestedPrice: v.nullable(v.number()),
  suggestedProductName: v.nullable(v.string()),
  suggestedPriceIsAggregate: v.boolean(),
  suggestedPriceSource: v.picklist(['None', 'FoodTable']),
  aisle: v.picklist(AISLES),
  isManual: v.boolean(),
  preferenceFit: v.picklist(PREFERENCE_FITS),
});
const ShoppingListResponse = v.object({
  id: Uuid,
  householdId: Uuid,
  weeklyPlanId: Uuid,
  generatedAt: IsoDateTime,
  completedAt: v.nullable(IsoDateTime),
  items: v.array(ShoppingListItemResponse),
  skippedReferences: v.array(v.string()),
  tripSummary: v.nullable(v.object({ linesBought: v.number(), linesLeft: v.number(), observationsWritten: v.number() })),
  /** Lines still to buy, OptionalOnly left out. */
  toBuyCount: v.number(),
  /** The suggested prices (one package each) of those lines, summed; null when none has one. */
  priceTotal: v.nullable(v.number()),
  sharingOff: v.boolean(),
  priceCatalogueOn: v.boolean(),
  /** When the list first held back more to buy than it applies; null while nothing is held back. */
  staleSince: v.nullable(IsoDateTime),
  /** What generate would add now. */
  wouldAdd: v.array(v.object({ foodKey: v.string(), displayName: v.string(), quantity: v.number(), unit: v.string() })),
});
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

export const toItem = (l: ShoppingLine): v.InferOutput<typeof ShoppingListItemResponse> => ({
  id: l.id,
  foodKey: l.foodKey,
  displayName: l.displayName,
  requiredQuantity: l.requiredQuantity,
  unit: l.unit,
  status: l.status,
  purchasedQuantity: l.purchasedQuantity,
  purchasedUnit: l.purchasedUnit,
  reasonCode: l.reasonCode,
  haveQuantity: l.haveQuantity,
  relatedPlanEntryIds: [...l.relatedPlanEntryIds],
  addedAfterShopping: l.addedAfterShopping,
  suggestedPrice: l.suggestedPrice,
  suggestedProductName: l.suggestedProductName,
  suggestedPriceIsAggregate: l.suggestedPriceIsAggregate,
  suggestedPriceSource: l.suggestedPriceSource,
  aisle: l.aisle as (typeof AISLES)[number],
  isManual: l.isManual,
  preferenceFit: l.preferenceFit,
});
export const toList = (l: ShoppingList, settings: ShoppingSettings): v.InferOutput<typeof ShoppingListResponse> => ({
  id: l.id,
  householdId: l.householdId,
  weeklyPlanId: l.planId,
  generatedAt: l.generatedAt.toISOString(),
  completedAt: l.completedAt === null ? null : l.completedAt.toISOString(),
  items: l.lines.map(toItem),
  skippedReferences: [...l.skippedReferences],
  tripSummary: l.trip === null ? null : { ...l.trip.summary },
  ...listTotals(l),
  sharingOff: settings.sharingOff,
  priceCatalogueOn: settings.priceCatalogueOn,
  staleSince: l.staleSince === null ? null : l.staleSince.toISOString(),
  wouldAdd: l.wouldAdd.map((w) => ({ ...w })),
});

/**
 * The weak ETag of a stored list as answered: its id and version (every write bumps the version), and a mark for
 * each shopping setting that is not the default, since the answer echoes them and they live on the household.
 */
export const etagOf = (l: Pick<ShoppingList, 'id' | 'version'>, settings: ShoppingSettings): string =>
  `W/"${l.id}-${l.version}${settings.sharingOff ? '-s' : ''}${settings.priceCatalogueOn ? '' : '-p'}"`;

const ShoppingSettingsResponse = v.object({ sharingOff: v.boolean(), priceCatalogueOn: v.boolean() });
const UpdateShoppingSettingsRequest = v.object({ sharingOff: v.optional(v.boolean()), priceCatalogueOn: v.optional(v.boolean()) });
const SETTINGS_DOC =
  'sharingOff (default false): no list pushes (an item added, items ticked) reach the other members; pushes already queued ' +
  'are held back too, as the setting stands when they are handed over. priceCatalogueOn (default true): false leaves ' +
  'suggested prices out of every list (suggestedPrice null, suggestedPriceSource None, priceTotal null) and better-choices ' +
  'answers no lines. Every ShoppingListResponse echoes both.';

export function shoppingRoutes(deps: ServiceDeps, logger: Logger): AnyRoute[] {
  const tag = 'Shopping list';
  const base = '/api/v1/households/{householdId}/plans/{planId}/shopping-list';
  const answer = (ctx: Koa.Context, a: ListAnswer) => {
    if (a.priceError !== null) logger.warn('price provider failed; list answered without suggestions', { err: a.priceError });
    ctx.set('ETag', etagOf(a.list, a.settings));
    ctx.set('Cache-Control', 'private, no-cache');
    ctx.body = toList(a.list, a.settings);
  };
  const LIST_DOC =
    'The list is derived from the week: each day cooked at home with a dish adds its recipe\'s lines scaled by the day\'s ' +
    'portions over the servings, base recipes included (scaled by the line\'s quantity, in batches); named references are ' +
    'listed in skippedReferences, never bought. Lines merge per food and convertible unit. A food only optional lines want ' +
    '(or lines of a base an optional line points at) is a line with reasonCode OptionalOnly, status Buy, left out of ' +
    'toBuyCount, priceTotal and a closed trip\'s linesLeft (ticking it works as for any line); optional amounts of a food ' +
    'some required line needs are not added. What the pantry likely holds (UseSoon, LikelyAvailable) counts against the ' +
    'need: a food it covers whole is not listed, one it covers in part has reasonCode PartlyInPantry (or stays OptionalOnly) ' +
    'and haveQuantity. reasonCode is one of Planned, PartlyInPantry, OptionalOnly, Manual (added by hand), AddedRecipe ' +
    '(added with a recipe). Ticks and hand-added amounts are kept when the list is derived again. The week asks before ' +
    'buying more: once the list holds a day\'s dish, a rise of that day\'s portions (guests, a member back from an absence, ' +
    'a closed day opened again, a new member) does not grow it; the rise is listed in wouldAdd (per food and unit, what ' +
    'generate would add now) and staleSince says since when the list has held it back. generate applies it and clears both. ' +
    'A drop (EatingOut, Travel, PersonAbsent, fewer guests) shrinks the list at once, and a new dish on a day or a ' +
    'portionsOverride set on the plan applies at once as well, since a person chose it on the plan.';
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/households/{householdId}/shopping-settings',
      operationId: 'getShoppingSettings',
      summary: "The household's shopping settings",
      description: `Any member. ${SETTINGS_DOC}`,
      tag,
      auth: 'session',
      rateLimit: 'backstop',
      params: v.object({ householdId: Uuid }),
      responses: { 200: { description: 'The settings', schema: ShoppingSettingsResponse } },
      problems: { household_not_found: 404 },
      handler: async (ctx, { caller, params }) => {
        const result = await getShoppingSettings(deps, caller.account, params.householdId);
        if (!result.ok) throw problemFor(result.error);
        ctx.body = result.value;
      },
    }),
    defineRoute({
      method: 'PATCH',
      path: '/api/v1/households/{householdId}/shopping-settings',
      operationId: 'updateShoppingSettings',
      summary: "Change the household's shopping settings (adults only)",
      description: `Adults only (a Junior gets 403 adults_only). A setting left out keeps its value; an empty body changes nothing. ${SETTINGS_DOC}`,
      tag,
      auth: 'session',
      rateLimit: 'backstop',
      params: v.object({ householdId: Uuid }),
      body: UpdateShoppingSettingsRequest,
      responses: { 200: { description: 'The settings after the change', schema: ShoppingSettingsResponse } },
      problems: { household_not_found: 404, adults_only: 403 },
      handler: async (ctx, { caller, params, body }) => {
        const result = await updateShoppingSettings(deps, caller.account, params.householdId, body);
        if (!result.ok) throw problemFor(result.error);
        ctx.body = result.value;
      },
    }),
    betterChoicesRoute(deps),
    ...shoppingTripRoutes(deps, { answer, schema: ShoppingListResponse }),
    defineRoute({
      method: 'GET',
      path: base,
      operationId: 'getShoppingList',
      summary: 'The week\'s shopping list',
      description:
        `${LIST_DOC} A read derives the list again when anything it is derived from moved since it was last derived ` +
        '(the week\'s plan and events, members, settings, recipes, the pantry\'s observations, merges and unit weights, ' +
        'the food table\'s prices), or when a pantry row it counted may have decayed below trust (and at least daily); ' +
        'the result is stored only when its content changed (its version, and so the weak ETag, moves only then). ' +
        'A matching If-None-Match on a current list answers 304 without a body and without deriving anything.',
      tag,
      auth: 'session',
      rateLimit: 'backstop',
      params: v.object({ householdId: Uuid, planId: Uuid }),
      responses: {
        200: { description: 'The list', schema: ShoppingListResponse, headers: { ETag: 'W/"<list id>-<version>" (with -s while sharingOff, -p while priceCatalogueOn is false)', 'Cache-Control': 'private, no-cache' } },
        304: { description: 'Not modified since the ETag sent' },
      },
      problems: { household_not_found: 404, plan_not_found: 404 },
      handler: async (ctx, { caller, params }) => {
        const inm = ctx.req.headers['if-none-match'] ?? '';
        const result = await readShoppingList(deps, caller.account, params.householdId, params.planId, (stamp, settings) => ifNoneMatchHolds(inm, etagOf(stamp, settings)));
        if (!result.ok) throw problemFor(result.error);
        const read = result.value;
        if (read.kind === 'unchanged' || ifNoneMatchHolds(inm, etagOf(read.answer.list, read.answer.settings))) {
          // Node's own setHeader: Koa's ctx.set makes arrays and a closure a header (GET /me, W1), on the path W5 measures.
          ctx.res.setHeader('ETag', read.kind === 'unchanged' ? etagOf(read.stamp, read.settings) : etagOf(read.answer.list, read.answer.settings));
          ctx.res.setHeader('Cache-Control', 'private, no-cache');
          ctx.status = 304;
          return;
        }
        answer(ctx, read.answer);
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${base}/generate`,
      operationId: 'generateShoppingList',
      summary: 'Derive the week\'s shopping list again now',
      description:
        `${LIST_DOC} Generate applies what the list held back (wouldAdd becomes empty, staleSince null). Two members ` +
        'generating at once apply it once: each derives the week as it is, so the second finds nothing more to add. ' +
        'Prices are optional: a failing price provider gives a list without suggestions.',
      tag,
      auth: 'session',
      rateLimit: 'backstop',
      params: v.object({ householdId: Uuid, planId: Uuid }),
      responses: { 200: { description: 'The list', schema: ShoppingListResponse } },
      problems: { household_not_found: 404, plan_not_found: 404 },
      handler: async (ctx, { caller, params }) => {
        const result = await generateShoppingList(deps, caller.account, params.householdId, params.planId);
        if (!result.ok) throw problemFor(result.error);
        answer(ctx, result.value);
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${base}/items`,
      operationId: 'addShoppingItem',
      summary: 'Add a line by hand',
      description:
        'Without quantity and unit both are read from the name ("2 kg poteter", "500g kjøttdeig"); no amount means 1 pcs. ' +
        'A food already on the list whose unit converts gets the amount added to that line (a bought line opens again); ' +
        'otherwise a line of its own. Hand-added amounts survive regeneration. 400 on an empty name or a quantity not ' +
        'greater than 0 or above 100000. The household gets one push.',
      tag,
      auth: 'session',
      rateLimit: 'backstop',
      params: v.object({ householdId: Uuid, planId: Uuid }),
      body: AddShoppingItemRequest,
      responses: { 200: { description: 'The line', schema: ShoppingListItemResponse } },
      problems: { household_not_found: 404, plan_not_found: 404 },
      handler: async (ctx, { caller, params, body }) => {
        const result = await addShoppingItem(deps, caller.account, params.householdId, params.planId, body);
        if (!result.ok) throw problemFor(result.error);
        ctx.body = toItem(result.value);
      },
    }),
    defineRoute({
      method: 'PATCH',
      path: '/api/v1/households/{householdId}/shopping-items/{itemId}',
      operationId: 'updateShoppingItem',
      summary: 'Tick or untick a line',
      description:
        'Buy clears the line\'s purchase. Purchased without purchasedQuantity means all of it was bought; with one, it is ' +
        'the total bought so far: less than the line needs keeps the line open (status Buy, purchasedQuantity set, the ' +
        'remainder still to buy). A purchasedUnit other than the line\'s is converted (pieces ↔ mass by the household\'s ' +
        'piece weight); one that does not convert is kept as said in purchasedUnit and the line stays open. The first ' +
        'purchase on a line queues one ticked-items push.',
      tag,
      auth: 'session',
      rateLimit: 'backstop',
      params: v.object({ householdId: Uuid, itemId: Uuid }),
      body: UpdateShoppingItemRequest,
      responses: { 200: { description: 'The line', schema: ShoppingListItemResponse } },
      problems: { household_not_found: 404, shopping_item_not_found: 404 },
      handler: async (ctx, { caller, params, body }) => {
        const result = await updateShoppingItem(deps, caller.account, params.householdId, params.itemId, body);
        if (!result.ok) throw problemFor(result.error);
        ctx.body = toItem(result.value);
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/v1/households/{householdId}/shopping-items/{itemId}',
      operationId: 'removeShoppingItem',
      summary: 'Remove a line put on the list by hand',
      description:
        'Any member. A line only a person put on the list (reasonCode Manual: added by hand; AddedRecipe: added with a recipe) ' +
        'is removed, ticked or not, and does not come back when the list is derived again. A line the week\'s dishes need ' +
        '(Planned, PartlyInPantry) answers 409 shopping_line_not_removable and stays, also when an amount was added to it by ' +
        'hand. The list is brought up to date first, so a line whose dish has left the week counts as hand-added. An unknown ' +
        'id or another household\'s line answers 404 shopping_item_not_found.',
      tag,
      auth: 'session',
      rateLimit: 'backstop',
      params: v.object({ householdId: Uuid, itemId: Uuid }),
      responses: { 204: { description: 'Removed' } },
      problems: { household_not_found: 404, shopping_item_not_found: 404, shopping_line_not_removable: 409 },
      handler: async (ctx, { caller, params }) => {
        const result = await removeShoppingItem(deps, caller.account, params.householdId, params.itemId);
        if (!result.ok) throw problemFor(result.error);
        ctx.status = 204;
      },
    }),
  ];
}
