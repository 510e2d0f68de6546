import * as v from 'valibot';
import { listTotals, type ListAnswer } from '../../../core/shopping/lists.js';
import { LINE_STATUSES, PREFERENCE_FITS, REASON_CODES, type ShoppingLine, type ShoppingList, type ShoppingSettings } from '../../../core/shopping/types.js';
import { AISLES } from '../../../core/pantry/model.js';
import { buyAmountOf } from '../../../core/food/buy-amounts.js';
import { tidy } from '../../../core/food/units.js';
import type { Logger } from '../../../ports/logger.js';
import type { ServiceDeps } from '../deps.js';
import { IsoDateTime, Uuid } from '../schemas.js';

/** What the shopping routes are handed: the use cases' ports, and the logger a failing price provider is told to. */
export type ShoppingRouteDeps = ServiceDeps & { readonly logger: Logger };

/** Where a week's list lives. */
export const LIST_PATH = '/api/v1/households/{householdId}/plans/{planId}/shopping-list';

/** What to buy for a line: an amount a shop sells (core/food/buy-amounts.ts). */
const BUY_DESCRIPTION =
  "What to buy for the line: its need less what the pantry likely holds (requiredQuantity − haveQuantity, in `unit`), as an amount a shop sells, never less than that. Pieces and packages (pcs, pk, bx, bunt, fl) and units the service does not know (a household's own word, e.g. 'fedd') are rounded up to whole ones; mass is written in g under 1 kg (by 1 g under 10 g, 5 g under 100 g, 10 g from there) and in kg by 0.1 from 1 kg; spoon measures (tsp, tbsp) under 1 dl stay spoons by halves; other volume is ml by 5 under 1 dl, dl by 0.5 under 1 l, and l by 0.1 from 1 l. `quantity` and `unit` are null for a line without an amount (0, e.g. 'salt og pepper'). `packageSize` is the size of one package when `quantity` counts packages of a known size; null otherwise. `unit` is a unit code of the service (g, kg, ml, cl, dl, l, tsp, tbsp, pcs, pk, bx, bunt, fl) or the household's own word; a client shows its word in the household's language, never the code.";

const BuyAmountResponse = v.pipe(
  v.object({
    quantity: v.nullable(v.number()),
    unit: v.nullable(v.string()),
    packageSize: v.nullable(v.object({ quantity: v.number(), unit: v.string() })),
  }),
  v.description(BUY_DESCRIPTION),
);

export const ShoppingListItemResponse = v.object({
  id: Uuid,
  foodKey: v.string(),
  displayName: v.string(),
  requiredQuantity: v.number(),
  unit: v.string(),
  buy: BuyAmountResponse,
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
export const ShoppingListResponse = v.object({
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
export const toItem = (l: ShoppingLine): v.InferOutput<typeof ShoppingListItemResponse> => ({
  id: l.id,
  foodKey: l.foodKey,
  displayName: l.displayName,
  requiredQuantity: l.requiredQuantity,
  unit: l.unit,
  buy: buyAmountOf(tidy(l.requiredQuantity - l.haveQuantity), l.unit),
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
