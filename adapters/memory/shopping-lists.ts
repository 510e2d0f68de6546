import type { ShoppingList, ShoppingListStore } from '../../ports/shopping-list-store.js';
import type { MemoryTables } from './stores.js';

export function memoryShoppingListStore(t: MemoryTables): ShoppingListStore {
  const lists = new Map<string, ShoppingList>();
  // Lists go with their household, as the SQL cascade does.
  const alive = (l: ShoppingList) => t.households.has(l.householdId);
  const copy = (l: ShoppingList): ShoppingList => structuredClone(l);
  const find = (householdId: string, planId: string) => [...lists.values()].find((l) => alive(l) && l.householdId === householdId && l.planId === planId);
  return {
    async byPlan(householdId, planId) {
      const l = find(householdId, planId);
      return l ? copy(l) : null;
    },
    async byLine(householdId, lineId) {
      const l = [...lists.values()].find((x) => alive(x) && x.householdId === householdId && x.lines.some((line) => line.id === lineId));
      return l ? copy(l) : null;
    },
    async change(householdId, planId, fresh, decide) {
      // No await between the read and the write: the change is atomic in this process.
      const current = find(householdId, planId) ?? null;
      const { write, result } = decide(current ? copy(current) : null);
      if (write === null) return { list: current ? copy(current) : null, result };
      const next: ShoppingList = current
        ? { ...current, ...structuredClone(write), version: current.version + 1 }
        : { id: fresh.listId, householdId, planId, version: 1, ...structuredClone(write) };
      lists.set(next.id, next);
      return { list: copy(next), result };
    },
  };
}
