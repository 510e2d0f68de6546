import type { SubscriptionState } from '../../core/billing/types.js';
import type { BillingStore } from '../../ports/billing-store.js';
import { bumpRevision, type MemoryTables } from './stores.js';

/**
 * Subscriptions and applied event ids in memory. A subscription linked to a household that is gone is gone too
 * (the SQL cascade), checked on every access. `apply` runs without an await, so deliveries never interleave.
 */
export function memoryBillingStore(t: MemoryTables): BillingStore {
  const events = new Set<string>();
  const subscriptions = new Map<string, SubscriptionState>();
  const live = (s: SubscriptionState | undefined): SubscriptionState | null => {
    if (!s) return null;
    if (s.household && !t.households.has(s.household.value)) {
      subscriptions.delete(s.subscriptionId);
      return null;
    }
    return s;
  };
  const of = (householdId: string) =>
    [...subscriptions.values()]
      .map(live)
      .filter((s): s is SubscriptionState => s !== null && s.household?.value === householdId)
      .sort((a, b) => (a.subscriptionId < b.subscriptionId ? -1 : a.subscriptionId > b.subscriptionId ? 1 : 0));
  return {
    async apply(event, subscriptionId, next, planOf) {
      if (events.has(event.id)) return { replayed: true };
      events.add(event.id);
      const current = live(subscriptions.get(subscriptionId));
      let state = next(structuredClone(current));
      if (state.household && state.household.value !== current?.household?.value && !t.households.has(state.household.value)) {
        state = { ...state, household: current?.household ?? null };
      }
      subscriptions.set(subscriptionId, structuredClone(state));
      for (const householdId of new Set([current?.household?.value, state.household?.value])) {
        const household = householdId === undefined ? undefined : t.households.get(householdId);
        if (!household) continue;
        const plan = planOf(structuredClone(of(household.id)));
        if (plan !== household.plan) {
          t.households.set(household.id, { ...household, plan, updatedAt: new Date(event.receivedAt.getTime()) });
          bumpRevision(t, household.id);
        }
      }
      return { replayed: false, subscription: structuredClone(state) };
    },
    subscription: async (subscriptionId) => structuredClone(live(subscriptions.get(subscriptionId))),
    subscriptionsOf: async (householdId) => structuredClone(of(householdId)),
    applied: async (eventId) => events.has(eventId),
  };
}
