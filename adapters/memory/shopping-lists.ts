import type { PantryObservationStore } from '../../ports/pantry-observation-store.js';
import type { PushOutbox } from '../../ports/push-outbox.js';
import type { ShoppingList, ShoppingListStore } from '../../ports/shopping-list-store.js';
import type { MemoryTables } from './stores.js';

/**
 * The list's effects go through the memory pantry and outbox, called with no await between them and the write
 * (the memory stores' bodies run to their end when called); a refused effect puts the list back.
 */
export function memoryShoppingListStore(t: MemoryTables, side: { pantry: PantryObservationStore; pushOutbox: PushOutbox }): ShoppingListStore {
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
    async stamp(householdId, planId) {
      const l = find(householdId, planId);
      return l ? structuredClone({ id: l.id, version: l.version, completedAt: l.completedAt, derivation: l.derivation }) : null;
    },
    async byLine(householdId, lineId) {
      const l = [...lists.values()].find((x) => alive(x) && x.householdId === householdId && x.lines.some((line) => line.id === lineId));
      return l ? copy(l) : null;
    },
    async change(householdId, planId, fresh, decide) {
      // No await between the read and the writes: the change and its effects are atomic in this process (the memory
      // stores' bodies run to their end when called).
      const current = find(householdId, planId) ?? null;
      const { write, result, derivation, effects } = decide(current ? copy(current) : null);
      if (write === null) {
        if (current && derivation !== undefined) lists.set(current.id, { ...current, derivation: structuredClone(derivation) });
        const after = current ? find(householdId, planId)! : null;
        return { list: after ? copy(after) : null, result };
      }
      const kept = derivation === undefined ? (current?.derivation ?? null) : derivation;
      const next: ShoppingList = current
        ? { ...current, ...structuredClone(write), derivation: structuredClone(kept), version: current.version + 1 }
        : { id: fresh.listId, householdId, planId, version: 1, derivation: structuredClone(kept), ...structuredClone(write) };
      // The effects first: one that is refused (an id taken) leaves the list as it was.
      const pending = [
        ...(effects?.addObservations ?? []).map((o) => side.pantry.add(o)),
        ...(effects?.removeObservations ?? []).map((id) => side.pantry.remove(householdId, id)),
        ...(effects?.pushes ?? []).map((e) => side.pushOutbox.record(e)),
      ];
      lists.set(next.id, next);
      try {
        await Promise.all(pending);
      } catch (err) {
        if (current) lists.set(current.id, current);
        else lists.delete(next.id);
        throw err;
      }
      return { list: copy(next), result };
    },
  };
}
