import * as v from 'valibot';
import {
  listMergeSuggestions,
  listPantryMergeRejections,
  listPantryMerges,
  mergePantryKeys,
  rejectPantryMerge,
  removePantryMergeRejection,
  splitPantryMerge,
} from '../../../core/pantry/merges.js';
import { MERGE_SIGNALS } from '../../../core/pantry/merge-suggestions.js';
import { MERGE_PAGE_DEFAULT, MERGE_PAGE_MAX, MERGE_SUGGESTIONS_MAX, UNIT_WEIGHT_MAX_GRAMS } from '../../../core/pantry/merge-types.js';
import type { PantryMerge, PantryMergeRejection, UnitWeight } from '../../../core/pantry/types.js';
import { listUnitWeights, removeUnitWeight, setUnitWeight } from '../../../core/pantry/unit-weights.js';
import { callerHouseholdAnd, callerHouseholdAndBody, mount, noContent, resource, pageOf } from '../route.js';
import { IsoDateTime, Uuid, Cursor, Limit, Page } from '../schemas.js';
import type { ServiceDeps } from '../deps.js';
import { PantryRowResponse, toPantryRowResponse } from './pantry-inventory.js';

const FOOD_KEY_MAX = 200;
const UNIT_MAX = 32;
const Text = (max: number, what: string) =>
  v.pipe(v.string(), v.maxLength(max, `at most ${max} characters`), v.check((s) => s.trim() !== '', `${what} must not be blank`));
const FoodKey = Text(FOOD_KEY_MAX, 'a food key');
const Unit = Text(UNIT_MAX, 'a unit');

const MergePantryKeysRequest = v.object({
  fromKey: FoodKey,
  toKey: FoodKey,
  // Where the answer came from (Suggestion, Manual); the server does not act on it.
  source: v.optional(v.nullable(Text(40, 'source'))),
});
const RejectPantryMergeRequest = v.object({ keyA: FoodKey, keyB: FoodKey });
const SetUnitWeightRequest = v.object({
  grams: v.pipe(v.number(), v.finite('a number'), v.gtValue(0, 'greater than 0'), v.maxValue(UNIT_WEIGHT_MAX_GRAMS, `at most ${UNIT_WEIGHT_MAX_GRAMS}`)),
});

const PantryMergeSuggestionResponse = v.object({ from: PantryRowResponse, to: PantryRowResponse, signal: v.picklist(MERGE_SIGNALS) });
const PantryMergeResponse = v.object({ fromKey: v.string(), toKey: v.string(), item: PantryRowResponse });
const MergeEntry = v.object({ fromKey: v.string(), fromDisplayName: v.string(), toKey: v.string(), toDisplayName: v.string(), mergedAt: IsoDateTime });
const RejectionEntry = v.object({ keyA: v.string(), keyADisplayName: v.string(), keyB: v.string(), keyBDisplayName: v.string(), decidedAt: IsoDateTime });
/** The page a list route was asked for. */
const pageAsked = (query: { cursor?: string | undefined; limit?: number | undefined }) => ({ cursor: query.cursor ?? null, limit: query.limit ?? MERGE_PAGE_DEFAULT });
const UnitWeightResponse = v.object({ foodKey: v.string(), unit: v.string(), displayName: v.string(), grams: v.number(), updatedAt: IsoDateTime });

const FromKeyPath = v.object({ householdId: Uuid, fromKey: FoodKey });
const PairPath = v.object({ householdId: Uuid, keyA: FoodKey, keyB: FoodKey });
const UnitWeightPath = v.object({ householdId: Uuid, foodKey: FoodKey, unit: Unit });
const PageQuery = v.object({
  // Any cursor this list did not hand out is validation_failed, an over-long one included.
  cursor: Cursor(2048),
  limit: v.optional(Limit(MERGE_PAGE_MAX)),
});
const UnitWeightQuery = v.object({ foodKey: v.optional(FoodKey) });

const toUnitWeight = (w: UnitWeight): v.InferOutput<typeof UnitWeightResponse> => ({
  foodKey: w.foodKey,
  unit: w.unit,
  displayName: w.displayName,
  grams: w.grams,
  updatedAt: w.updatedAt.toISOString(),
});

const KEY_DOC = 'Keys are normalized with normalizeFoodKey (so "Cherrytomater" and "cherrytomat" are one key); one without a letter or digit is 400 validation_failed.';
const PAGE_DOC = `limit 1 to ${MERGE_PAGE_MAX}, default ${MERGE_PAGE_DEFAULT}; nextCursor is null on the last page. Cursors are opaque and sealed to this list and household: any other is 400 validation_failed. total counts the whole list.`;
const UNIT_DOC = 'The unit is compared trimmed, with inner spaces single and in lower case ("Stk" and "stk" are one unit).';

const { route, householdRoute } = resource<ServiceDeps>('Pantry');

const base = '/api/v1/households/{householdId}/inventory';

const LIST_PANTRY_MERGE_SUGGESTIONS_DOC =
  `Any member reads. Computed on every read from the rows as they are now (merges applied); at most ${MERGE_SUGGESTIONS_MAX} pairs, no id (the key pair ` +
  'identifies one). signal ContainedTokens: the words of to.foodKey (split on "-") appear, in order, among the words of from.foodKey, each as a ' +
  'whole word or, for words of three or more letters, as its ending (Norwegian compounds: cherrytomat holds tomat, basmatiris holds ris, ' +
  'hakkede-tomat holds tomat; tomatsaus does not). from is the more specific row, to the one that survives a merge. Pairs with a stored answer ' +
  '(merged, or rejected as different foods) are left out. Order: by to.foodKey, then from.foodKey (code-point order).';
const MERGE_PANTRY_KEYS_DOC =
  `From now on fromKey's observations count toward toKey's row. ${KEY_DOC} Both keys the same food: 400 same_food. ` +
  'Chains are resolved so that merges stay one step deep: with B→C standing, A→B is stored and answered as A→C; merging B→C while A→B ' +
  'stands points A at C too. When toKey (resolved) is merged into fromKey already, the rows would point at each other: 409 mutual_merge. ' +
  'A food merges into one other: merging a key merged elsewhere before re-points it. An earlier different-foods answer for the pair is removed. ' +
  'The same pair again writes nothing and gives the same answer (mergedAt unchanged). toKey need not have observations of its own ' +
  "(fromKey's row then shows under toKey), but one of the two keys must have a pantry row now, else 404 pantry_food_not_found. " +
  'item is the surviving row after the merge. source (Suggestion, Manual) says where the answer came from and is not stored.';
const SPLIT_PANTRY_MERGE_DOC =
  `The rows split again, and the pair is remembered as different foods (a rejection is stored, dated now, unless one is) so it is not suggested again. ` +
  `Other keys merged into the same row stay. ${KEY_DOC} No merge on that key: 404 merge_not_found.`;
const REJECT_PANTRY_MERGE_DOC =
  `An unordered pair, stored sorted (keyA < keyB). Idempotent: the first answer's decidedAt stays. The pair is no longer suggested. ` +
  `A merge standing directly between the two keys is split (the latest answer wins). ${KEY_DOC} Both keys the same food: 400 same_food.`;
const SET_UNIT_WEIGHT_DOC =
  `grams must be greater than 0 and at most ${UNIT_WEIGHT_MAX_GRAMS}, else 400 validation_failed. One answer per food and unit: a put replaces ` +
  `it (retry-safe; concurrent puts leave one). ${KEY_DOC} ${UNIT_DOC} displayName is the pantry row's when the food has one, else the foodKey as ` +
  'sent. No shopping list is rebuilt: the purchase conversion reads the weight when it next runs (a food merged into another uses the ' +
  "surviving food's weight when it has none of its own).";

const listPantryMergeSuggestionsRoute = householdRoute({
  method: 'GET',
  path: `${base}/merge-suggestions`,
  operationId: 'listPantryMergeSuggestions',
  auth: 'session-or-token',
  summary: 'Pairs of pantry rows that look like one food',
  description: LIST_PANTRY_MERGE_SUGGESTIONS_DOC,
  responses: { 200: { description: 'Up to three pairs', schema: v.array(PantryMergeSuggestionResponse) } },
  run: ({ deps, caller, params }) => listMergeSuggestions(deps, caller.account, params.householdId),
  reply: (value) => value.map((s) => ({ from: toPantryRowResponse(s.from), to: toPantryRowResponse(s.to), signal: s.signal })),
});

const listPantryMergesRoute = householdRoute({
  method: 'GET',
  path: `${base}/merges`,
  operationId: 'listPantryMerges',
  auth: 'session-or-token',
  summary: 'The merges that stand',
  description: `Any member reads. Ordered by the surviving key (toKey), then the newest answer first (mergedAt), then fromKey. ${PAGE_DOC}`,
  query: PageQuery,
  responses: { 200: { description: 'A page of merges', schema: Page(MergeEntry) } },
  errors: ['page-cursor-invalid'],
  run: ({ deps, caller, params, query }) => listPantryMerges(deps, caller.account, params.householdId, pageAsked(query)),
  reply: pageOf((m: PantryMerge) => ({ fromKey: m.fromKey, fromDisplayName: m.fromDisplayName, toKey: m.toKey, toDisplayName: m.toDisplayName, mergedAt: m.mergedAt.toISOString() })),
});

const mergePantryKeysRoute = householdRoute({
  method: 'POST',
  path: `${base}/merges`,
  operationId: 'mergePantryKeys',
  auth: 'session-or-token',
  summary: 'Say that two food keys are one food (adults only)',
  description: MERGE_PANTRY_KEYS_DOC,
  body: MergePantryKeysRequest,
  responses: { 200: { description: 'The merge and the surviving row', schema: PantryMergeResponse } },
  errors: ['adults-only', 'same-food', 'mutual-merge', 'pantry-food-not-found', 'food-key-empty'],
  run: ({ deps, caller, params, body }) => mergePantryKeys(deps, caller.account, params.householdId, { fromKey: body.fromKey, toKey: body.toKey }),
  reply: (value) => ({ fromKey: value.fromKey, toKey: value.toKey, item: toPantryRowResponse(value.item) }),
});

const splitPantryMergeRoute = route({
  method: 'DELETE',
  path: `${base}/merges/{fromKey}`,
  operationId: 'splitPantryMerge',
  auth: 'session-or-token',
  summary: 'Split a merge (adults only)',
  description: SPLIT_PANTRY_MERGE_DOC,
  params: FromKeyPath,
  ...noContent('Split'),
  errors: ['household-not-found', 'adults-only', 'merge-not-found', 'food-key-empty'],
  run: callerHouseholdAnd('fromKey', splitPantryMerge),
});

const listPantryMergeRejectionsRoute = householdRoute({
  method: 'GET',
  path: `${base}/merge-rejections`,
  operationId: 'listPantryMergeRejections',
  auth: 'session-or-token',
  summary: 'Pairs answered as different foods',
  description: `Any member reads. Newest answer first (decidedAt), then keyA, then keyB; keyA < keyB. ${PAGE_DOC}`,
  query: PageQuery,
  responses: { 200: { description: 'A page of rejections', schema: Page(RejectionEntry) } },
  errors: ['page-cursor-invalid'],
  run: ({ deps, caller, params, query }) => listPantryMergeRejections(deps, caller.account, params.householdId, pageAsked(query)),
  reply: pageOf((r: PantryMergeRejection) => ({ keyA: r.keyA, keyADisplayName: r.keyADisplayName, keyB: r.keyB, keyBDisplayName: r.keyBDisplayName, decidedAt: r.decidedAt.toISOString() })),
});

const rejectPantryMergeRoute = householdRoute({
  method: 'POST',
  path: `${base}/merge-rejections`,
  operationId: 'rejectPantryMerge',
  auth: 'session-or-token',
  summary: 'Say that two food keys are different foods (adults only)',
  description: REJECT_PANTRY_MERGE_DOC,
  body: RejectPantryMergeRequest,
  ...noContent('Stored'),
  errors: ['adults-only', 'same-food', 'food-key-empty'],
  run: callerHouseholdAndBody(rejectPantryMerge),
});

const removePantryMergeRejectionRoute = route({
  method: 'DELETE',
  path: `${base}/merge-rejections/{keyA}/{keyB}`,
  operationId: 'removePantryMergeRejection',
  auth: 'session-or-token',
  summary: 'Forget a different-foods answer (adults only)',
  description: `The keys may come in either order: the server sorts them. The pair can be suggested again. ${KEY_DOC} None stored: 404 merge_rejection_not_found.`,
  params: PairPath,
  ...noContent('Removed'),
  errors: ['household-not-found', 'adults-only', 'merge-rejection-not-found', 'food-key-empty'],
  run: ({ deps, caller, params }) => removePantryMergeRejection(deps, caller.account, params.householdId, { keyA: params.keyA, keyB: params.keyB }),
});

const listUnitWeightsRoute = householdRoute({
  method: 'GET',
  path: `${base}/unit-weights`,
  operationId: 'listUnitWeights',
  auth: 'session-or-token',
  summary: "The household's own grams per food and unit",
  description: `Any member reads. Not paged; ordered by foodKey, then unit. foodKey (normalized with normalizeFoodKey) narrows to one food.`,
  query: UnitWeightQuery,
  responses: { 200: { description: 'The weights', schema: v.array(UnitWeightResponse) } },
  errors: ['food-key-empty'],
  run: ({ deps, caller, params, query }) => listUnitWeights(deps, caller.account, params.householdId, query.foodKey ?? null),
  reply: (value) => value.map(toUnitWeight),
});

const setUnitWeightRoute = route({
  method: 'PUT',
  path: `${base}/unit-weights/{foodKey}/{unit}`,
  operationId: 'setUnitWeight',
  auth: 'session-or-token',
  summary: 'Set the grams in one unit of a food (adults only)',
  description: SET_UNIT_WEIGHT_DOC,
  params: UnitWeightPath,
  body: SetUnitWeightRequest,
  responses: { 200: { description: 'The stored weight', schema: UnitWeightResponse } },
  errors: ['household-not-found', 'adults-only', 'food-key-empty', 'unit-empty', 'unit-weight-out-of-bounds'],
  run: ({ deps, caller, params, body }) => setUnitWeight(deps, caller.account, params.householdId, { foodKey: params.foodKey, unit: params.unit, grams: body.grams }),
  reply: toUnitWeight,
});

const removeUnitWeightRoute = route({
  method: 'DELETE',
  path: `${base}/unit-weights/{foodKey}/{unit}`,
  operationId: 'removeUnitWeight',
  auth: 'session-or-token',
  summary: 'Remove a unit weight (adults only)',
  description: `Unit conversion for that food and unit refuses again. ${KEY_DOC} ${UNIT_DOC} None stored: 404 unit_weight_not_found.`,
  params: UnitWeightPath,
  ...noContent('Removed'),
  errors: ['household-not-found', 'adults-only', 'unit-weight-not-found', 'food-key-empty', 'unit-empty'],
  run: ({ deps, caller, params }) => removeUnitWeight(deps, caller.account, params.householdId, { foodKey: params.foodKey, unit: params.unit }),
});

export const pantryMergeRoutes = (deps: ServiceDeps) =>
  mount(deps, [
    listPantryMergeSuggestionsRoute,
    listPantryMergesRoute,
    mergePantryKeysRoute,
    splitPantryMergeRoute,
    listPantryMergeRejectionsRoute,
    rejectPantryMergeRoute,
    removePantryMergeRejectionRoute,
    listUnitWeightsRoute,
    setUnitWeightRoute,
    removeUnitWeightRoute,
  ]);

