import type { AisleOrderStore } from '../../ports/aisle-order-store.js';
import type { Clock } from '../../ports/clock.js';
import type { HouseholdStore } from '../../ports/household-store.js';
import type { Account } from '../accounts/types.js';
import { requireAdult, requireMember } from '../households/access.js';
import type { ErrorOf } from '../kernel/errors.js';
import type { HouseholdId } from '../kernel/ids.js';
import { ok, type Result } from '../kernel/result.js';
import type { Aisle } from '../pantry/model.js';
import { aisleOrderOf, storeOf, TRIPS_KEPT, TRIPS_LEARNED_FROM, type AisleOrder } from './aisle-order.js';
import type { LineStatus, ShoppingLine, ShoppingList } from './types.js';

/** What recording a tick needs (part of the shopping list's dependencies). */
export interface AisleTickDeps {
  households: HouseholdStore;
  aisleOrders: AisleOrderStore;
  clock: Clock;
}

export type AisleOrderDeps = AisleTickDeps;

/** A store's order as answered: which store it is of, and the order. */
export interface StoreAisleOrder extends AisleOrder {
  readonly store: string;
}

/**
 * Records a line ticked Purchased on the list for the store the household shops at (its first chain, else
 * MY_STORE), at the clock's now. Only a line that was not Purchased before the change: a retried tick does not move
 * it. The trip counts for learning once the list is finished.
 */
export async function recordAisleTick(
  deps: AisleTickDeps,
  householdId: HouseholdId,
  list: Pick<ShoppingList, 'id' | 'planId'>,
  line: Pick<ShoppingLine, 'id' | 'aisle' | 'status'>,
  before: LineStatus | undefined,
): Promise<void> {
  if (line.status !== 'Purchased' || before === 'Purchased') return;
  const household = await deps.households.byId(householdId);
  if (!household) return;
  const tick = { householdId, store: storeOf(household), listId: list.id, planId: list.planId, lineId: line.id, aisle: line.aisle, at: deps.clock.now() };
  await deps.aisleOrders.recordTick(tick, TRIPS_KEPT);
}

/** The store asked for, else the one the household's ticks go to. */
async function storeAsked(deps: AisleOrderDeps, householdId: HouseholdId, store: string | undefined): Promise<string> {
  if (store !== undefined) return store;
  const household = await deps.households.byId(householdId);
  return household ? storeOf(household) : storeOf({ chains: [] });
}

/** GET aisle-order (any member): the store's order, learned from its finished trips unless a hand order wins. */
export async function getAisleOrder(deps: AisleOrderDeps, caller: Account, householdId: HouseholdId, store?: string): Promise<Result<StoreAisleOrder, ErrorOf<'household-not-found'>>> {
  const member = await requireMember(deps, householdId, caller.id);
  if (!member.ok) return member;
  const at = await storeAsked(deps, householdId, store);
  const [trips, hand] = await Promise.all([deps.aisleOrders.finishedTrips(householdId, at, TRIPS_LEARNED_FROM), deps.aisleOrders.handOrder(householdId, at)]);
  return ok({ store: at, ...aisleOrderOf(trips, hand) });
}

/** PUT aisle-order (adults): the hand order (every aisle once, checked by the caller), which wins until forgotten. */
export async function setAisleOrder(
  deps: AisleOrderDeps,
  caller: Account,
  householdId: HouseholdId,
  store: string | undefined,
  aisles: readonly Aisle[],
): Promise<Result<StoreAisleOrder, ErrorOf<'household-not-found' | 'adults-only'>>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  await deps.aisleOrders.setHandOrder(householdId, await storeAsked(deps, householdId, store), aisles, deps.clock.now());
  return getAisleOrder(deps, caller, householdId, store);
}

/** DELETE aisle-order (adults): forgets the hand order; the learned order shows again at once. */
export async function forgetAisleOrder(
  deps: AisleOrderDeps,
  caller: Account,
  householdId: HouseholdId,
  store: string | undefined,
): Promise<Result<StoreAisleOrder, ErrorOf<'household-not-found' | 'adults-only'>>> {
  const adult = await requireAdult(deps, householdId, caller.id);
  if (!adult.ok) return adult;
  await deps.aisleOrders.forgetHandOrder(householdId, await storeAsked(deps, householdId, store));
  return getAisleOrder(deps, caller, householdId, store);
}
