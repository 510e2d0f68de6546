import type { DinnerCalendarLink, DinnerCalendarStore } from '../../ports/dinner-calendar-store.js';
import type { MemoryTables } from './stores.js';

export function memoryDinnerCalendarStore(t: MemoryTables): DinnerCalendarStore {
  const links = new Map<string, DinnerCalendarLink>();
  // A deleted household's link is gone with it, as the foreign key's cascade has it.
  const alive = (householdId: string) => t.households.has(householdId);
  const linkOf = (householdId: string) => (alive(householdId) ? structuredClone(links.get(householdId) ?? null) : null);
  const write = (householdId: string, token: string | null, at: Date) => {
    if (!t.households.has(householdId)) throw new Error(`no household ${householdId}`);
    if (token !== null && [...links.values()].some((l) => l.token === token && l.householdId !== householdId)) throw new Error('dinner calendar token taken');
    const before = links.get(householdId);
    links.set(householdId, { householdId, token, createdAt: before?.createdAt ?? at, updatedAt: at });
  };
  return {
    linkOf: async (householdId) => linkOf(householdId),
    async ensure(householdId, token, at) {
      if (!linkOf(householdId)) write(householdId, token, at);
      return linkOf(householdId)!;
    },
    async replace(householdId, token, at) {
      write(householdId, token, at);
      return linkOf(householdId)!;
    },
    async householdOf(token) {
      const link = [...links.values()].find((l) => l.token === token);
      return link && alive(link.householdId) ? link.householdId : null;
    },
  };
}
