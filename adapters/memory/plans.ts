import type { PlanRow, PlanStore } from '../../ports/plan-store.js';
import { weekDates, weekStartOf } from '../../core/kernel/dates.js';
import type { MemoryPushOutbox } from './invites.js';
import { bumpRevision, type MemoryTables } from './stores.js';

export function memoryPlanStore(t: MemoryTables, outbox: MemoryPushOutbox): PlanStore {
  const plans = new Map<string, PlanRow>();
  t.onRecipeDeleted.push((householdId, recipeId) => {
    for (const [id, p] of plans) {
      if (p.householdId === householdId && p.days.some((d) => d.recipeId === recipeId)) {
        plans.set(id, { ...p, days: p.days.map((d) => (d.recipeId === recipeId ? { ...d, recipeId: null } : d)) });
        bumpRevision(t, householdId);
      }
    }
  });
  const alive = (p: PlanRow) => t.households.has(p.householdId);
  const find = (pred: (p: PlanRow) => boolean) => {
    const p = [...plans.values()].find((x) => alive(x) && pred(x));
    return p ? structuredClone(p) : null;
  };
  return {
    async getOrCreate(householdId, weekStart, fresh) {
      const existing = find((p) => p.householdId === householdId && p.weekStart === weekStart);
      if (existing) return existing;
      const plan: PlanRow = {
        id: fresh.planId,
        householdId,
        weekStart,
        createdAt: fresh.at,
        updatedAt: fresh.at,
        days: weekDates(weekStart).map((date, i) => ({ id: fresh.dayIds[i]!, date, recipeId: null, portionsOverride: null, note: null })),
      };
      plans.set(plan.id, plan);
      bumpRevision(t, householdId);
      return structuredClone(plan);
    },
    async byId(householdId, planId) {
      return find((p) => p.householdId === householdId && p.id === planId);
    },
    async byWeek(householdId, weekStart) {
      return find((p) => p.householdId === householdId && p.weekStart === weekStart);
    },
    async weeksBetween(householdId, fromWeek, toWeek) {
      return [...plans.values()]
        .filter((p) => alive(p) && p.householdId === householdId && p.weekStart >= fromWeek && p.weekStart <= toWeek)
        .sort((a, b) => a.weekStart.localeCompare(b.weekStart))
        .map((p) => structuredClone(p));
    },
    async setDay(householdId, planId, date, day, at) {
      const p = plans.get(planId);
      if (!p || !alive(p) || p.householdId !== householdId) return null;
      const current = p.days.find((d) => d.date === date);
      if (!current) return null;
      const updated = { ...current, recipeId: day.recipeId, portionsOverride: day.portionsOverride, note: day.note };
      plans.set(planId, { ...p, updatedAt: at, days: p.days.map((d) => (d.date === date ? updated : d)) });
      bumpRevision(t, householdId);
      return { ...updated };
    },
    async setDishes(householdId, planId, dishes, at, push) {
      const p = plans.get(planId);
      if (!p || !alive(p) || p.householdId !== householdId) return { refused: 'plan-not-found' };
      if (dishes.some((d) => !p.days.some((x) => x.date === d.date))) return { refused: 'date-outside-week' };
      if (dishes.some((d) => d.recipeId !== null && t.recipeHouseholds.get(d.recipeId) !== householdId)) return { refused: 'recipe-not-found' };
      // The push first: one the outbox refuses leaves the plan as it was, as the transaction would.
      if (push) outbox.insert(push);
      const dishOf = new Map(dishes.map((d) => [d.date, d.recipeId]));
      const next: PlanRow = { ...p, updatedAt: at, days: p.days.map((d) => (dishOf.has(d.date) ? { ...d, recipeId: dishOf.get(d.date) ?? null } : d)) };
      plans.set(planId, next);
      bumpRevision(t, householdId);
      return structuredClone(next);
    },
  };
}
