import type { PantryObservation } from '../../core/pantry/types.js';
import type { PantryObservationStore } from '../../ports/pantry-observation-store.js';
import { bumpRevision, type MemoryTables } from './stores.js';

/** The pantry log in memory; a household that is gone takes its observations along (the SQL cascade). */
export function memoryPantryObservationStore(t: MemoryTables): PantryObservationStore {
  // In the order written; reads sort by observedAt, stably, so the order written breaks ties as seq does in SQL.
  let log: PantryObservation[] = [];
  const of = (householdId: string) =>
    t.households.has(householdId)
      ? log.filter((o) => o.householdId === householdId).sort((a, b) => a.observedAt.getTime() - b.observedAt.getTime()).map((o) => structuredClone(o))
      : [];
  const removeWhere = (keep: (o: PantryObservation) => boolean): number => {
    const before = log.length;
    log = log.filter(keep);
    return before - log.length;
  };
  const store: PantryObservationStore = {
    async add(o) {
      if (!t.households.has(o.householdId)) throw new Error('no such household');
      if (log.some((x) => x.id === o.id)) throw new Error('observation id taken');
      log.push(structuredClone(o));
      bumpRevision(t, o.householdId);
    },
    async addAll(observations) {
      for (const o of observations) await store.add(o);
    },
    async addToFoodLog(o, foodKeys) {
      await store.add(o);
      return store.ofFoods(o.householdId, foodKeys);
    },
    async ofHousehold(householdId) {
      return of(householdId);
    },
    async ofFoods(householdId, foodKeys) {
      const wanted = new Set(foodKeys);
      return of(householdId).filter((o) => wanted.has(o.foodKey));
    },
    async remove(householdId, observationId) {
      const removed = removeWhere((o) => !(o.householdId === householdId && o.id === observationId)) > 0;
      if (removed) bumpRevision(t, householdId);
      return removed;
    },
    async removeOfFoods(householdId, foodKeys) {
      const wanted = foodKeys === null ? null : new Set(foodKeys);
      const removed = removeWhere((o) => !(o.householdId === householdId && (wanted === null || wanted.has(o.foodKey))));
      if (removed > 0) bumpRevision(t, householdId);
      return removed;
    },
  };
  return store;
}
