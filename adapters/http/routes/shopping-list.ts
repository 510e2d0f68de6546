import * as v from 'valibot';
import { listTotals, type ListAnswer } from '../../../core/shopping/lists.js';
import { LINE_STATUSES, PREFERENCE_FITS, REASON_CODES, type ShoppingLine, type ShoppingList, type ShoppingSettings } from '../../../core/shopping/types.js';
import { AISLES } from '../../../core/pantry/model.js';
import { buyOf, remainingBuyOf, remainingOf } from '../../../core/shopping/line-amounts.js';
import type { Logger } from '../../../ports/logger.js';
import type { ServiceDeps } from '../deps.js';
import { IsoDateTime, Uuid } from '../schemas.js';

/** What the shopping routes are handed: the use cases' ports, and the logger a failing price provider is told to. */
export type ShoppingRouteDeps = ServiceDeps & { readonly logger: Logger };

/** Where a week's list lives. */
export const LIST_PATH = '/api/v1/households/{householdId}/plans/{planId}/shopping-list';

/** What to buy for a line: an amount a shop sells (core/food/buy-amounts.ts). */
const BUY_DESCRIPTION =
  "What to buy for the line: its need less what the pantry likely holds (requiredQuantity − haveQuantity, in `unit`), as an amount a shop sells, never less than that. Pieces and packages (pcs, pk, bx, bunt, fl) and units the service does not know (a household's own word, e.g. 'fedd') are rounded up to whole ones; mass is written in g under 1 kg (by 1 g under 10 g, 5 g under 100 g, 25 g from there) and in kg by 0.1 from 1 kg; spoon measures (tsp, tbsp) under 1 dl stay spoons by halves; other volume is ml by 5 under 1 dl, dl by 0.5 under 1 l, and l by 0.1 from 1 l. `quantity` and `unit` are null for a line without an amount (0, e.g. 'salt og pepper'). `packageSize` is the size of one package when `quantity` counts packages of a known size; null otherwise. A food whose package size the household set (a unit weight of a package unit: PUT inventory/unit-weights/{foodKey}/boks with grams 400 says 'hakkede tomater: boks 400 g'; the food's own, else that of the food it was merged into) is counted in whole packages of it: unit bx, packageSize { quantity: 400, unit: 'g' }, 2 for a need of 500 g. Without one, a food priced by a chain list price with a package size (e.g. 400 g a package; needs the price catalogue on) is counted in whole packages of that: unit pk. A need in a unit that does not convert to the package's is rounded as above. `unit` is a unit code of the service (g, kg, ml, cl, dl, l, tsp, tbsp, pcs, pk, bx, bunt, fl) or the household's own word; a client shows its word in the household's language, never the code.";

const BuyAmountShape = v.object({
  quantity: v.nullable(v.number()),
  unit: v.nullable(v.string()),
  packageSize: v.nullable(v.object({ quantity: v.number(), unit: v.string() })),
});
const BuyAmountResponse = v.pipe(BuyAmountShape, v.description(BUY_DESCRIPTION));

const REMAINING_QUANTITY_DESCRIPTION =
  'What is still to buy, in `unit`: the need less what the pantry likely holds less what is in the basket (purchasedQuantity; a purchase in a purchasedUnit that does not convert counts for nothing here), never below 0. What is bought stays bought: when the need grows after a tick (the list derived again after guests came, an amount added by hand or with a recipe), purchasedQuantity is kept and this is the rest, and the line is open again (status Buy, counted in toBuyCount) while it is above 0.';
const REMAINING_DESCRIPTION =
  "What to buy for remainingQuantity, as `buy` is for the whole need (the same rules): the amount a client shows as the thing still to buy ('+2 l melk' while 6 dl are in the basket). quantity null when nothing is left to buy.";
const EXTRA_QUANTITY_DESCRIPTION =
  "The part of requiredQuantity added by hand or with a recipe (POST items, POST shopping-list/recipe), in `unit`; 0 when none. Kept when the list is derived again, also on a line the week's dishes need (reasonCode Planned or PartlyInPantry), where a client can say how much of the need was added by hand.";
const STATUS_DESCRIPTION =
  'Buy: something is still to buy (counted in toBuyCount unless reasonCode is OptionalOnly), also when part is already in the basket (purchasedQuantity > 0). Purchased: everything the line needs is in the basket. A line\'s status follows its amounts when its need changes: a bought line whose need grows opens again (Buy) with its purchase kept, and a partly bought line whose need falls to what is in the basket is bought.';
const PURCHASED_DESCRIPTION =
  "What is in the basket so far, in purchasedUnit when set (a unit that does not convert to `unit`), else in `unit`. A tick without an amount (and a closing's markAllBought) records what a shop sells for the rest, rounded up as `remaining` is (2 pcs for 1.75 pcs needed; two packages of 400 g, 800 g, for 500 g), added to what was in the basket and converted to `unit`: the part of a rounded-up package beyond the need goes to the pantry with the rest, so the next list knows it.";

export const ShoppingListItemResponse = v.object({
  id: Uuid,
  foodKey: v.string(),
  displayName: v.string(),
  requiredQuantity: v.number(),
  unit: v.string(),
  buy: BuyAmountResponse,
  remainingQuantity: v.pipe(v.number(), v.description(REMAINING_QUANTITY_DESCRIPTION)),
  remaining: v.pipe(BuyAmountShape, v.description(REMAINING_DESCRIPTION)),
  extraQuantity: v.pipe(v.number(), v.description(EXTRA_QUANTITY_DESCRIPTION)),
  status: v.pipe(v.picklist(LINE_STATUSES), v.description(STATUS_DESCRIPTION)),
  purchasedQuantity: v.pipe(v.number(), v.description(PURCHASED_DESCRIPTION)),
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
export const ShoppingListResponse = v.object({
  id: Uuid,
  householdId: Uuid,
  weeklyPlanId: Uuid,
  generatedAt: IsoDateTime,
  completedAt: v.nullable(IsoDateTime),
  items: v.array(ShoppingListItemResponse),
  skippedReferences: v.array(v.string()),
  tripSummary: v.nullable(
    v.object({
      linesBought: v.number(),
      linesLeft: v.number(),
      observationsWritten: v.number(),
      carried: v.pipe(
        v.nullable(v.object({ planId: Uuid, lines: v.number() })),
        v.description(
          "What the closing carried into the next week's list (unticked=keep): that week's plan and how many lines it took there; the list's lines still to buy are those it carried (their remainders are on that list now). Null when the closing carried nothing.",
        ),
      ),
    }),
  ),
  toBuyCount: v.pipe(v.number(), v.description('Lines with something still to buy (status Buy: not bought, partly bought, or grown past what is in the basket), OptionalOnly left out.')),
  /** The suggested prices (one package each) of those lines, summed; null when none has one. */
  priceTotal: v.nullable(v.number()),
  sharingOff: v.boolean(),
  priceCatalogueOn: v.boolean(),
  /** When the list first held back more to buy than it applies; null while nothing is held back. */
  staleSince: v.nullable(IsoDateTime),
  /** What generate would add now. */
  wouldAdd: v.array(v.object({ foodKey: v.string(), displayName: v.string(), quantity: v.number(), unit: v.string() })),
});
export const toItem = (l: ShoppingLine): v.InferOutput<typeof ShoppingListItemResponse> => ({
  id: l.id,
  foodKey: l.foodKey,
  displayName: l.displayName,
  requiredQuantity: l.requiredQuantity,
  unit: l.unit,
  buy: buyOf(l),
  remainingQuantity: remainingOf(l),
  remaining: remainingBuyOf(l),
  extraQuantity: l.extraQuantity,
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
  tripSummary: l.trip === null ? null : { ...l.trip.summary, carried: l.trip.carried ? { planId: l.trip.carried.planId, lines: l.trip.carried.lines.length } : null },
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

/**
 * The answer of a route whose use case answers the whole list (spread into its declaration): its documented 200, the
 * weak ETag and no-cache headers, the list as the body. A failing price provider only costs the suggestions, and is
 * logged.
 */
export const listAnswer = {
  responses: { 200: { description: 'The list', schema: ShoppingListResponse } },
  headers: (a: ListAnswer) => ({ ETag: etagOf(a.list, a.settings), 'Cache-Control': 'private, no-cache' }),
  reply(a: ListAnswer, { deps }: { readonly deps: { readonly logger: Logger } }) {
    if (a.priceError !== null) deps.logger.warn('price provider failed; list answered without suggestions', { err: a.priceError });
    return toList(a.list, a.settings);
  },
};
