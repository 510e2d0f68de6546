import { newestTrips, type HandOrder, type TripTick } from '../../core/shopping/aisle-order.js';
import type { AisleOrderStore, AisleTick } from '../../ports/aisle-order-store.js';
import type { ShoppingListStore } from '../../ports/shopping-list-store.js';
import type { MemoryTables } from './stores.js';

/**
 * The tick log and hand orders in memory. Whether a trip is finished is read from the memory list store (given
 * late: it is built alongside this one), as the database joins the list's row.
 */
export function memoryAisleOrderStore(t: MemoryTables, lists: () => Pick<ShoppingListStore, 'byPlan'>): AisleOrderStore {
  let seq = 0;
  let ticks: (AisleTick & { seq: number })[] = [];
  const hands = new Map<string, HandOrder & { householdId: string }>();
  const key = (householdId: string, store: string) => JSON.stringify([householdId, store]);
  const alive = (householdId: string) => t.households.has(householdId);
  return {
    async recordTick(tick, keepTrips) {
      ticks = ticks.filter((x) => !(x.listId === tick.listId && x.lineId === tick.lineId));
      ticks.push({ ...tick, seq: ++seq });
      const mine = (x: AisleTick) => x.householdId === tick.householdId && x.store === tick.store;
      const last = new Map<string, number>();
      for (const x of ticks) if (mine(x)) last.set(x.listId, x.seq);
      const kept = new Set([...last].sort((a, b) => b[1] - a[1]).slice(0, keepTrips).map(([listId]) => listId));
      ticks = ticks.filter((x) => !mine(x) || kept.has(x.listId));
    },
    async finishedTrips(householdId, store, limit) {
      if (!alive(householdId)) return [];
      const finished: TripTick[] = [];
      const completedAt = new Map<string, Date | null>();
      for (const x of ticks) {
        if (x.householdId !== householdId || x.store !== store) continue;
        if (!completedAt.has(x.listId)) {
          const list = await lists().byPlan(householdId, x.planId);
          completedAt.set(x.listId, list?.id === x.listId ? list.completedAt : null);
        }
        const at = completedAt.get(x.listId);
        if (at) finished.push({ listId: x.listId, finishedAt: at, aisle: x.aisle, seq: x.seq });
      }
      return newestTrips(finished, limit);
    },
    async handOrder(householdId, store) {
      const h = alive(householdId) ? hands.get(key(householdId, store)) : undefined;
      return h ? { aisles: [...h.aisles], setAt: new Date(h.setAt.getTime()) } : null;
    },
    async setHandOrder(householdId, store, aisles, at) {
      hands.set(key(householdId, store), { householdId, aisles: [...aisles], setAt: new Date(at.getTime()) });
    },
    async forgetHandOrder(householdId, store) {
      return alive(householdId) && hands.delete(key(householdId, store));
    },
  };
}
