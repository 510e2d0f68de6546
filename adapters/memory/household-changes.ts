import type { HouseholdChangeFeed } from '../../ports/household-changes.js';
import type { MemoryTables } from './stores.js';

/** A household's state is its revision and its count of list writes; the memory stores tell of their writes. */
export function memoryHouseholdChanges(t: MemoryTables): HouseholdChangeFeed {
  return {
    async states(householdIds) {
      const out = new Map<string, string>();
      for (const id of householdIds) {
        const revision = t.revisions.get(id);
        if (revision !== undefined) out.set(id, `${revision}.${t.listWrites.get(id) ?? 0}`);
      }
      return out;
    },
    watch(listener) {
      // A listener of its own, so that watching twice with one function stops each separately.
      const own = (c: Parameters<typeof listener>[0]) => listener(c);
      t.watchers.add(own);
      return () => {
        t.watchers.delete(own);
      };
    },
  };
}
