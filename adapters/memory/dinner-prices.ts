import type { DinnerPriceMeasurement, DinnerPricePublication } from '../../core/dinnerprices/types.js';
import type { DinnerPriceStore } from '../../ports/dinner-price-store.js';

const copy = <T>(v: T): T => structuredClone(v);
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Household-independent figures: no cascade reaches them, so the store keeps its own state. */
export function memoryDinnerPriceStore(): DinnerPriceStore {
  const measurements = new Map<string, DinnerPriceMeasurement>();
  let publication: DinnerPricePublication | null = null;
  const keyOf = (type: string, week: string) => `${type}/${week}`;
  return {
    async recordMeasurement(m) {
      const key = keyOf(m.householdType, m.week);
      if (measurements.has(key)) return false;
      measurements.set(key, copy(m));
      return true;
    },
    async measurementOf(type, week) {
      const m = measurements.get(keyOf(type, week));
      return m ? copy(m) : null;
    },
    async measurementsBefore(beforeWeekStart) {
      return [...measurements.values()]
        .filter((m) => m.weekStart < beforeWeekStart)
        .sort((a, b) => cmp(a.weekStart, b.weekStart) || cmp(a.householdType, b.householdType))
        .map(copy);
    },
    async savePublication(p) {
      publication = copy(p);
    },
    async publication() {
      return publication === null ? null : copy(publication);
    },
  };
}
