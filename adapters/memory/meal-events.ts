import type { MealEvent } from '../../core/events/types.js';
import type { EventPosition, MealEventStore } from '../../ports/meal-event-store.js';
import { bumpRevision, type MemoryTables } from './stores.js';

/** List order: date, then createdAt, then id. */
const compare = (a: EventPosition, b: EventPosition): number =>
  a.date < b.date ? -1 : a.date > b.date ? 1 : a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export function memoryMealEventStore(t: MemoryTables): MealEventStore {
  const events = new Map<string, MealEvent>();
  // Household and member rows may go without this store being told, as the SQL cascades do: a gone household
  // takes its events, a gone member her attendance rows.
  const alive = (e: MealEvent) => t.households.has(e.householdId);
  const view = (e: MealEvent): MealEvent =>
    structuredClone({ ...e, participants: e.participants.filter((p) => p.householdMemberId === null || t.members.has(p.householdMemberId)) });
  const of = (householdId: string) => [...events.values()].filter((e) => e.householdId === householdId && alive(e)).sort(compare);
  return {
    async create(batch) {
      const ids = new Set(batch.map((e) => e.id));
      if (ids.size !== batch.length || batch.some((e) => events.has(e.id))) throw new Error('meal event id taken');
      if (batch.some((e) => !t.households.has(e.householdId))) throw new Error('no such household');
      for (const e of batch) events.set(e.id, structuredClone(e));
      for (const h of new Set(batch.map((e) => e.householdId))) bumpRevision(t, h);
    },
    async byId(householdId, eventId) {
      const e = events.get(eventId);
      return e && e.householdId === householdId && alive(e) ? view(e) : null;
    },
    async byIds(householdId, eventIds) {
      const wanted = new Set(eventIds);
      return of(householdId).filter((e) => wanted.has(e.id)).map(view);
    },
    async eventsBetween(householdId, from, to) {
      return of(householdId).filter((e) => e.date >= from && e.date <= to).map(view);
    },
    async page(householdId, q) {
      return of(householdId)
        .filter((e) => (q.from === null || e.date >= q.from) && (q.to === null || e.date <= q.to) && (q.after === null || compare(e, q.after) > 0))
        .slice(0, q.limit)
        .map(view);
    },
    async rewrite(householdId, replace, remove) {
      const mine = (id: string) => {
        const e = events.get(id);
        return e !== undefined && e.householdId === householdId && alive(e);
      };
      if (![...replace.map((e) => e.id), ...remove].every(mine)) return false;
      for (const e of replace) {
        const before = events.get(e.id)!;
        events.set(e.id, structuredClone({ ...e, householdId, createdAt: before.createdAt }));
      }
      for (const id of remove) events.delete(id);
      if (replace.length + remove.length > 0) bumpRevision(t, householdId);
      return true;
    },
  };
}
