import * as v from 'valibot';
import { INVENTORY_PAGE_DEFAULT, INVENTORY_PAGE_MAX, inventorySummary, listInventory } from '../../../core/pantry/inventory.js';
import { AISLES, USE_PRIORITIES } from '../../../core/pantry/model.js';
import { addObservation, OBSERVATION_LIMITS as L, removeObservation, removeObservations } from '../../../core/pantry/observations.js';
import { INVENTORY_GROUPS, OBSERVATION_TYPES, STORAGE_LOCATIONS, type PantryRow } from '../../../core/pantry/types.js';
import { normalizeFoodKey } from '../../../core/kernel/food-key.js';
import { callerHouseholdAnd, mount, noContent, resource, pageOf } from '../route.js';
import { IsoDate, IsoDateTime, Uuid, Cursor, Limit, Page } from '../schemas.js';
import type { ServiceDeps } from '../deps.js';

/** The wire form of a pantry row, its inventory `group` included. Shared with the merge routes. */
export const PantryRowResponse = v.object({
  foodKey: v.string(),
  displayName: v.string(),
  estimatedQuantity: v.number(),
  unit: v.string(),
  confidence: v.number(),
  storageLocation: v.picklist(STORAGE_LOCATIONS),
  usePriority: v.picklist(USE_PRIORITIES),
  lastEvidenceAt: IsoDateTime,
  aisle: v.picklist(AISLES),
  asksForDate: v.boolean(),
  lastEvidenceKind: v.picklist(OBSERVATION_TYPES),
  group: v.picklist(INVENTORY_GROUPS),
  bestBefore: v.nullable(IsoDate),
});

export const toPantryRowResponse = (r: PantryRow): v.InferOutput<typeof PantryRowResponse> => ({
  foodKey: r.foodKey,
  displayName: r.displayName,
  estimatedQuantity: r.estimatedQuantity,
  unit: r.unit,
  confidence: r.confidence,
  storageLocation: r.storageLocation,
  usePriority: r.usePriority as (typeof USE_PRIORITIES)[number],
  lastEvidenceAt: r.lastEvidenceAt.toISOString(),
  aisle: r.aisle as (typeof AISLES)[number],
  asksForDate: r.asksForDate,
  lastEvidenceKind: r.lastEvidenceKind as (typeof OBSERVATION_TYPES)[number],
  group: r.group,
  bestBefore: r.bestBefore,
});

const Name = (max: number, what: string) =>
  v.nullish(v.pipe(v.string(), v.maxLength(max, `at most ${max} characters`), v.check((s) => s.trim() !== '', `${what} must not be blank`)));
const AddInventoryObservationRequest = v.pipe(
  v.object({
    foodKey: Name(L.foodKeyMax, 'foodKey'),
    displayName: Name(L.displayNameMax, 'displayName'),
    observationType: v.picklist(OBSERVATION_TYPES),
    quantity: v.nullish(v.pipe(v.number(), v.finite(), v.minValue(0, 'at least 0'), v.maxValue(L.quantityMax, `at most ${L.quantityMax}`))),
    unit: Name(L.unitMax, 'unit'),
    storageLocation: v.nullish(v.picklist(STORAGE_LOCATIONS)),
    confidence: v.nullish(v.pipe(v.number(), v.finite(), v.minValue(0, 'at least 0'), v.maxValue(1, 'at most 1'))),
    bestBefore: v.nullish(IsoDate),
  }),
  v.check((b) => normalizeFoodKey(b.foodKey ?? b.displayName ?? '') !== '', 'foodKey (or displayName) needs a letter or a digit'),
);
const AddObservationResponse = v.object({ observationId: Uuid, item: PantryRowResponse });
const PagedInventoryItemResponse = Page(PantryRowResponse);
const PlaceCounts = v.object({ fridge: v.number(), pantry: v.number(), freezer: v.number(), unknown: v.number() });
const InventorySummaryResponse = v.object({
  byPlace: PlaceCounts,
  byGroup: v.object({ useSoon: v.number(), likelyAvailable: v.number(), uncertain: v.number(), aged: v.number() }),
  triage: v.number(),
  total: v.number(),
  matchesByPlace: PlaceCounts,
});

const ObservationPath = v.object({ householdId: Uuid, observationId: Uuid });
const Q = v.optional(v.pipe(v.string(), v.maxLength(L.displayNameMax, `at most ${L.displayNameMax} characters`)));
const SummaryQuery = v.object({ q: Q, place: v.optional(v.picklist(STORAGE_LOCATIONS)) });
const ListQuery = v.object({
  q: Q,
  place: v.optional(v.picklist(STORAGE_LOCATIONS)),
  group: v.optional(v.picklist(INVENTORY_GROUPS)),
  // Any cursor this list did not hand out is validation_failed, an over-long one included (no value_too_long).
  cursor: Cursor(8192),
  limit: v.optional(Limit(INVENTORY_PAGE_MAX)),
});
const RemoveQuery = v.object({ location: v.optional(v.picklist(STORAGE_LOCATIONS)) });

const MODEL_DOC = 'Rows are derived from the observation log by the model of docs/pantry-model.md (confidence decays with time since the last evidence, faster in the Fridge).';
const ORDER_DOC = 'Order: section (UseSoon, LikelyAvailable, Uncertain, Aged), then usePriority (High, Normal, Low), then displayName (lower case), then foodKey.';
const Q_DOC = 'q matches a row when, in lower case, it is part of the display name or the food key, or when normalizeFoodKey(q) is part of the food key.';

const { route, householdRoute } = resource<ServiceDeps>('Pantry');

const base = '/api/v1/households/{householdId}/inventory';

const LIST_INVENTORY_DOC =
  `Any member reads. Without group the three live sections (UseSoon, LikelyAvailable, Uncertain) are listed and the archive (Aged) is left out. ` +
  `${ORDER_DOC} ${Q_DOC} place narrows to one StorageLocation. limit 1 to ${INVENTORY_PAGE_MAX}, default ${INVENTORY_PAGE_DEFAULT}. total counts every ` +
  'row the filter matches. nextCursor is null on the last page; pass it back with the same q, place and group. A cursor the service did not hand ' +
  `out for this household and filter is 400 validation_failed. ${MODEL_DOC}`;
const INVENTORY_SUMMARY_DOC =
  `Any member reads. byGroup and total follow q and place (total includes archived rows and equals the sum of byGroup); matchesByPlace counts ` +
  'the rows q and place match, by place, archived rows left out. byPlace and triage cover the whole pantry: byPlace leaves archived (Aged) rows ' +
  `out; triage counts the live rows that are Uncertain or ask for a date. ${Q_DOC}`;
const ADD_INVENTORY_OBSERVATION_DOC =
  `Any member. observationType is required (${OBSERVATION_TYPES.join(', ')}), and foodKey or displayName: the food key is ` +
  'normalizeFoodKey(foodKey), or of displayName when foodKey is left out (one without a letter or digit is 400 validation_failed). Every other ' +
  'field may be left out or null, which keeps the row\'s earlier value (or the default of the model). quantity 0 to ' +
  `${L.quantityMax}, confidence 0 to 1, unit 1 to ${L.unitMax} characters, displayName 1 to ${L.displayNameMax}. Answers the observation's id and ` +
  'the food\'s row after it, merges applied. bestBefore (YYYY-MM-DD, optional) is the date on the pack: the row keeps the latest ' +
  'one given until it is emptied, stops asking for a date (asksForDate, true for meat and dairy outside the freezer until then), ' +
  'is UseSoon from two days before it, and past it loses confidence by half every day on top of its place\'s decay. After a Gone ' +
  'observation (or a Used one that leaves nothing) the row is empty: ' +
  `estimatedQuantity 0, usePriority Low, group Aged, asksForDate false, bestBefore null. ${MODEL_DOC}`;
const REMOVE_INVENTORY_OBSERVATIONS_DOC =
  'Without location every observation of the household goes. With location, every observation of each food whose row is now in that place ' +
  '(merges applied, archived rows included) goes: those of the row\'s own key and of the keys merged into it. Answers how many went.';
const REMOVE_INVENTORY_OBSERVATION_DOC =
  'Any member. The row is derived from the log, so it returns to exactly its state before the observation. 404 observation_not_found when the ' +
  'household has no observation with this id: it is already gone, so clients treat the 404 as done (a retry, or a second device, got there first).';

const listInventoryRoute = householdRoute({
  method: 'GET',
  path: base,
  operationId: 'listInventory',
  auth: 'session-or-token',
  summary: 'A page of the pantry',
  description: LIST_INVENTORY_DOC,
  query: ListQuery,
  responses: { 200: { description: 'A page of pantry rows', schema: PagedInventoryItemResponse } },
  errors: ['page-cursor-invalid'],
  run: ({ deps, caller, params, query }) => listInventory(deps, caller.account, params.householdId, {
    q: query.q ?? null,
    place: query.place ?? null,
    group: query.group ?? null,
    cursor: query.cursor ?? null,
    limit: query.limit ?? INVENTORY_PAGE_DEFAULT,
  }),
  reply: pageOf(toPantryRowResponse),
});

const inventorySummaryRoute = householdRoute({
  method: 'GET',
  path: `${base}/summary`,
  operationId: 'inventorySummary',
  auth: 'session-or-token',
  summary: 'Counts of the pantry by section and place',
  description: INVENTORY_SUMMARY_DOC,
  query: SummaryQuery,
  responses: { 200: { description: 'The counts', schema: InventorySummaryResponse } },
  run: ({ deps, caller, params, query }) => inventorySummary(deps, caller.account, params.householdId, { q: query.q ?? null, place: query.place ?? null }),
});

const addInventoryObservationRoute = householdRoute({
  method: 'POST',
  path: `${base}/observations`,
  operationId: 'addInventoryObservation',
  auth: 'session-or-token',
  summary: 'Record what the household saw, bought, used or finished',
  description: ADD_INVENTORY_OBSERVATION_DOC,
  body: AddInventoryObservationRequest,
  responses: { 200: { description: 'The observation and the row after it', schema: AddObservationResponse } },
  errors: ['food-key-empty'],
  run: ({ deps, caller, params, body }) => addObservation(deps, caller.account, params.householdId, {
    foodKey: body.foodKey ?? null,
    displayName: body.displayName ?? null,
    observationType: body.observationType,
    quantity: body.quantity ?? null,
    unit: body.unit ?? null,
    storageLocation: body.storageLocation ?? null,
    confidence: body.confidence ?? null,
    bestBefore: body.bestBefore ?? null,
  }),
  reply: (value) => ({ observationId: value.observationId, item: toPantryRowResponse(value.item) }),
});

const removeInventoryObservationsRoute = householdRoute({
  method: 'DELETE',
  path: `${base}/observations`,
  operationId: 'removeInventoryObservations',
  auth: 'session-or-token',
  summary: 'Clear the pantry, or one place of it (adults only)',
  description: REMOVE_INVENTORY_OBSERVATIONS_DOC,
  query: RemoveQuery,
  responses: { 200: { description: 'How many observations went', schema: v.object({ removedObservations: v.number() }) } },
  errors: ['adults-only'],
  run: ({ deps, caller, params, query }) => removeObservations(deps, caller.account, params.householdId, query.location ?? null),
});

const removeInventoryObservationRoute = route({
  method: 'DELETE',
  path: `${base}/observations/{observationId}`,
  operationId: 'removeInventoryObservation',
  auth: 'session-or-token',
  summary: 'Take back one observation',
  description: REMOVE_INVENTORY_OBSERVATION_DOC,
  params: ObservationPath,
  ...noContent('Removed'),
  errors: ['household-not-found', 'observation-not-found'],
  run: callerHouseholdAnd('observationId', removeObservation),
});

export const pantryInventoryRoutes = (deps: ServiceDeps) =>
  mount(deps, [
    listInventoryRoute,
    inventorySummaryRoute,
    addInventoryObservationRoute,
    removeInventoryObservationsRoute,
    removeInventoryObservationRoute,
  ]);

