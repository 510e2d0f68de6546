import { createHash } from 'node:crypto';
import * as v from 'valibot';
import { AISLES } from '../../../core/pantry/model.js';
import { AISLE_SOURCES, isWholeAisleOrder, MY_STORE, TRIP_WEIGHT_DECAY, TRIPS_KEPT, TRIPS_LEARNED_FROM, TRIPS_TO_LEARN } from '../../../core/shopping/aisle-order.js';
import { forgetAisleOrder, getAisleOrder, setAisleOrder, type AisleOrderDeps, type StoreAisleOrder } from '../../../core/shopping/aisle-orders.js';
import { ifNoneMatchHolds } from '../conditional.js';
import { mount, resource } from '../route.js';
import { IsoDateTime } from '../schemas.js';

const PATH = '/api/v1/households/{householdId}/aisle-order';
// As long as a chain's name may be (PATCH households: chains).
const STORE_MAX = 80;

const StoreQuery = v.object({
  store: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.minLength(1, 'must not be blank'),
      v.maxLength(STORE_MAX, `at most ${STORE_MAX} characters`),
      v.description(`The chain, as the household names it in chains, or "${MY_STORE}". Left out: the household's first chain, else "${MY_STORE}".`),
    ),
  ),
});

const PlacedAisle = v.object({
  aisle: v.picklist(AISLES),
  source: v.pipe(v.picklist(AISLE_SOURCES), v.description('Learned: placed by ticks on finished trips. Default: not yet seen on enough trips, in its default place. Hand: set by a person.')),
});
const AisleOrderResponse = v.object({
  store: v.pipe(v.string(), v.description('The store the order is of.')),
  aisles: v.pipe(v.array(PlacedAisle), v.description('Every aisle once, in the order to show the list\'s groups: the hand order while one is set, else learned.')),
  learned: v.pipe(v.array(PlacedAisle), v.description('The order the ticks teach (Learned and Default only), also while a hand order wins over it.')),
  tripsLearnedFrom: v.pipe(v.number(), v.description(`How many finished trips of the store the learned order comes from (at most ${TRIPS_LEARNED_FROM}).`)),
  handSetAt: v.pipe(v.nullable(IsoDateTime), v.description('When the hand order was set; null when none is.')),
});
const SetAisleOrderRequest = v.object({
  aisles: v.pipe(
    v.array(v.picklist(AISLES)),
    v.maxLength(AISLES.length, `at most ${AISLES.length} aisles`),
    v.check((a) => isWholeAisleOrder(a), `every aisle exactly once: ${AISLES.join(', ')}`),
    v.description('Every aisle exactly once, in the order to walk.'),
  ),
});

const ORDER_DOC =
  'The order of the list\'s groups (aisles) in one store, learned from the order in which lines are ticked Purchased on ' +
  'finished trips. A tick counts for the store the household shops at when it is made (its first chain, else ' +
  `"${MY_STORE}"), and a trip once its list is finished (completedAt set); a line ticked again counts where it was ticked ` +
  `last. Ticks are kept for the store's newest ${TRIPS_KEPT} lists. On each trip an aisle's place is the median place of ` +
  `its ticks (0 the trip's first tick, 1 its last); the learned place is the mean over the newest ${TRIPS_LEARNED_FROM} ` +
  `finished trips, each trip weighing ${TRIP_WEIGHT_DECAY} of the one after it. An aisle ticked on ${TRIPS_TO_LEARN} or ` +
  'more of them is Learned and sorted by its place; any other is Default and goes right after the aisle it follows in the ' +
  `default order (${AISLES.join(', ')}: a typical Norwegian supermarket). A new household has the default order. A hand ` +
  'order (PUT) wins whole until forgotten (DELETE); learning goes on beneath it (learned). docs/shopping-aisles.md says more.';

const etagOf = (body: unknown) => `W/"${createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 32)}"`;
const toResponse = (o: StoreAisleOrder): v.InferOutput<typeof AisleOrderResponse> => ({
  store: o.store,
  aisles: o.aisles.map((p) => ({ aisle: p.aisle, source: p.source })),
  learned: o.learned.map((p) => ({ aisle: p.aisle, source: p.source })),
  tripsLearnedFrom: o.trips,
  handSetAt: o.handSetAt?.toISOString() ?? null,
});

const { handledHouseholdRoute, householdRoute } = resource<AisleOrderDeps>('Shopping list');

const getAisleOrderRoute = handledHouseholdRoute({
  method: 'GET',
  path: PATH,
  operationId: 'getAisleOrder',
  auth: 'session-or-token',
  summary: 'The order of the aisles in a store, as the household walks it',
  description: `Any member, Junior too. ${ORDER_DOC} The weak ETag is of the answer; a matching If-None-Match answers 304 without a body.`,
  query: StoreQuery,
  responses: {
    200: { description: 'The order', schema: AisleOrderResponse, headers: { ETag: 'W/"<hash of the answer>"', 'Cache-Control': 'private, no-cache' } },
    304: { description: 'Not modified since the ETag sent' },
  },
  handle: async (ctx, { deps, caller, params, query, refuse }) => {
    const result = await getAisleOrder(deps, caller.account, params.householdId, query.store);
    if (!result.ok) throw refuse(result.error);
    const body = toResponse(result.value);
    const etag = etagOf(body);
    ctx.set({ ETag: etag, 'Cache-Control': 'private, no-cache' });
    if (ifNoneMatchHolds(ctx.get('If-None-Match'), etag)) {
      ctx.status = 304;
      return;
    }
    ctx.body = body;
  },
});

const setAisleOrderRoute = householdRoute({
  method: 'PUT',
  path: PATH,
  operationId: 'setAisleOrder',
  auth: 'session-or-token',
  summary: 'Set the order of the aisles in a store by hand (adults only)',
  description:
    'Adults only (a Junior gets 403 adults_only), as every shopping setting. aisles holds every aisle exactly once ' +
    `(${AISLES.join(', ')}); a missing, repeated or unknown aisle is 400 validation_failed. The order wins whole (every aisle ` +
    `Hand) until DELETE forgets it; sent again, it replaces the one before. ${ORDER_DOC}`,
  query: StoreQuery,
  body: SetAisleOrderRequest,
  responses: { 200: { description: 'The order after the change', schema: AisleOrderResponse } },
  errors: ['adults-only'],
  run: ({ deps, caller, params, query, body }) => setAisleOrder(deps, caller.account, params.householdId, query.store, body.aisles),
  reply: toResponse,
});

const forgetAisleOrderRoute = householdRoute({
  method: 'DELETE',
  path: PATH,
  operationId: 'forgetAisleOrder',
  auth: 'session-or-token',
  summary: 'Forget the hand order of a store (adults only)',
  description: `Adults only (a Junior gets 403 adults_only). The learned order shows again at once; with no hand order set nothing changes. ${ORDER_DOC}`,
  query: StoreQuery,
  responses: { 200: { description: 'The order after the change', schema: AisleOrderResponse } },
  errors: ['adults-only'],
  run: ({ deps, caller, params, query }) => forgetAisleOrder(deps, caller.account, params.householdId, query.store),
  reply: toResponse,
});

export const aisleOrderRoutes = (deps: AisleOrderDeps) => mount(deps, [getAisleOrderRoute, setAisleOrderRoute, forgetAisleOrderRoute]);
